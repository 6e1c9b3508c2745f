//! What the witness keeps of each model call: the records a run judges and the JSON
//! report holds (`schemas/report.schema.json`, `witnessCall`).
//!
//! Everything is bounded (see [`super::Limits`]): texts are cut, lists are capped, and
//! media are kept as length, SHA-256 and stamps, never as bytes.

use serde::{Deserialize, Serialize};

/// The API a call was made in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Wire {
    /// OpenAI Chat Completions: `POST {base}/chat/completions`.
    #[serde(rename = "openai.chat")]
    OpenaiChat,
    /// Anthropic Messages: `POST {base}/messages`.
    #[serde(rename = "anthropic.messages")]
    AnthropicMessages,
    /// OpenAI Responses: `POST {base}/responses`.
    #[serde(rename = "openai.responses")]
    OpenaiResponses,
    /// Gemini: `POST /v1beta/models/{model}:generateContent` or `:streamGenerateContent`.
    #[serde(rename = "gemini")]
    Gemini,
    /// Gemini `:countTokens`: the content goes to the provider, but no model reads it,
    /// so it never counts as having reached the model (see [`Wire::reads`]).
    #[serde(rename = "gemini.count_tokens")]
    GeminiCountTokens,
    /// A POST to a path the witness does not serve (answered 404).
    #[serde(rename = "unknown")]
    Unknown,
}

impl Wire {
    pub fn as_str(self) -> &'static str {
        match self {
            Wire::OpenaiChat => "openai.chat",
            Wire::AnthropicMessages => "anthropic.messages",
            Wire::OpenaiResponses => "openai.responses",
            Wire::Gemini => "gemini",
            Wire::GeminiCountTokens => "gemini.count_tokens",
            Wire::Unknown => "unknown",
        }
    }

    /// The model wires the witness hears, one each (a token count and an unknown path
    /// are calls, not wires).
    pub const MODEL_WIRES: [Wire; 4] = [
        Wire::OpenaiChat,
        Wire::OpenaiResponses,
        Wire::AnthropicMessages,
        Wire::Gemini,
    ];

    /// The wire's name as the guide writes it.
    pub fn title(self) -> &'static str {
        match self {
            Wire::OpenaiChat => "Chat Completions",
            Wire::AnthropicMessages => "Anthropic Messages",
            Wire::OpenaiResponses => "Responses",
            Wire::Gemini | Wire::GeminiCountTokens => "Gemini",
            Wire::Unknown => "unknown",
        }
    }

    /// Whether a model reads what a call to this wire carries: false for a token
    /// count, which a `witness:` judgement must never take for the model seeing it.
    pub fn reads(self) -> bool {
        self != Wire::GeminiCountTokens
    }
}

/// What a content part is, as the wire form says (not as the bytes say: see
/// [`Part::sniffed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PartKind {
    Text,
    Image,
    Audio,
    Document,
    /// A form the witness does not decode (tool calls, refusals, made-up types): kept
    /// with its `type` in [`Part::wire_form`], never guessed.
    Unknown,
}

impl PartKind {
    pub fn is_media(self) -> bool {
        matches!(self, PartKind::Image | PartKind::Audio | PartKind::Document)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PartKind::Text => "text",
            PartKind::Image => "image",
            PartKind::Audio => "audio",
            PartKind::Document => "document",
            PartKind::Unknown => "unknown",
        }
    }
}

/// Where a part's content came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// Inline bytes: a data URL, or base64 with a declared type.
    Data,
    /// An http(s) (or other scheme) URL the model would fetch: no bytes on the wire.
    Url,
    /// A handle to a file uploaded earlier: no bytes on the wire.
    FileId,
    /// Text in the part itself (text parts, Anthropic plain-text documents).
    Text,
}

