//! The reference agent's "model": what it does with schema-valid parts. A part it
//! cannot use ends the run with `RUN_ERROR` (never a silent drop); the parts it uses
//! are echoed back, with their byte counts and the nonce found in their media, in the
//! `mmconform.echo` event third-party echo agents imitate. What reached the model is
//! also kept in the OpenAI shape ([`Seen::wire`]) for an agent that forwards it to an
//! upstream model (`forward.rs`).

use super::input::{Part, Source};
use super::{AgentConfig, AguiFault, EchoPart, PART_KINDS};
use crate::openai_wire::{Body, Media, WirePart};
use base64::Engine as _;

/// What became of a run's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every part reached the model; these are the parts it saw.
    Completed(Vec<EchoPart>),
    /// A well-formed part the agent cannot use.
    RunError { code: &'static str, message: String },
    /// The `crash-on-invalid-base64` variant: a 500 before any stream.
    Crash(String),
}

/// Inline media reach the model cut to this many bytes under `truncates-media`.
const TRUNCATED_BYTES: usize = 64;

/// The file id the reference agent resolves for a part kind (`--media-ref KIND=ID`).
pub fn known_file_id(kind: &str) -> Option<String> {
    PART_KINDS
        .contains(&kind)
        .then(|| format!("mmconform-file-{kind}"))
}

/// The file the agent holds for a part kind (its [`known_file_id`]): a real file of
/// the kind's default type.
pub fn held_file(kind: &str) -> Vec<u8> {
    mmconform_media::generate(mmconform_media::default_mime(kind), "reference-file")
}

/// Length of mmconform's run nonce: 16 lower-case hex digits.
pub const NONCE_DIGITS: usize = 16;
/// Most digits of a case suffix (`-c<plan index>`) read after the run nonce.
const CASE_DIGITS: usize = 9;

/// The nonce stamped into the media by mmconform: the 16 lower-case hex digits after
/// `mmconform-nonce:`, with the case suffix `-c<digits>` when one follows (each case
/// stamps its own nonce, the run's plus `-c<plan index>`). Exactly 16 digits, because
/// what follows the stamp in a file is format bytes (a PNG chunk's CRC, say) that may
/// happen to look like more digits.
pub fn find_nonce(bytes: &[u8]) -> Option<String> {
    const STAMP: &[u8] = b"mmconform-nonce:";
    let start = bytes.windows(STAMP.len()).position(|w| w == STAMP)? + STAMP.len();
    let digits = bytes.get(start..start + NONCE_DIGITS)?;
    if !digits
        .iter()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
    {
        return None;
    }
    let rest = &bytes[start + NONCE_DIGITS..];
    let suffix = match rest.strip_prefix(b"-c") {
        Some(after) => {
            let n = after
                .iter()
                .take(CASE_DIGITS)
                .take_while(|b| b.is_ascii_digit())
                .count();
            if n > 0 { 2 + n } else { 0 }
        }
        None => 0,
    };
    let end = start + NONCE_DIGITS + suffix;
    Some(String::from_utf8_lossy(&bytes[start..end]).into_owned())
}

/// One part as it reached the model: what the echo says of it, and its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub echo: EchoPart,
    pub wire: WirePart,
}

fn run_error(code: &'static str, message: String) -> Verdict {
    Verdict::RunError { code, message }
}

/// The bytes a source stands for, as the model would read them; `Ok(None)` when the
/// agent does not read them (it never fetches a URL: no outbound request, ever).
fn read_bytes(
    config: &AgentConfig,
    kind: &str,
    source: &Source,
) -> Result<Option<Vec<u8>>, Verdict> {
    match source {
        Source::Data { value, .. } => {
            // The lax-base64 fault decodes as Python's default does: characters outside
            // the alphabet are skipped (RFC 4648 §3.3 says to reject them).
            let value: String = if config.fault == Some(AguiFault::LaxBase64) {
                value
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
                    .collect()
            } else {
                value.clone()
            };
            match base64::engine::general_purpose::STANDARD.decode(&value) {
                Ok(bytes) => {
                    check_declared(config, kind, source, &value)?;
                    Ok(Some(bytes))
                }
                Err(e) => match config.fault {
                    Some(AguiFault::CrashOnInvalidBase64) => {
                        Err(Verdict::Crash(format!("base64 decode failed: {e}")))
                    }
                    Some(AguiFault::AcceptsInvalidBase64) => Ok(None),
                    _ => Err(run_error(
                        "invalid_media",
                        format!("the {kind} part's data is not valid base64 ({e})"),
                    )),
                },
            }
        }
        Source::Url { value, .. } => match url::Url::parse(value) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(None),
            // The fault takes any scheme (and still never opens it).
            Ok(_) if config.fault == Some(AguiFault::AcceptsNonHttpUrl) => Ok(None),
            _ => Err(run_error(
                "invalid_url",
                format!("the {kind} part's url `{value}` is not an http(s) URL"),
            )),
        },
        Source::File { value, .. } => match known_file_id(kind) {
            Some(id) if *value == id => Ok(Some(held_file(kind))),
            _ => Err(run_error(
                "file_not_found",
                format!("no file `{value}` for a {kind} part"),
            )),
        },
    }
}

