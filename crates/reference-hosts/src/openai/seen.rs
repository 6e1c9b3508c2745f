//! What the model saw of one accepted part, in words a human reads in the answer
//! (`image image/png 2345 bytes detail=high stamp 1f2e...`), and a rough token count
//! for `usage`.

/// One accepted part as the model saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// `text`, `refusal`, `image`, `audio` or `file`.
    pub kind: &'static str,
    /// The part described, without its kind.
    pub detail: String,
    /// The mmconform stamps found in its bytes (none for text and URLs).
    pub stamps: Vec<String>,
    /// Its share of `usage.prompt_tokens`.
    pub tokens: u64,
}

impl Seen {
    pub fn text(text: &str) -> Seen {
        let chars = text.chars().count();
        Seen {
            kind: "text",
            detail: format!("{chars} chars"),
            stamps: Vec::new(),
            tokens: (chars as u64).div_ceil(4).max(1),
        }
    }

    pub fn refusal() -> Seen {
        Seen {
            kind: "refusal",
            detail: String::new(),
            stamps: Vec::new(),
            tokens: 1,
        }
    }

    /// Inline bytes of `mime` (for audio: the format).
    pub fn inline(kind: &'static str, mime: &str, bytes: &[u8], detail: Option<&str>) -> Seen {
        let mut described = format!("{mime} {} bytes", bytes.len());
        if let Some(detail) = detail {
            described.push_str(&format!(" detail={detail}"));
        }
        Seen {
            kind,
            detail: described,
            stamps: mmconform_media::find_stamps(bytes),
            tokens: 85,
        }
    }

    /// A file with its name.
    pub fn file(mime: &str, filename: &str, bytes: &[u8]) -> Seen {
        Seen {
            kind: "file",
            detail: format!("{mime} {filename:?} {} bytes", bytes.len()),
            stamps: mmconform_media::find_stamps(bytes),
            tokens: 100,
        }
    }

    /// A URL the server did not fetch.
    pub fn url(kind: &'static str, url: &str, detail: Option<&str>) -> Seen {
        let mut described = format!("url {url} (not fetched)");
        if let Some(detail) = detail {
            described.push_str(&format!(" detail={detail}"));
        }
        Seen {
            kind,
            detail: described,
            stamps: Vec::new(),
            tokens: 85,
        }
    }

    /// `image image/png 12 bytes stamp abc`: kind, detail, stamps.
    pub fn describe(&self) -> String {
        let mut out = self.kind.to_owned();
        if !self.detail.is_empty() {
            out.push(' ');
            out.push_str(&self.detail);
        }
        match self.stamps.as_slice() {
            [] => {}
            [one] => out.push_str(&format!(" stamp {one}")),
            many => out.push_str(&format!(" stamps {}", many.join(","))),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_name_kind_type_size_and_stamp() {
        let png = mmconform_media::generate("image/png", "abc123");
        let seen = Seen::inline("image", "image/png", &png, Some("high"));
        assert_eq!(
            seen.describe(),
            format!(
                "image image/png {} bytes detail=high stamp abc123",
                png.len()
            )
        );
        assert_eq!(Seen::text("hello").describe(), "text 5 chars");
        assert_eq!(Seen::text("hello").tokens, 2);
        assert_eq!(
            Seen::url("image", "https://x.test/a.png", None).describe(),
            "image url https://x.test/a.png (not fetched)"
        );
        let pdf = mmconform_media::generate("application/pdf", "n9");
        assert!(
            Seen::file("application/pdf", "a.pdf", &pdf)
                .describe()
                .starts_with("file application/pdf \"a.pdf\" ")
        );
        assert_eq!(
            Seen::inline("audio", "wav", b"xx", None).describe(),
            "audio wav 2 bytes"
        );
    }
}