/// A named problem with a call or a part. Codes are stable: rules and integrations
/// match on them; the message is for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    /// The body is not JSON (or too deep, or too many values to parse).
    MalformedJson,
    /// The body is larger than the witness accepts.
    BodyTooLarge,
    /// The connection failed before the body was read.
    BodyUnreadable,
    /// JSON, but not a chat/messages request (not an object, no `messages` list...).
    BadShape,
    /// A POST to a path the witness does not serve.
    UnsupportedEndpoint,
    /// `messages: []`.
    EmptyMessages,
    /// A message's `content: []`.
    EmptyContent,
    /// A message without content where the wire requires it.
    MissingContent,
    /// A text block with `""` (or a user/system message whose string content is `""`).
    EmptyText,
    /// A part of a known type without the fields that type needs.
    BadPart,
    /// A part whose `type` the wire does not define.
    UnknownPartType,
    /// Data that is not valid (padded, standard-alphabet) base64.
    InvalidBase64,
    /// A data URL with no MIME type (`data:;base64,...`).
    DataUrlWithoutMime,
    /// A data URL that is not `;base64` (percent-encoded data).
    DataUrlNotBase64,
    /// A URL that is neither a data URL nor http(s), or bare base64 where a data URL
    /// is required.
    BadUrl,
    /// The declared MIME type disagrees with the bytes' signature.
    MimeMismatch,
    /// The wire form disagrees with the bytes: a PDF sent as `image_url`, a PNG as
    /// `input_audio`.
    KindMismatch,
    /// Media on a message whose role is not `user`.
    MediaOnNonUser,
    /// `detail` present but not `low`, `high` or `auto` (null included).
    BadDetail,
    /// `input_audio.format` disagrees with the bytes.
    AudioFormatMismatch,
    /// A `file` part without `file_data` or without `filename`.
    FileIncomplete,
}

impl ProblemCode {
    /// Every code, in declaration order (the report schema lists the same names).
    pub const ALL: [ProblemCode; 21] = [
        ProblemCode::MalformedJson,
        ProblemCode::BodyTooLarge,
        ProblemCode::BodyUnreadable,
        ProblemCode::BadShape,
        ProblemCode::UnsupportedEndpoint,
        ProblemCode::EmptyMessages,
        ProblemCode::EmptyContent,
        ProblemCode::MissingContent,
        ProblemCode::EmptyText,
        ProblemCode::BadPart,
        ProblemCode::UnknownPartType,
        ProblemCode::InvalidBase64,
        ProblemCode::DataUrlWithoutMime,
        ProblemCode::DataUrlNotBase64,
        ProblemCode::BadUrl,
        ProblemCode::MimeMismatch,
        ProblemCode::KindMismatch,
        ProblemCode::MediaOnNonUser,
        ProblemCode::BadDetail,
        ProblemCode::AudioFormatMismatch,
        ProblemCode::FileIncomplete,
    ];
}

/// One problem: its code and what exactly was seen, with the JSON pointer of the part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub code: ProblemCode,
    pub message: String,
}

impl Problem {
    pub fn new(code: ProblemCode, message: impl Into<String>) -> Problem {
        Problem {
            code,
            message: message.into(),
        }
    }
}

/// One content part of one message, decoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// Index in `messages`; `None` for Anthropic's top-level `system`.
    pub message: Option<usize>,
    /// The message's role (`system` for Anthropic's top-level `system`).
    pub role: String,
    /// Position within the message's content (0 for string content).
    pub position: usize,
    /// JSON pointer of the part in the request body, e.g. `/messages/1/content/0`.
    pub at: String,
    pub kind: PartKind,
    /// The wire's spelling: `string` (string content), `text`, `image_url`,
    /// `input_audio`, `file`, `anthropic.text`, `anthropic.image`, `anthropic.document`;
    /// for an unknown part, its `type` as sent.
    pub wire_form: String,
    /// The type as declared on the wire: a data URL's MIME type, `media_type`, or
    /// `input_audio.format` verbatim (`wav`).
    pub mime: Option<String>,
    /// What the decoded bytes are by their signature (`image/png`), when known.
    pub sniffed: Option<String>,
    pub source: Option<SourceKind>,
    /// Decoded length in bytes (media and plain-text documents).
    pub bytes: Option<u64>,
    /// Lowercase hex SHA-256 of the decoded bytes.
    pub sha256: Option<String>,
    /// `image_url.detail` as sent (a non-string value as its JSON text).
    pub detail: Option<String>,
    pub filename: Option<String>,
    /// A URL source (never a data URL), cut at 2 KiB.
    pub url: Option<String>,
    pub file_id: Option<String>,
    /// Nonces stamped in the decoded bytes or the text (`mmconform_media::find_stamps`).
    pub stamps: Vec<String>,
    /// A picture or sound: what it decoded to and the nonce its content carries, so a
    /// copy a host re-encoded is still recognised (`None`: not a picture or sound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<ContentSeen>,
    /// Text parts and plain-text documents: the text, cut (see `text_bytes`).
    pub text: Option<String>,
    /// The text's full length in bytes.
    pub text_bytes: Option<u64>,
    pub problems: Vec<Problem>,
}