/// A data source's bytes are the type its `mimeType` says, when their signature names
/// one: a WAV file said to be an image ends the run (the model would read garbage).
fn check_declared(
    config: &AgentConfig,
    kind: &str,
    source: &Source,
    value: &str,
) -> Result<(), Verdict> {
    let (Some(declared), Some(sniffed)) = (source.mime(), super::input::sniff(value)) else {
        return Ok(());
    };
    let same =
        mmconform_media::canonical_mime(declared) == mmconform_media::canonical_mime(sniffed);
    if same || config.fault == Some(AguiFault::AcceptsMismatchedMime) {
        return Ok(());
    }
    Err(run_error(
        "invalid_media",
        format!("the {kind} part says {declared}, but its bytes are {sniffed}"),
    ))
}

fn media(config: &AgentConfig, kind: &str, source: &Source) -> Result<Option<Seen>, Verdict> {
    let accepts = &config.accepts;
    let fault = config.fault;
    if !accepts.accepts_kind(kind) {
        if fault == Some(AguiFault::CompletesUndeclaredKind) {
            return Ok(None);
        }
        return Err(run_error(
            "unsupported_part_kind",
            format!(
                "this agent does not accept {kind} parts (it accepts {})",
                accepts.prefixes().join(", ")
            ),
        ));
    }
    let source_kind = source.kind();
    let inline_only = fault == Some(AguiFault::InlineSourcesOnly) && source_kind != "data";
    if inline_only || !config.sources().contains(&source_kind) {
        return Err(run_error(
            "unsupported_source",
            format!("this agent does not take {source_kind} sources"),
        ));
    }
    if let Some(mime) = source.mime()
        && !accepts.accepts_mime(mime)
        && fault != Some(AguiFault::IgnoresMimePrefix)
    {
        return Err(run_error(
            "unsupported_media_type",
            format!(
                "{mime} is outside what this agent accepts ({})",
                accepts.prefixes().join(", ")
            ),
        ));
    }
    let mut bytes = read_bytes(config, kind, source)?;
    if fault == Some(AguiFault::ForwardsImagesOnly) && kind != "image" {
        return Ok(None);
    }
    if fault == Some(AguiFault::TruncatesMedia)
        && let (Source::Data { .. }, Some(b)) = (source, bytes.as_mut())
    {
        b.truncate(TRUNCATED_BYTES);
    }
    let echo = EchoPart {
        kind: kind.to_string(),
        source: Some(source_kind.to_string()),
        mime_type: source.mime().map(str::to_string),
        bytes: bytes.as_ref().map(|b| b.len() as u64),
        nonce: bytes.as_deref().and_then(find_nonce),
    };
    let wire = WirePart::Media(wire_media(config, kind, source, bytes.as_deref()));
    Ok(Some(Seen { echo, wire }))
}

/// The part as the model gets it: inline data as it came (or as cut by
/// `truncates-media`), a url as it is, a file as the bytes the agent holds (of the
/// kind's default type, which is what it holds).
fn wire_media(config: &AgentConfig, kind: &str, source: &Source, bytes: Option<&[u8]>) -> Media {
    let truncated = config.fault == Some(AguiFault::TruncatesMedia);
    let (mime, body) = match (source, bytes) {
        (Source::Data { mime, .. }, Some(bytes)) if truncated => (mime.clone(), Body::bytes(bytes)),
        (Source::Data { value, mime }, _) => (mime.clone(), Body::Base64(value.clone())),
        (Source::Url { value, mime }, _) => (
            mime.clone()
                .unwrap_or_else(|| mmconform_media::default_mime(kind).to_owned()),
            Body::Url(value.clone()),
        ),
        (Source::File { .. }, bytes) => (
            mmconform_media::default_mime(kind).to_owned(),
            Body::bytes(bytes.unwrap_or_default()),
        ),
    };
    Media {
        kind: kind.to_owned(),
        mime,
        body,
    }
}

/// Runs the model on the parts of a schema-valid input.
pub fn run(config: &AgentConfig, parts: &[Part]) -> Verdict {
    match see(config, parts) {
        Ok(seen) => Verdict::Completed(seen.into_iter().map(|s| s.echo).collect()),
        Err(verdict) => verdict,
    }
}

