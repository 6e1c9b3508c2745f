//! Data URLs (RFC 2397, `data:[<mime>][;params][;base64],<payload>`), the one inline
//! source every model wire that takes URLs shares: Chat `image_url.url` and
//! `file.file_data`, Responses `image_url` and `file_data`. Built here by the profiles
//! that send them, read here by the witness that receives them.

/// `data:<mime>;base64,<payload>`, or `data:;base64,<payload>` when no type is given
/// (a malformation some cases send on purpose).
pub fn encode(mime: Option<&str>, base64: &str) -> String {
    format!("data:{};base64,{base64}", mime.unwrap_or(""))
}

/// The parts of `data:[<mime>][;params][;base64],<payload>` (RFC 2397).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataUrl<'a> {
    /// The MIME type as written (may be empty).
    pub mime: &'a str,
    pub base64: bool,
    pub payload: &'a str,
}

/// `Some` when `url` is a data URL (scheme case-insensitive), even a malformed one:
/// a data URL without a comma has an empty payload.
pub fn parse(url: &str) -> Option<DataUrl<'_>> {
    let scheme = url.get(..5)?;
    if !scheme.eq_ignore_ascii_case("data:") {
        return None;
    }
    let rest = &url[5..];
    let (header, payload) = rest.split_once(',').unwrap_or((rest, ""));
    let mut params = header.split(';');
    let mime = params.next().unwrap_or("").trim();
    let base64 = params.any(|p| p.trim().eq_ignore_ascii_case("base64"));
    Some(DataUrl {
        mime,
        base64,
        payload,
    })
}

/// Percent-decoding for data URLs without `;base64` (a `%` not followed by two hex
/// digits stays as it is).
pub fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_url_is_built_with_or_without_its_type() {
        assert_eq!(
            encode(Some("image/png"), "AAAA"),
            "data:image/png;base64,AAAA"
        );
        assert_eq!(encode(None, "AAAA"), "data:;base64,AAAA");
        let url = encode(Some("application/pdf"), "JVBE");
        let parsed = parse(&url).unwrap();
        assert_eq!(
            (parsed.mime, parsed.base64, parsed.payload),
            ("application/pdf", true, "JVBE")
        );
    }

    #[test]
    fn data_urls_are_split_into_type_flag_and_payload() {
        let url = parse("DATA:image/png;name=a.png;base64,AAAA").unwrap();
        assert_eq!(
            url,
            DataUrl {
                mime: "image/png",
                base64: true,
                payload: "AAAA"
            }
        );
        let url = parse("data:;base64,AAAA").unwrap();
        assert_eq!((url.mime, url.base64), ("", true));
        let url = parse("data:text/plain,hi%20there").unwrap();
        assert!(!url.base64);
        assert_eq!(percent_decode(url.payload), b"hi there");
        assert_eq!(parse("data:image/png").unwrap().payload, "");
        assert_eq!(parse("https://x/a.png"), None);
        assert_eq!(parse("dat"), None);
        assert_eq!(percent_decode("100%zz%4"), b"100%zz%4");
    }
}