impl Part {
    /// Text as the model reads it: a text part, or a document whose source is text
    /// (Anthropic's plain-text document).
    pub fn reads_as_text(&self) -> bool {
        self.kind == PartKind::Text || self.source == Some(SourceKind::Text)
    }

    /// An empty record at `at`, filled by the decoders.
    pub fn new(message: Option<usize>, role: &str, position: usize, at: String) -> Part {
        Part {
            message,
            role: role.to_string(),
            position,
            at,
            kind: PartKind::Unknown,
            wire_form: String::new(),
            mime: None,
            sniffed: None,
            source: None,
            bytes: None,
            sha256: None,
            detail: None,
            filename: None,
            url: None,
            file_id: None,
            stamps: Vec::new(),
            content: None,
            text: None,
            text_bytes: None,
            problems: Vec::new(),
        }
    }

    /// True when a stamp names `nonce` (exactly, or `nonce-<suffix>` as `media export`
    /// and per-part stamps write), in the bytes or in the content, or the kept text or
    /// URL names it as a word of its own (see [`text_names`]).
    pub fn carries(&self, nonce: &str) -> bool {
        if nonce.is_empty() {
            return false;
        }
        self.stamps.iter().any(|s| stamp_names(s, nonce))
            || self.content_carries(nonce)
            || self.text.as_deref().is_some_and(|t| text_names(t, nonce))
            || self.url.as_deref().is_some_and(|u| text_names(u, nonce))
    }

    /// True when the picture or sound itself carries `nonce` (its content stamp).
    pub fn content_carries(&self, nonce: &str) -> bool {
        !nonce.is_empty()
            && self
                .content
                .as_ref()
                .and_then(|c| c.stamp.as_deref())
                .is_some_and(|s| stamp_names(s, nonce))
    }

    pub fn problem(&mut self, code: ProblemCode, message: impl Into<String>) {
        self.problems.push(Problem::new(code, message));
    }
}

/// What a picture or sound part decoded to (`mmconform_media::content::read`), and the
/// nonce its pixels or tones carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentSeen {
    /// Pixels, for a picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// Samples per second, for a sound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels: Option<usize>,
    /// Milliseconds decoded (the first 30 s at most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub millis: Option<u64>,
    /// The nonce the content stamp names; `None` when it carries none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stamp: Option<String>,
    /// Why the content could not be read: too large to decode, refused by a bound,
    /// damaged (then every other field is absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
}

impl ContentSeen {
    /// The record of what `mmconform_media::content::read` said.
    pub fn of(read: Result<mmconform_media::content::Content, String>) -> ContentSeen {
        use mmconform_media::content::Content;
        let none = ContentSeen {
            width: None,
            height: None,
            rate: None,
            channels: None,
            millis: None,
            stamp: None,
            unread: None,
        };
        match read {
            Ok(Content::Image {
                width,
                height,
                nonce,
            }) => ContentSeen {
                width: Some(width),
                height: Some(height),
                stamp: nonce,
                ..none
            },
            Ok(Content::Audio {
                rate,
                channels,
                millis,
                nonce,
            }) => ContentSeen {
                rate: Some(rate),
                channels: Some(channels),
                millis: Some(millis),
                stamp: nonce,
                ..none
            },
            Err(why) => ContentSeen {
                unread: Some(why),
                ..none
            },
        }
    }

