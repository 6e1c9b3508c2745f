//! The Gemini API wire (`generativelanguage` v1beta), as Google's API reference
//! ("models.generateContent", "models.streamGenerateContent", "models.countTokens", the
//! `Content`, `Part`, `Blob` and `FileData` types) defines it: `POST
//! /v1beta/models/{model}:generateContent`, `:streamGenerateContent` (with `?alt=sse`
//! a server-sent event per response, without it one JSON array of responses) and
//! `:countTokens`; `contents[]` of `{role, parts[]}`, a part being `text`,
//! `inlineData {mimeType, data}` or `fileData {mimeType, fileUri}` (and tool calls,
//! results, code); `systemInstruction` a `Content`. The REST API takes the proto's
//! JSON names, camelCase, and snake_case alike, and clients send both.
//!
//! The names below, and the part encoders, are what both directions use: the witness
//! reads them (`witness/wire/gemini/`) and a sender writes them.

use serde_json::{Value, json};

/// Where the API reference defines what these rules check.
pub const SOURCE: &str = "Gemini API reference, generateContent (Content, Part, Blob)";

/// The API versions served as `/{version}/models/...` by their own routes; `v1`
/// shares `/v1/models/{id}` with the OpenAI wires and is served there.
pub const VERSIONS: [&str; 2] = ["v1beta", "v1alpha"];

/// A model method, the part of the path after `{model}:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Generate,
    StreamGenerate,
    CountTokens,
}

impl Method {
    pub fn parse(name: &str) -> Option<Method> {
        Some(match name {
            "generateContent" => Method::Generate,
            "streamGenerateContent" => Method::StreamGenerate,
            "countTokens" => Method::CountTokens,
            _ => return None,
        })
    }
}

/// `gemini-2.5-flash:generateContent` -> the model and the method; `None` when the
/// path does not name a method after a colon.
pub fn model_method(rest: &str) -> Option<(&str, &str)> {
    let (model, method) = rest.rsplit_once(':')?;
    (!model.is_empty()).then_some((model, method))
}

/// The wire forms the witness records for this wire's parts.
pub mod form {
    pub const TEXT: &str = "gemini.text";
    pub const INLINE_DATA: &str = "gemini.inline_data";
    pub const FILE_DATA: &str = "gemini.file_data";
    pub const SYSTEM: &str = "gemini.system_instruction";
    /// A `functionResponse`'s `response`, read as the text the model gets.
    pub const FUNCTION_RESPONSE_TEXT: &str = "gemini.function_response.response";
}

/// The part fields that carry no media, recorded by name without a problem (both
/// spellings: the REST API accepts either).
pub const OTHER_FIELDS: [&str; 12] = [
    "functionCall",
    "function_call",
    "functionResponse",
    "function_response",
    "executableCode",
    "executable_code",
    "codeExecutionResult",
    "code_execution_result",
    "toolCall",
    "tool_call",
    "toolResponse",
    "tool_response",
];

#[cfg(test)]
/// `{text}`.
pub fn text(text: &str) -> Value {
    json!({"text": text})
}

#[cfg(test)]
/// `{inlineData: {mimeType, data}}`.
pub fn inline_data(mime: &str, base64: &str) -> Value {
    json!({"inlineData": {"mimeType": mime, "data": base64}})
}

#[cfg(test)]
/// `{fileData: {mimeType, fileUri}}`.
pub fn file_data(mime: &str, uri: &str) -> Value {
    json!({"fileData": {"mimeType": mime, "fileUri": uri}})
}

#[cfg(test)]
/// A user `Content` holding `parts`.
pub fn user_content(parts: Vec<Value>) -> Value {
    json!({"role": "user", "parts": parts})
}

/// Google's error envelope `{error: {code, message, status}}`, with the status name for the HTTP status.
pub fn error_body(status: u16, message: &str) -> Value {
    let name = match status {
        400 | 413 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        405 => "UNIMPLEMENTED",
        408 => "DEADLINE_EXCEEDED",
        429 => "RESOURCE_EXHAUSTED",
        503 => "UNAVAILABLE",
        500.. => "INTERNAL",
        _ => "FAILED_PRECONDITION",
    };
    json!({"error": {"code": status, "message": message, "status": name}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_path_splits_at_its_last_colon() {
        assert_eq!(
            model_method("gemini-2.5-flash:generateContent"),
            Some(("gemini-2.5-flash", "generateContent"))
        );
        assert_eq!(
            model_method("tuned:x:countTokens"),
            Some(("tuned:x", "countTokens"))
        );
        assert_eq!(model_method("gemini-2.5-flash"), None);
        assert_eq!(model_method(":generateContent"), None);
        assert_eq!(Method::parse("countTokens"), Some(Method::CountTokens));
        assert_eq!(Method::parse("embedContent"), None);
    }
}
