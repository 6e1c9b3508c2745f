//! Filling a [`Part`] from the sources every wire shares (inline base64, data URLs,
//! URLs, text) and the checks on decoded bytes, so the OpenAI and Anthropic decoders
//! only know their own field names.

use super::bytes::{self, Digest};
use super::record::{Part, PartKind, ProblemCode, SourceKind};
use mmconform_media::canonical_mime;

/// Longest URL, filename, id or `type` kept.
pub const MAX_URL: usize = 2048;
pub const MAX_NAME: usize = 256;

/// `s` cut to at most `max` bytes on a character boundary.
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// How much text a call may still keep.
#[derive(Debug)]
pub struct TextBudget {
    pub per_part: usize,
    pub left: usize,
}

impl TextBudget {
    /// The part of `text` kept, charged to the call's budget.
    fn keep(&mut self, text: &str) -> String {
        let kept = cut(text, self.per_part.min(self.left));
        self.left -= kept.len();
        kept
    }
}

/// Records `text` as the part's text: kept (bounded), measured, and scanned whole for
/// stamps, those of media written into it as base64 characters included.
pub fn text(part: &mut Part, text: &str, budget: &mut TextBudget) {
    part.source = Some(SourceKind::Text);
    part.text = Some(budget.keep(text));
    part.text_bytes = Some(text.len() as u64);
    part.stamps = mmconform_media::find_stamps(text.as_bytes());
    for stamp in super::base64_text::stamps(text) {
        if !part.stamps.contains(&stamp) {
            part.stamps.push(stamp);
        }
    }
}

/// A plain-text document (Anthropic `source.type: text`): text, and bytes like media.
pub fn text_document(part: &mut Part, data: &str, budget: &mut TextBudget) {
    text(part, data, budget);
    set_digest(part, bytes::digest_bytes(data.as_bytes()));
}

/// A text part's `text` member, the part recorded as `wire_form`: kept as
/// [`text`] keeps it; an empty text and a `text` that is not a string are problems,
/// worded as the wire names the part (`empty`: "an empty text block", `not_string`:
/// "a text part whose `text` is not a string").
pub fn text_member(
    part: &mut Part,
    value: &serde_json::Value,
    wire_form: &str,
    budget: &mut TextBudget,
    [empty, not_string]: [&str; 2],
) {
    part.kind = PartKind::Text;
    part.wire_form = wire_form.into();
    match value.get("text") {
        Some(serde_json::Value::String(t)) => {
            text(part, t, budget);
            if t.is_empty() {
                let message = format!("{}: {empty}", part.at);
                part.problem(ProblemCode::EmptyText, message);
            }
        }
        _ => {
            let message = format!("{}: {not_string}", part.at);
            part.problem(ProblemCode::BadPart, message);
        }
    }
}

/// A part of a type the wire does not define (`kind`, or none): recorded under its
/// type, never guessed; `what` names the wire's parts ("part type", "a Responses
/// content part").
pub fn unknown_type(part: &mut Part, kind: Option<&str>, [noun, what]: [&str; 2]) {
    part.kind = PartKind::Unknown;
    part.wire_form = kind.map_or_else(|| "(no type)".to_string(), |k| cut(k, 64));
    let message = format!(
        "{}: {noun} {} is not {what}",
        part.at,
        kind.map_or_else(|| "(none)".to_string(), |k| format!("{k:?}"))
    );
    part.problem(ProblemCode::UnknownPartType, message);
}

/// Inline base64 declared as `mime` (`None` when the wire gave no type).
pub fn inline_base64(part: &mut Part, b64: &str, mime: Option<&str>) {
    part.source = Some(SourceKind::Data);
    part.mime = mime.map(|m| cut(m, MAX_NAME));
    match bytes::digest_base64(b64) {
        Ok(digest) => set_digest(part, digest),
        Err(why) => part.problem(ProblemCode::InvalidBase64, format!("{}: {why}", part.at)),
    }
}

/// Inline protobuf `bytes` (Gemini `inlineData.data`): base64 in either alphabet,
/// padded or not (see [`bytes::digest_proto_base64`]).
pub fn inline_proto_base64(part: &mut Part, b64: &str, mime: Option<&str>) {
    part.source = Some(SourceKind::Data);
    part.mime = mime.map(|m| cut(m, MAX_NAME));
    match bytes::digest_proto_base64(b64) {
        Ok(digest) => set_digest(part, digest),
        Err(why) => part.problem(ProblemCode::InvalidBase64, format!("{}: {why}", part.at)),
    }
}