    /// `104x104`, `16000 Hz stereo` (see `Content::shape`), or `undecoded`.
    pub fn shape(&self) -> String {
        use mmconform_media::content::Content;
        let content = match (self.width, self.height, self.rate, self.channels) {
            (Some(width), Some(height), _, _) => Content::Image {
                width,
                height,
                nonce: None,
            },
            (_, _, Some(rate), Some(channels)) => Content::Audio {
                rate,
                channels,
                millis: 0,
                nonce: None,
            },
            _ => return "undecoded".into(),
        };
        content.shape()
    }
}

/// A stamp names a nonce when it is the nonce or the nonce plus a `-` suffix.
pub fn stamp_names(stamp: &str, nonce: &str) -> bool {
    stamp
        .strip_prefix(nonce)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
}

/// Text names a nonce when the nonce occurs in it neither preceded nor followed by a
/// letter, digit or `_`: a case nonce `n-c1` is not named by a text holding `n-c10`.
pub fn text_names(text: &str, nonce: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    !nonce.is_empty()
        && text.match_indices(nonce).any(|(at, _)| {
            !word(text[..at].chars().next_back()) && !word(text[at + nonce.len()..].chars().next())
        })
}

/// One model call as the witness received and answered it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelCall {
    /// 1 for the first call the witness received, then consecutive (calls dropped
    /// from a full log still take a number).
    pub seq: u64,
    pub wire: Wire,
    /// The request path, cut at 256 bytes.
    pub path: String,
    /// RFC 3339 UTC, milliseconds.
    pub received_at: String,
    /// `stream: true` was asked for (and answered as a stream).
    pub stream: bool,
    pub model: Option<String>,
    /// The HTTP status the witness answered.
    pub status: u16,
    /// Bytes of request body received (at most the cap, plus what was drained; 0 when
    /// the body timed out).
    pub body_bytes: u64,
    /// How many messages the request had (Anthropic's `system` not counted).
    pub messages: usize,
    /// Each message's role, in order (the first `max_parts_per_call`).
    pub roles: Vec<String>,
    /// Parts decoded, including those past the cap that are not kept in `parts`.
    pub parts_total: usize,
    /// The first `max_parts_per_call` parts, in body order.
    pub parts: Vec<Part>,
    /// Stamps of parts past the cap (so a nonce in part 10 000 is still found).
    pub more_stamps: Vec<String>,
    /// Problems of the call as a whole, and of parts past the cap.
    pub problems: Vec<Problem>,
    /// Problems not kept once `problems` was full.
    pub problems_dropped: usize,
    /// The tool call the witness answered with instead of text (tool-media cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call: Option<super::tools::ToolCallMade>,
}

impl ModelCall {
    /// True when any part carries `nonce` (see [`Part::carries`]), or a part past the
    /// cap was stamped with it (in its bytes or content).
    pub fn carries(&self, nonce: &str) -> bool {
        self.parts.iter().any(|p| p.carries(nonce))
            || (!nonce.is_empty() && self.more_stamps.iter().any(|s| stamp_names(s, nonce)))
    }

    /// Every stamp the call carries, distinct, in body order.
    pub fn stamps(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let all = self.parts.iter().flat_map(|p| {
            let content = p.content.as_ref().and_then(|c| c.stamp.as_ref());
            p.stamps.iter().chain(content)
        });
        for stamp in all.chain(&self.more_stamps) {
            if !out.contains(&stamp.as_str()) {
                out.push(stamp);
            }
        }
        out
    }

    /// The call's own problems, then each kept part's.
    pub fn all_problems(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .chain(self.parts.iter().flat_map(|p| &p.problems))
    }

