//! The reference agent's "model": what it does with schema-valid parts. A part it
//! cannot use ends the run with `RUN_ERROR` (never a silent drop); the parts it uses
//! are echoed back, with their byte counts and the nonce found in their media, in the
//! `mmconform.echo` event third-party echo agents imitate.

use super::input::{Part, Source};
use super::{AgentConfig, AguiFault, EchoPart, PART_KINDS};
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

/// Length of mmconform's run nonce: 16 lower-case hex digits.
pub const NONCE_DIGITS: usize = 16;

/// The nonce stamped into the media by mmconform: the 16 lower-case hex digits after
/// `mmconform-nonce:`. Exactly 16, because what follows the stamp in a file is format
/// bytes (a PNG chunk's CRC, say) that may happen to look like more digits.
pub fn find_nonce(bytes: &[u8]) -> Option<String> {
    const STAMP: &[u8] = b"mmconform-nonce:";
    let start = bytes.windows(STAMP.len()).position(|w| w == STAMP)? + STAMP.len();
    let digits = bytes.get(start..start + NONCE_DIGITS)?;
    digits
        .iter()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
        .then(|| String::from_utf8_lossy(digits).into_owned())
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
            match base64::engine::general_purpose::STANDARD.decode(value) {
                Ok(bytes) => Ok(Some(bytes)),
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
            _ => Err(run_error(
                "invalid_url",
                format!("the {kind} part's url `{value}` is not an http(s) URL"),
            )),
        },
        Source::File { value, .. } => match known_file_id(kind) {
            Some(id) if *value == id => Ok(Some(mmconform_media::generate(
                mmconform_media::default_mime(kind),
                "reference-file",
            ))),
            _ => Err(run_error(
                "file_not_found",
                format!("no file `{value}` for a {kind} part"),
            )),
        },
    }
}

fn media(config: &AgentConfig, kind: &str, source: &Source) -> Result<Option<EchoPart>, Verdict> {
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
    Ok(Some(EchoPart {
        kind: kind.to_string(),
        source: Some(source_kind.to_string()),
        mime_type: source.mime().map(str::to_string),
        bytes: bytes.as_ref().map(|b| b.len() as u64),
        nonce: bytes.as_deref().and_then(find_nonce),
    }))
}

/// Runs the model on the parts of a schema-valid input.
pub fn run(config: &AgentConfig, parts: &[Part]) -> Verdict {
    let mut seen = Vec::new();
    for part in parts {
        match part {
            Part::Text { string_content } => {
                if *string_content && config.fault == Some(AguiFault::RefusesStringContent) {
                    return run_error(
                        "unsupported_content",
                        "this agent takes content parts only".into(),
                    );
                }
                seen.push(EchoPart::text());
            }
            Part::Media { kind, source } => match media(config, kind, source) {
                Ok(Some(echoed)) => seen.push(echoed),
                Ok(None) => {}
                Err(verdict) => return verdict,
            },
        }
    }
    Verdict::Completed(seen)
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
        let audio = [data("audio", "audio/wav", png("n"))];
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
    }
}