/// A file part's `file_data` (Chat and Responses alike): the wire wants a data URL;
/// bare base64 is read as untyped inline data and reported as `not_a_data_url` says.
pub fn file_data(part: &mut Part, data: &str, not_a_data_url: &str) {
    if crate::wire::data_url::parse(data).is_some() {
        data_url(part, data);
    } else {
        part.problem(
            ProblemCode::BadUrl,
            format!("{}: {not_a_data_url}", part.at),
        );
        inline_base64(part, data, None);
    }
    check_declared_media(part);
}

/// A `data:` URL: its type, then its payload like inline data.
pub fn data_url(part: &mut Part, url: &str) {
    let Some(parsed) = crate::wire::data_url::parse(url) else {
        return url_source(part, url);
    };
    let mime = (!parsed.mime.is_empty()).then_some(parsed.mime);
    if mime.is_none() {
        part.problem(
            ProblemCode::DataUrlWithoutMime,
            format!(
                "{}: data URL without a MIME type (want data:<mime>;base64,...)",
                part.at
            ),
        );
    }
    if parsed.base64 {
        return inline_base64(part, parsed.payload, mime);
    }
    part.problem(
        ProblemCode::DataUrlNotBase64,
        format!(
            "{}: data URL without ;base64 (percent-encoded data)",
            part.at
        ),
    );
    part.source = Some(SourceKind::Data);
    part.mime = mime.map(|m| cut(m, MAX_NAME));
    set_digest(
        part,
        bytes::digest_bytes(&crate::wire::data_url::percent_decode(parsed.payload)),
    );
}

/// A URL the model would fetch; only http(s) is a URL a model can be given.
pub fn url_source(part: &mut Part, url: &str) {
    part.source = Some(SourceKind::Url);
    part.url = Some(cut(url, MAX_URL));
    let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    if !matches!(scheme.as_deref(), Some("http" | "https")) {
        part.problem(
            ProblemCode::BadUrl,
            format!(
                "{}: {:?} is neither a data URL nor an http(s) URL",
                part.at,
                cut(url, 64)
            ),
        );
    }
}

/// A handle to an uploaded file: nothing to decode.
/// A file part names its bytes one way: `given` lists the source fields it carries
/// (`file_data`, `file_id`, `file_url`); more than one is a shape error.
pub fn one_source(part: &mut Part, given: &[&str]) {
    if given.len() > 1 {
        let message = format!("{}: a file with {}", part.at, given.join(" and "));
        part.problem(ProblemCode::BadPart, message);
    }
}

pub fn file_id(part: &mut Part, id: &str) {
    part.source = Some(SourceKind::FileId);
    part.file_id = Some(cut(id, MAX_NAME));
}

fn set_digest(part: &mut Part, digest: Digest) {
    part.bytes = Some(digest.len);
    part.sha256 = Some(digest.sha256);
    part.sniffed = digest.sniffed.map(str::to_string);
    part.stamps = digest.stamps;
    part.content = digest.content;
}

/// The kind a MIME type's top-level type names, if it is a media kind.
fn kind_of(mime: &str) -> Option<PartKind> {
    match canonical_mime(mime).split('/').next() {
        Some("image") => Some(PartKind::Image),
        Some("audio") => Some(PartKind::Audio),
        _ if canonical_mime(mime) == "application/pdf" => Some(PartKind::Document),
        _ => None,
    }
}

/// After decoding: does the declared type agree with the bytes' signature, and does
/// the wire form (image, audio) fit what is carried? `declared` is `None` when the
/// declared type is not a MIME type (`input_audio.format`, checked on its own).
pub fn check_media(part: &mut Part, declared: Option<&str>) {
    let sniffed = part.sniffed.clone();
    if let (Some(declared), Some(sniffed)) = (declared, &sniffed)
        && canonical_mime(declared) != *sniffed
    {
        part.problem(
            ProblemCode::MimeMismatch,
            // An empty type (Anthropic `media_type: ""`) is named, not printed as nothing.
            match declared.trim() {
                "" => format!("{}: no type declared, the bytes are {sniffed}", part.at),
                _ => format!("{}: declared {declared}, the bytes are {sniffed}", part.at),
            },
        );
    }
    // What is carried: the bytes' own type when known, else what was declared.
    let Some(carried) = sniffed.as_deref().or(declared) else {
        return;
    };
    let fits = match part.kind {
        PartKind::Image | PartKind::Audio => kind_of(carried) == Some(part.kind),
        _ => true,
    };
    if !fits {
        part.problem(
            ProblemCode::KindMismatch,
            format!(
                "{}: {} part ({}) carries {carried}",
                part.at,
                match part.kind {
                    PartKind::Image => "an image",
                    _ => "an audio",
                },
                part.wire_form
            ),
        );
    }
}

/// [`check_media`] against the type the part itself declared (its `mime`).
pub fn check_declared_media(part: &mut Part) {
    let declared = part.mime.clone();
    check_media(part, declared.as_deref());
}

