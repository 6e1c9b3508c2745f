//! Media written into a text as base64 characters: a host that cannot hand its model a
//! medium may put its encoding into the text instead (an ACP adapter's `<context
//! encoding="base64">`, an MCP tool result serialised to JSON with its `blob`). The
//! bytes are then in the text the model reads, but as characters: converted to text.
//! Their stamps are found by decoding every long run of base64 characters in the text,
//! so the judges name that conversion instead of calling the medium lost.

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Runs shorter than this are words, ids and digests, not media (a stamp alone
/// encodes to more than 40 characters; a medium to hundreds).
const MIN_RUN: usize = 64;

/// At most this many characters of runs are decoded per text (each at four
/// alignments), so a huge text costs a bounded pass.
const MAX_SCANNED: usize = 16 << 20;

/// Lenient about padding, as hosts are about writing it.
const LENIENT: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
const STANDARD: GeneralPurpose = GeneralPurpose::new(&alphabet::STANDARD, LENIENT);
const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&alphabet::URL_SAFE, LENIENT);

/// The stamps in the media whose base64 is written in `text` (line breaks inside a run
/// are allowed, as MIME writes them), distinct, in order of first appearance.
pub fn stamps(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut scanned = 0;
    for run in runs(text) {
        if scanned >= MAX_SCANNED {
            break;
        }
        let run: Vec<u8> = run
            .bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .take(MAX_SCANNED - scanned)
            .collect();
        scanned += run.len();
        for found in decoded(&run)
            .iter()
            .flat_map(|b| mmconform_media::find_stamps(b))
        {
            if !out.contains(&found) {
                out.push(found);
            }
        }
    }
    out
}

/// The run decoded at each of the four alignments it may start at (a run found in
/// text may begin with a word's last letters), in both alphabets.
fn decoded(run: &[u8]) -> Vec<Vec<u8>> {
    let body = run
        .strip_suffix(b"==")
        .or(run.strip_suffix(b"="))
        .unwrap_or(run);
    (0..4)
        .filter_map(|skip| body.get(skip..))
        .map(|rest| &rest[..rest.len() - rest.len() % 4])
        .flat_map(|aligned| {
            [&STANDARD, &URL_SAFE]
                .into_iter()
                .filter_map(move |engine| engine.decode(aligned).ok())
        })
        .collect()
}

/// Maximal runs of base64 characters (both alphabets, `=` padding, line breaks) at
/// least [`MIN_RUN`] long.
fn runs(text: &str) -> impl Iterator<Item = &str> {
    let is_b64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '-' | '_' | '=');
    text.split(move |c: char| !(is_b64(c) || c == '\n' || c == '\r'))
        .filter(|run| run.bytes().filter(|b| !b.is_ascii_whitespace()).count() >= MIN_RUN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose;

    fn pdf(nonce: &str) -> Vec<u8> {
        mmconform_media::generate("application/pdf", nonce)
    }

    #[test]
    fn a_medium_written_as_base64_in_a_text_is_found_by_its_stamp() {
        let b64 = general_purpose::STANDARD.encode(pdf("0123456789abcdef-c5"));
        let text = format!(
            "[@document-1.pdf](file:///mmconform/document-1.pdf)\n<context ref=\"file:///mmconform/document-1.pdf\" mimeType=\"application/pdf\" encoding=\"base64\">\n{b64}\n</context>"
        );
        assert_eq!(stamps(&text), ["0123456789abcdef-c5"]);
        let json = format!(
            r#"{{"type":"resource","resource":{{"mimeType":"application/pdf","blob":"{b64}"}}}}"#
        );
        assert_eq!(stamps(&json), ["0123456789abcdef-c5"]);
    }

    #[test]
    fn line_breaks_a_misaligned_start_and_the_url_alphabet_are_read() {
        let bytes = pdf("0123456789abcdef-p7");
        let mime = general_purpose::STANDARD
            .encode(&bytes)
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("\r\n");
        assert_eq!(stamps(&mime), ["0123456789abcdef-p7"]);
        let glued = format!("blob{}", general_purpose::STANDARD.encode(&bytes));
        assert_eq!(stamps(&glued), ["0123456789abcdef-p7"]);
        let url = general_purpose::URL_SAFE_NO_PAD.encode(&bytes);
        assert_eq!(stamps(&url), ["0123456789abcdef-p7"]);
    }

    #[test]
    fn plain_text_and_short_runs_carry_no_stamp() {
        assert!(stamps("mmconform 0123456789abcdef-c5 what is in this document?").is_empty());
        assert!(stamps(&"A".repeat(63)).is_empty());
        assert!(stamps(&"QUJD".repeat(1000)).is_empty());
    }
}
