//! `mmconform media export DIR`: the stamped files a client author sends through their
//! library to `mmconform witness`, listed with the nonce each carries.

use super::CliError;
use super::args::{MediaArgs, MediaCommand, MediaExportArgs, MediaKindArg};
use crate::exit::Ending;
use crate::report::write_atomically;

/// Longest base nonce accepted: the stamp reader keeps 128 characters, and `-pN` follows.
const MAX_NONCE: usize = 64;

pub fn media(args: &MediaArgs) -> Result<Ending, CliError> {
    match &args.command {
        MediaCommand::Export(args) => export(args),
    }
}

/// MIME type and file name stem of each kind.
fn file_of(kind: MediaKindArg) -> (&'static str, &'static str) {
    match kind {
        MediaKindArg::Png => ("image/png", "image.png"),
        MediaKindArg::Jpeg => ("image/jpeg", "image.jpg"),
        MediaKindArg::Webp => ("image/webp", "image.webp"),
        MediaKindArg::Wav => ("audio/wav", "audio.wav"),
        MediaKindArg::Mp3 => ("audio/mpeg", "audio.mp3"),
        MediaKindArg::Pdf => ("application/pdf", "document.pdf"),
    }
}

/// A nonce the stamp reader reads back whole.
fn check_nonce(nonce: &str) -> Result<(), String> {
    let ok = !nonce.is_empty()
        && nonce.len() <= MAX_NONCE
        && nonce
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--nonce: 1 to {MAX_NONCE} letters, digits, '-' or '_' (got {nonce:?})"
        ))
    }
}

fn export(args: &MediaExportArgs) -> Result<Ending, CliError> {
    let nonce = args.nonce.clone().unwrap_or_else(crate::runner::new_nonce);
    check_nonce(&nonce).map_err(CliError::Usage)?;
    let mut lines = Vec::new();
    for (index, kind) in args.kinds.iter().enumerate() {
        let (mime, stem) = file_of(*kind);
        let name = format!("p{index}-{stem}");
        let stamp = format!("{nonce}-p{index}");
        let bytes = mmconform_media::generate(mime, &stamp);
        let path = args.dir.join(&name);
        write_atomically(&path, &bytes)
            .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", path.display())))?;
        let sha = crate::digest::sha256_hex(&bytes);
        lines.push(format!(
            "{name:18} {mime:16} {:>6} B  nonce {stamp}  sha256 {sha}",
            bytes.len()
        ));
    }
    super::out::line(format_args!(
        "wrote {} file(s) to {}, nonce {nonce}:",
        lines.len(),
        args.dir.display()
    ));
    for line in lines {
        super::out::line(format_args!("  {line}"));
    }
    super::out::line(format_args!(
        "send them through your client to `mmconform witness`; several in one message, in \
         this order, also check that part order is kept"
    ));
    Ok(Ending::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_must_read_back_whole() {
        for ok in ["a", "0123abcd", "case_1-x", &"n".repeat(MAX_NONCE)] {
            assert_eq!(check_nonce(ok), Ok(()), "{ok}");
        }
        for bad in ["", "a b", "a.b", "é", &"n".repeat(MAX_NONCE + 1)] {
            assert!(check_nonce(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_kind_is_a_real_file_of_its_type() {
        for kind in [
            MediaKindArg::Png,
            MediaKindArg::Jpeg,
            MediaKindArg::Webp,
            MediaKindArg::Wav,
            MediaKindArg::Mp3,
            MediaKindArg::Pdf,
        ] {
            let (mime, _) = file_of(kind);
            let bytes = mmconform_media::generate(mime, "n");
            assert_eq!(mmconform_media::sniff_mime(&bytes), Some(mime), "{kind:?}");
        }
    }
}
