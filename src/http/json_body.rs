//! A JSON request body, serialized once into bytes. A large inline part is a base64
//! string of tens of MiB: serializing it into one text and then copying that into the
//! request would hold it three times. Here the text is built once (the same bytes
//! `Value::to_string` gives), handed to the client without a copy, and, when the body
//! is given up by its owner ([`JsonBody::from_value`]), its long strings are not
//! copied at all: they are sent from their own buffers, so the part is held once.

use bytes::Bytes;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Strings at least this long are sent from their own buffer by
/// [`JsonBody::from_value`]. Such a body is streamed (with its exact length), so a
/// 307/308 answer to it is judged as it is rather than followed with the body again.
pub const MOVED_STRING_BYTES: usize = 8 * 1024 * 1024;

/// The bytes of one JSON body, in order, with their total length.
#[derive(Debug, Clone)]
pub struct JsonBody {
    pieces: Vec<Bytes>,
    len: usize,
}

impl JsonBody {
    /// `value` serialized into one buffer (the value stays with its owner).
    pub fn of(value: &Value) -> JsonBody {
        // Serializing a `Value` cannot fail: its keys are strings.
        let text = serde_json::to_vec(value).unwrap_or_default();
        JsonBody {
            len: text.len(),
            pieces: vec![Bytes::from(text)],
        }
    }

    /// A body that is already text.
    pub fn from_text(text: String) -> JsonBody {
        JsonBody {
            len: text.len(),
            pieces: vec![Bytes::from(text)],
        }
    }

    /// `value` serialized, taking its long strings (that need no escaping, as base64
    /// does not) into the body as they are instead of copying them.
    pub fn from_value(value: Value) -> JsonBody {
        JsonBody::moving_strings_over(value, MOVED_STRING_BYTES)
    }