/// Records an image's `detail` as sent (cut, a non-string shown as JSON); `problem`
/// says, from the value and how it is shown, what is wrong with it on this wire.
pub fn detail(
    part: &mut Part,
    detail: &serde_json::Value,
    problem: impl FnOnce(&serde_json::Value, &str) -> Option<String>,
) {
    let shown = match detail {
        serde_json::Value::String(s) => cut(s, 32),
        other => cut(&other.to_string(), 32),
    };
    if let Some(problem) = problem(detail, &shown) {
        let message = format!("{}: {problem}", part.at);
        part.problem(ProblemCode::BadDetail, message);
    }
    part.detail = Some(shown);
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    fn part(kind: PartKind) -> Part {
        let mut p = Part::new(Some(0), "user", 0, "/messages/0/content/0".into());
        p.kind = kind;
        p.wire_form = "image_url".into();
        p
    }

    fn codes(part: &Part) -> Vec<ProblemCode> {
        part.problems.iter().map(|p| p.code).collect()
    }

    #[test]
    fn a_good_data_url_is_decoded_with_no_problem() {
        let png = mmconform_media::generate("image/png", "n-p0");
        let mut p = part(PartKind::Image);
        data_url(
            &mut p,
            &format!("data:image/png;base64,{}", STANDARD.encode(&png)),
        );
        let declared = p.mime.clone();
        check_media(&mut p, declared.as_deref());
        assert_eq!(p.source, Some(SourceKind::Data));
        assert_eq!(p.mime.as_deref(), Some("image/png"));
        assert_eq!(p.bytes, Some(png.len() as u64));
        assert_eq!(p.stamps, ["n-p0"]);
        assert!(p.problems.is_empty(), "{:?}", p.problems);
    }

    #[test]
    fn a_pdf_sent_as_an_image_is_caught_whatever_it_is_labelled() {
        let pdf = STANDARD.encode(mmconform_media::generate("application/pdf", "n"));
        let mut honest = part(PartKind::Image);
        data_url(&mut honest, &format!("data:application/pdf;base64,{pdf}"));
        check_media(&mut honest, Some("application/pdf"));
        assert_eq!(codes(&honest), [ProblemCode::KindMismatch]);
        let mut disguised = part(PartKind::Image);
        data_url(&mut disguised, &format!("data:image/png;base64,{pdf}"));
        check_media(&mut disguised, Some("image/png"));
        assert_eq!(
            codes(&disguised),
            [ProblemCode::MimeMismatch, ProblemCode::KindMismatch]
        );
        // Aliases are not mismatches.
        let jpeg = STANDARD.encode(mmconform_media::generate("image/jpeg", "n"));
        let mut alias = part(PartKind::Image);
        data_url(&mut alias, &format!("data:image/jpg;base64,{jpeg}"));
        check_media(&mut alias, Some("image/jpg"));
        assert!(alias.problems.is_empty(), "{:?}", alias.problems);
    }

    #[test]
    fn malformed_data_urls_and_urls_are_named() {
        let mut p = part(PartKind::Image);
        data_url(&mut p, "data:;base64,AAAA");
        assert_eq!(codes(&p), [ProblemCode::DataUrlWithoutMime]);
        let mut p = part(PartKind::Image);
        data_url(&mut p, "data:image/png;base64,!!!!");
        assert_eq!(codes(&p), [ProblemCode::InvalidBase64]);
        let mut p = part(PartKind::Image);
        data_url(&mut p, "data:text/plain,mmconform-nonce:t1");
        assert_eq!(codes(&p), [ProblemCode::DataUrlNotBase64]);
        assert_eq!(p.stamps, ["t1"]);
        let mut p = part(PartKind::Image);
        url_source(&mut p, "file:///etc/passwd");
        assert_eq!(codes(&p), [ProblemCode::BadUrl]);
        let mut p = part(PartKind::Image);
        url_source(&mut p, "HTTPS://example.test/a.png");
        assert!(p.problems.is_empty());
    }

    #[test]
    fn text_is_kept_within_the_part_and_call_budgets_but_scanned_whole() {
        let mut budget = TextBudget {
            per_part: 8,
            left: 12,
        };
        let long = format!("{} mmconform-nonce:late", "é".repeat(20));
        let mut p = part(PartKind::Text);
        text(&mut p, &long, &mut budget);
        assert_eq!(p.text.as_deref(), Some("éééé"));
        assert_eq!(p.text_bytes, Some(long.len() as u64));
        assert_eq!(p.stamps, ["late"]);
        let mut q = part(PartKind::Text);
        text(&mut q, "abcdefgh", &mut budget);
        assert_eq!(q.text.as_deref(), Some("abcd"));
        assert_eq!(budget.left, 0);
    }
}