    pub fn has_problem(&self, code: ProblemCode) -> bool {
        self.all_problems().any(|p| p.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_names_its_nonce_and_suffixed_forms_only() {
        assert!(stamp_names("abcd", "abcd"));
        assert!(stamp_names("abcd-p0", "abcd"));
        assert!(!stamp_names("abcdef", "abcd"));
        assert!(!stamp_names("xabcd", "abcd"));
        assert!(!stamp_names("abc", "abcd"));
    }

    #[test]
    fn a_part_carries_by_stamp_text_or_url_never_the_empty_nonce() {
        let mut part = Part::new(Some(0), "user", 0, "/messages/0/content/0".into());
        assert!(!part.carries("n1"));
        part.stamps.push("n1-p2".into());
        assert!(part.carries("n1"));
        assert!(!part.carries("n"));
        assert!(!part.carries(""));
        part.text = Some("see case n9 here".into());
        assert!(part.carries("n9"));
        part.url = Some("http://127.0.0.1/media/n7/a.png".into());
        assert!(part.carries("n7"));
    }

    #[test]
    fn a_case_nonce_is_not_named_by_a_longer_case_nonce() {
        // Case nonces are `<run>-c<index>`: case 1 must not collect case 10's calls.
        assert!(stamp_names("ab12-c1", "ab12-c1"));
        assert!(stamp_names("ab12-c1-p0", "ab12-c1"));
        assert!(!stamp_names("ab12-c10", "ab12-c1"));
        assert!(!stamp_names("ab12-c10-p0", "ab12-c1"));
        assert!(text_names("mmconform ab12-c1", "ab12-c1"));
        assert!(text_names("ab12-c1-3: hi", "ab12-c1"));
        assert!(!text_names("mmconform ab12-c10", "ab12-c1"));
        assert!(!text_names("xab12-c1", "ab12-c1"));
        assert!(text_names("ab12-c10 then ab12-c1.", "ab12-c1"));
        let mut part = Part::new(Some(0), "user", 0, "/messages/0/content/0".into());
        part.text = Some("What is this? mmconform ab12-c10".into());
        part.url = Some("http://127.0.0.1/media/ab12-c10/a.png".into());
        part.stamps.push("ab12-c10".into());
        assert!(part.carries("ab12-c10"));
        assert!(!part.carries("ab12-c1"));
        // What the media generators stamp reads back whole, suffix included.
        let png = mmconform_media::generate("image/png", "ab12-c10");
        assert_eq!(mmconform_media::find_stamps(&png), ["ab12-c10"]);
    }

    #[test]
    fn all_lists_every_code_once() {
        use ProblemCode as P;
        // No wildcard: a new code does not compile here until it is listed, and the
        // comment on ALL says the schema lists it too.
        let position = |code: ProblemCode| match code {
            P::MalformedJson
            | P::BodyTooLarge
            | P::BodyUnreadable
            | P::BadShape
            | P::UnsupportedEndpoint
            | P::EmptyMessages
            | P::EmptyContent
            | P::MissingContent
            | P::EmptyText
            | P::BadPart
            | P::UnknownPartType
            | P::InvalidBase64
            | P::DataUrlWithoutMime
            | P::DataUrlNotBase64
            | P::BadUrl
            | P::MimeMismatch
            | P::KindMismatch
            | P::MediaOnNonUser
            | P::BadDetail
            | P::AudioFormatMismatch
            | P::FileIncomplete => ProblemCode::ALL.iter().position(|c| *c == code),
        };
        for (i, code) in ProblemCode::ALL.iter().enumerate() {
            assert_eq!(position(*code), Some(i), "{code:?} listed twice");
        }
    }

    #[test]
    fn records_serialise_with_stable_names() {
        let json = serde_json::to_value(Wire::AnthropicMessages).unwrap();
        assert_eq!(json, "anthropic.messages");
        let json = serde_json::to_value(ProblemCode::DataUrlWithoutMime).unwrap();
        assert_eq!(json, "data_url_without_mime");
        assert_eq!(serde_json::to_value(SourceKind::FileId).unwrap(), "file_id");
        assert_eq!(
            serde_json::to_value(PartKind::Document).unwrap(),
            "document"
        );
    }
}