    fn moving_strings_over(value: Value, moved: usize) -> JsonBody {
        let mut writer = Pieces {
            moved,
            ..Pieces::default()
        };
        writer.value(value);
        writer.pieces.push(Bytes::from(writer.text));
        let pieces: Vec<Bytes> = writer
            .pieces
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect();
        JsonBody {
            len: pieces.iter().map(Bytes::len).sum(),
            pieces,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// SHA-256 of the bytes sent, as hex.
    pub fn sha256(&self) -> String {
        let mut hasher = Sha256::new();
        for piece in &self.pieces {
            hasher.update(piece);
        }
        crate::digest::hex(&hasher.finalize())
    }

    /// The whole text, when it is at most `limit` bytes (a curl line inlines it).
    pub fn text_within(&self, limit: usize) -> Option<String> {
        (self.len <= limit).then(|| {
            let bytes: Vec<u8> = self.pieces.iter().flat_map(|p| p.iter().copied()).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        })
    }

    /// The body for one attempt: the bytes themselves when they are one buffer (so a
    /// redirect can send them again), else a stream of the pieces with the exact
    /// `Content-Length`. Either way nothing is copied.
    pub fn to_body(&self) -> reqwest::Body {
        match self.pieces.as_slice() {
            [] => reqwest::Body::from(Bytes::new()),
            [one] => reqwest::Body::from(one.clone()),
            pieces => reqwest::Body::wrap(PieceStream {
                pieces: pieces.iter().cloned().collect(),
                remaining: self.len as u64,
            }),
        }
    }
}

/// Builds the pieces: compact JSON text, cut where a long string is taken as it is.
#[derive(Default)]
struct Pieces {
    /// Strings at least this long are moved.
    moved: usize,
    pieces: Vec<Bytes>,
    text: Vec<u8>,
}

impl Pieces {
    fn value(&mut self, value: Value) {
        match value {
            Value::String(s) if s.len() >= self.moved && !needs_escape(&s) => {
                self.text.push(b'"');
                self.pieces
                    .push(Bytes::from(std::mem::take(&mut self.text)));
                self.pieces.push(Bytes::from(s.into_bytes()));
                self.text.push(b'"');
            }
            Value::Array(items) => {
                self.text.push(b'[');
                for (i, item) in items.into_iter().enumerate() {
                    if i > 0 {
                        self.text.push(b',');
                    }
                    self.value(item);
                }
                self.text.push(b']');
            }
            Value::Object(map) => {
                self.text.push(b'{');
                for (i, (key, item)) in map.into_iter().enumerate() {
                    if i > 0 {
                        self.text.push(b',');
                    }
                    let _ = serde_json::to_writer(&mut self.text, &key);
                    self.text.push(b':');
                    self.value(item);
                }
                self.text.push(b'}');
            }
            other => {
                let _ = serde_json::to_writer(&mut self.text, &other);
            }
        }
    }
}

/// What serde_json escapes in a string: control characters, `"` and `\`.
fn needs_escape(s: &str) -> bool {
    s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\')
}

/// The pieces of a body, sent one after another.
struct PieceStream {
    pieces: VecDeque<Bytes>,
    remaining: u64,
}

impl http_body::Body for PieceStream {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        Poll::Ready(self.pieces.pop_front().map(|piece| {
            self.remaining -= piece.len() as u64;
            Ok(http_body::Frame::data(piece))
        }))
    }

    fn is_end_stream(&self) -> bool {
        self.pieces.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn joined(body: &JsonBody) -> Vec<u8> {
        body.pieces.iter().flat_map(|p| p.iter().copied()).collect()
    }

    #[test]
    fn the_bytes_are_those_to_string_gives() {
        let long = "QUJD".repeat(40);
        let escaped_long = format!("{}\"\n", "x".repeat(200));
        let value = json!({
            "z": 1, "a": [true, null, -2.5, "é \u{1} \"q\" \\"],
            "messages": [{"content": [{"type": "text", "text": "hi"},
                {"data": long, "mimeType": "image/png"}, {"odd": escaped_long}]}],
            "": {}, "e": []
        });
        let expected = value.to_string();
        let body = JsonBody::moving_strings_over(value.clone(), 100);
        assert_eq!(joined(&body), expected.as_bytes());
        assert_eq!(body.len(), expected.len());
        assert_eq!(body.sha256(), crate::digest::sha256_hex(&expected));
        assert!(
            body.pieces.len() > 1,
            "the long base64 string is its own piece"
        );
        assert!(body.text_within(100).is_none());
        let whole = JsonBody::of(&value);
        assert_eq!(joined(&whole), expected.as_bytes());
        assert_eq!(whole.pieces.len(), 1);
    }

    #[test]
    fn small_bodies_are_one_buffer() {
        let value = json!({"t": "it's", "n": [1, 2]});
        let body = JsonBody::from_value(value.clone());
        assert_eq!(body.pieces.len(), 1);
        assert_eq!(
            body.text_within(100).as_deref(),
            Some(r#"{"t":"it's","n":[1,2]}"#)
        );
        assert_eq!(
            JsonBody::from_value(json!("")).text_within(10).as_deref(),
            Some(r#""""#)
        );
    }

    #[tokio::test]
    async fn a_streamed_body_declares_its_exact_length() {
        use http_body::Body as _;
        let body = JsonBody::moving_strings_over(json!({"data": "A".repeat(300)}), 100);
        let mut stream = PieceStream {
            pieces: body.pieces.iter().cloned().collect(),
            remaining: body.len() as u64,
        };
        assert_eq!(stream.size_hint().exact(), Some(body.len() as u64));
        let mut sent = Vec::new();
        while let Some(frame) =
            std::future::poll_fn(|cx| Pin::new(&mut stream).poll_frame(cx)).await
        {
            sent.extend_from_slice(&frame.unwrap().into_data().unwrap());
        }
        assert_eq!(sent, joined(&body));
        assert!(stream.is_end_stream());
        assert_eq!(stream.size_hint().exact(), Some(0));
    }
}
