//! What the reference agent declares it accepts, read from the wire description on its
//! own (not borrowed from mmconform's checker, so calibration compares two readings).
//!
//! A capability is a list of MIME prefixes, as AgentRuntime's
//! `mediaCapabilities.acceptsInbound` has it (docs/wire.md, "Declarations"): `image/` accepts every image
//! type; a full type (`audio/wav`) accepts exactly that type, parameters ignored. The part
//! and source kinds are AG-UI 1.0's (docs/wire.md, "Runs").

/// The non-text content-part kinds AG-UI 1.0 defines, in its order.
pub const PART_KINDS: [&str; 4] = ["image", "audio", "video", "document"];

/// The source kinds AG-UI 1.0 defines for a non-text part; the agent takes all three.
pub const SOURCE_KINDS: [&str; 3] = ["data", "url", "file"];

/// The part kind a MIME type (or prefix) belongs to: `image/*` -> image, `audio/*` ->
/// audio, `video/*` -> video, anything else (PDF, text, office files) -> document.
pub fn kind_of_mime(mime: &str) -> &'static str {
    let essence = mime.split(';').next().unwrap_or("").trim();
    let top = essence.split('/').next().unwrap_or("").to_ascii_lowercase();
    match top.as_str() {
        "image" => "image",
        "audio" => "audio",
        "video" => "video",
        _ => "document",
    }
}

/// One MIME prefix, normalised: lower case, `image/*` written `image/`.
fn parse_prefix(raw: &str) -> Result<String, String> {
    let lowered = raw.trim().to_ascii_lowercase();
    let prefix = lowered.strip_suffix('*').unwrap_or(&lowered);
    // RFC 6838 §4.2 restricted-name characters.
    let token = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(c, '!' | '#' | '$' | '&' | '^' | '_' | '.' | '+' | '-')
            })
    };
    match prefix.split_once('/') {
        Some((top, sub)) if token(top) && (sub.is_empty() || token(sub)) => Ok(prefix.to_string()),
        _ => Err(format!(
            "`{raw}` is not a MIME prefix (write `image/` for every image type, or a full type such as `audio/wav`)"
        )),
    }
}

/// The MIME prefixes the agent accepts, in the order given, and the part kinds they cover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepts {
    prefixes: Vec<String>,
    kinds: Vec<String>,
}

impl Accepts {
    /// Reads a list of prefixes (blank entries ignored, duplicates dropped); a bad or
    /// empty list is refused with a message for the command line.
    pub fn parse(list: &[String]) -> Result<Accepts, String> {
        let mut prefixes: Vec<String> = Vec::new();
        for raw in list.iter().filter(|a| !a.trim().is_empty()) {
            let prefix = parse_prefix(raw)?;
            if !prefixes.contains(&prefix) {
                prefixes.push(prefix);
            }
        }
        if prefixes.is_empty() {
            return Err("the declaration accepts nothing: name at least one MIME prefix".into());
        }
        let kinds = PART_KINDS
            .iter()
            .filter(|k| prefixes.iter().any(|p| kind_of_mime(p) == **k))
            .map(|k| k.to_string())
            .collect();
        Ok(Accepts { prefixes, kinds })
    }

    /// The normalised prefixes (`image/`, `audio/wav`), in the order given.
    pub fn prefixes(&self) -> &[String] {
        &self.prefixes
    }

    /// The part kinds with at least one accepted prefix, in AG-UI's order.
    pub fn kinds(&self) -> &[String] {
        &self.kinds
    }

    pub fn accepts_kind(&self, kind: &str) -> bool {
        self.kinds.iter().any(|k| k == kind)
    }

    /// Whether some prefix accepts `mime` (compared on its lower-case essence).
    pub fn accepts_mime(&self, mime: &str) -> bool {
        let essence = mmconform_media::mime_essence(mime);
        self.prefixes.iter().any(|prefix| {
            if prefix.ends_with('/') {
                essence.starts_with(prefix.as_str())
            } else {
                essence == *prefix
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts(s: &str) -> Result<Accepts, String> {
        Accepts::parse(&s.split(',').map(str::to_string).collect::<Vec<_>>())
    }

    #[test]
    fn prefixes_are_normalised_and_checked() {
        let a = accepts(" Image/* ,audio/wav,image/,application/vnd.ms-excel").unwrap();
        assert_eq!(
            a.prefixes(),
            ["image/", "audio/wav", "application/vnd.ms-excel"]
        );
        for bad in ["image", "/png", "image/p ng", "*"] {
            assert!(
                accepts(bad).unwrap_err().contains("not a MIME prefix"),
                "{bad}"
            );
        }
        assert!(accepts(" , ").unwrap_err().contains("accepts nothing"));
    }

    #[test]
    fn a_prefix_accepts_its_subtypes_and_a_full_type_only_itself() {
        let a = accepts("image/,audio/wav").unwrap();
        assert!(a.accepts_mime("image/png"));
        assert!(a.accepts_mime("Audio/WAV; rate=8000"));
        assert!(!a.accepts_mime("audio/wave"));
        assert!(!a.accepts_mime("video/mp4"));
    }

    #[test]
    fn kinds_follow_the_prefixes_in_ag_ui_order() {
        let a = accepts("application/pdf,audio/wav,image/").unwrap();
        assert_eq!(a.kinds(), ["image", "audio", "document"]);
        assert!(a.accepts_kind("document") && !a.accepts_kind("video"));
        assert_eq!(kind_of_mime("video/mp4"), "video");
        assert_eq!(kind_of_mime("text/plain"), "document");
    }
}