/// What of `parts` reaches the model, in order, or the verdict that ends the run.
pub fn see(config: &AgentConfig, parts: &[Part]) -> Result<Vec<Seen>, Verdict> {
    let mut seen = Vec::new();
    for part in parts {
        match part {
            Part::Text {
                text,
                string_content,
            } => {
                if *string_content && config.fault == Some(AguiFault::RefusesStringContent) {
                    return Err(run_error(
                        "unsupported_content",
                        "this agent takes content parts only".into(),
                    ));
                }
                seen.push(Seen {
                    echo: EchoPart::text(),
                    wire: WirePart::Text(text.clone()),
                });
            }
            Part::Media { kind, source } => seen.extend(media(config, kind, source)?),
        }
    }
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONCE: &str = "0123456789abcdef";

    fn png(nonce: &str) -> String {
        base64::engine::general_purpose::STANDARD
            .encode(mmconform_media::generate("image/png", nonce))
    }

    fn data(kind: &str, mime: &str, value: String) -> Part {
        Part::Media {
            kind: kind.into(),
            source: Source::Data {
                value,
                mime: mime.into(),
            },
        }
    }

    fn with(fault: Option<AguiFault>) -> AgentConfig {
        AgentConfig {
            fault,
            ..AgentConfig::default()
        }
    }

    #[test]
    fn the_echo_reports_kinds_bytes_and_the_nonce() {
        let Verdict::Completed(echo) = run(
            &with(None),
            &[
                Part::Text {
                    text: "look".into(),
                    string_content: false,
                },
                data("image", "image/png", png(NONCE)),
            ],
        ) else {
            panic!("expected completion");
        };
        assert_eq!(echo.len(), 2);
        assert_eq!(echo[1].nonce.as_deref(), Some(NONCE));
        assert_eq!(
            echo[1].bytes,
            Some(mmconform_media::generate("image/png", NONCE).len() as u64)
        );
    }

    #[test]
    fn unusable_parts_end_in_run_error() {
        let code = |v: Verdict| match v {
            Verdict::RunError { code, .. } => code,
            other => panic!("{other:?}"),
        };
        let faithful = with(None);
        assert_eq!(
            code(run(&faithful, &[data("video", "video/mp4", png("n"))])),
            "unsupported_part_kind"
        );
        assert_eq!(
            code(run(&faithful, &[data("audio", "audio/mpeg", png("n"))])),
            "unsupported_media_type"
        );
        assert_eq!(
            code(run(
                &faithful,
                &[data("image", "image/png", "not base64!".into())]
            )),
            "invalid_media"
        );
        let file = Part::Media {
            kind: "image".into(),
            source: Source::File {
                value: "other".into(),
                mime: None,
            },
        };
        assert_eq!(code(run(&faithful, &[file])), "file_not_found");
        let url = Part::Media {
            kind: "image".into(),
            source: Source::Url {
                value: "ftp://x".into(),
                mime: None,
            },
        };
        assert_eq!(code(run(&faithful, &[url])), "invalid_url");
        let wav = base64::engine::general_purpose::STANDARD
            .encode(mmconform_media::generate("audio/wav", NONCE));
        let said_png = [data("image", "image/png", wav)];
        assert_eq!(code(run(&faithful, &said_png)), "invalid_media");
        assert!(matches!(
            run(&with(Some(AguiFault::AcceptsMismatchedMime)), &said_png),
            Verdict::Completed(_)
        ));
    }

    #[test]
    fn faults_change_exactly_their_behaviour() {
        let bad = [data("image", "image/png", "%%%".into())];
        assert!(matches!(
            run(&with(Some(AguiFault::CrashOnInvalidBase64)), &bad),
            Verdict::Crash(_)
        ));
        assert!(matches!(
            run(&with(Some(AguiFault::AcceptsInvalidBase64)), &bad),
            Verdict::Completed(_)
        ));
        let video = [data("video", "video/mp4", png("n"))];
        assert_eq!(
            run(&with(Some(AguiFault::CompletesUndeclaredKind)), &video),
            Verdict::Completed(vec![])
        );
        let wav = base64::engine::general_purpose::STANDARD
            .encode(mmconform_media::generate("audio/wav", "n"));
        let audio = [data("audio", "audio/wav", wav)];
        assert_eq!(
            run(&with(Some(AguiFault::ForwardsImagesOnly)), &audio),
            Verdict::Completed(vec![])
        );
        let Verdict::Completed(cut) = run(
            &with(Some(AguiFault::TruncatesMedia)),
            &[data("image", "image/png", png("n"))],
        ) else {
            panic!()
        };
        assert_eq!(cut[0].bytes, Some(64));
        assert!(matches!(
            run(
                &with(Some(AguiFault::RefusesStringContent)),
                &[Part::Text {
                    text: "hi".into(),
                    string_content: true
                }]
            ),
            Verdict::RunError { .. }
        ));
    }

    #[test]
    fn nonces_are_read_after_the_stamp() {
        assert_eq!(
            find_nonce(b"xx mmconform-nonce:0123456789abcdef0b\0rest"),
            Some(NONCE.into())
        );
        assert_eq!(find_nonce(b"mmconform-nonce:0123"), None);
        assert_eq!(find_nonce(b"mmconform-nonce:0123456789ABCDEF"), None);
        assert_eq!(find_nonce(b"nothing"), None);
        // A case's nonce: the run's plus `-c<plan index>`, read whole.
        let png = mmconform_media::generate("image/png", "0123456789abcdef-c17");
        assert_eq!(find_nonce(&png).as_deref(), Some("0123456789abcdef-c17"));
        assert_eq!(
            find_nonce(b"mmconform-nonce:0123456789abcdef-cx").as_deref(),
            Some(NONCE)
        );
    }
}
