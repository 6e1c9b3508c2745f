//! Test helpers for the OpenAI-compatible server: request builders with real stamped
//! media, and each answer summarised as one short verdict string (`"200 text,image"`,
//! `"400 image_content_not_supported messages[0].content[1]"`, `"stream 5 chunks
//! stop [DONE]"`), so a test reads like the behaviour it pins.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::{MULTIMODAL_MODEL, OpenaiConfig, TEXT_MODEL, spawn};
use crate::mock_upstream::{MockUpstream, describe};
use crate::test_support::{client, loopback};

pub fn text(s: &str) -> Value {
    json!({"type": "text", "text": s})
}

/// Base64 of a real `mime` file stamped `nonce`.
pub fn b64(mime: &str, nonce: &str) -> String {
    STANDARD.encode(mmconform_media::generate(mime, nonce))
}

/// An image_url part with a data URL of a real `mime` image.
pub fn image(mime: &str) -> Value {
    json!({"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{}", b64(mime, "img"))}})
}

/// An image_url part whose url is exactly `url`.
pub fn image_url(url: &str) -> Value {
    json!({"type": "image_url", "image_url": {"url": url}})
}

/// An input_audio part with a real file in `format`.
pub fn audio(format: &str) -> Value {
    let mime = if format == "mp3" {
        "audio/mpeg"
    } else {
        "audio/wav"
    };
    json!({"type": "input_audio", "input_audio": {"data": b64(mime, "aud"), "format": format}})
}

/// A file part with a real PDF and a filename.
pub fn pdf() -> Value {
    json!({"type": "file", "file": {
        "file_data": format!("data:application/pdf;base64,{}", b64("application/pdf", "doc")),
        "filename": "report.pdf"}})
}

/// A request to `model` with one user message carrying `content`.
pub fn ask(model: &str, content: Value) -> Value {
    json!({"model": model, "messages": [{"role": "user", "content": content}]})
}

/// A request to the multimodal model.
pub fn multi(content: Value) -> Value {
    ask(MULTIMODAL_MODEL, content)
}

/// A request to the text-only model.
pub fn text_only(content: Value) -> Value {
    ask(TEXT_MODEL, content)
}

/// `body` with `stream: true` (and `stream_options` when `usage`).
pub fn streamed(mut body: Value, usage: bool) -> Value {
    body["stream"] = json!(true);
    if usage {
        body["stream_options"] = json!({"include_usage": true});
    }
    body
}

/// Sends `body` to `{base}/chat/completions` and summarises the answer.
pub async fn post(base: &str, body: &Value, bearer: Option<&str>) -> String {
    let mut request = client().post(format!("{base}/chat/completions")).json(body);
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("chat/completions request");
    let status = response.status().as_u16();
    let streamed = response
        .headers()
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    let text = response.text().await.expect("a body");
    if streamed {
        return stream_verdict(status, &text);
    }
    let body: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    verdict(status, &body)
}

/// `body` POSTed to the Responses door: `"200 text,image"` from the response's text,
/// `"200 events completed"` (or `no-completed`) for a stream, an error as [`verdict`].
pub async fn observe_responses(config: OpenaiConfig, body: &Value) -> String {
    let server = spawn(config, loopback()).await.expect("spawn the server");
    let url = format!("{}/responses", super::base_url(&server));
    let response = client()
        .post(url)
        .json(body)
        .send()
        .await
        .expect("responses request");
    let status = response.status().as_u16();
    let text = response.text().await.expect("a body");
    server.shutdown().await;
    if body["stream"] == true && status == 200 {
        let completed = text.contains("event: response.completed\n");
        return format!(
            "{status} events {}",
            if completed {
                "completed"
            } else {
                "no-completed"
            }
        );
    }
    let body: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    if status == 200 && body["object"] == "response" {
        let content = body["output"][0]["content"][0]["text"]
            .as_str()
            .expect("output_text");
        return format!("200 {}", kinds(content));
    }
    verdict(status, &body)
}

/// A Responses body: one user message of `content` parts for the multimodal model.
pub fn responses(content: Value) -> Value {
    json!({"model": "reference-multimodal", "input": [{"role": "user", "content": content}]})
}

/// Spawns a server for `config`, sends `body`, shuts it down, returns the verdict.
pub async fn observe(config: OpenaiConfig, body: &Value) -> String {
    let server = spawn(config, loopback()).await.expect("spawn the server");
    let verdict = post(&super::base_url(&server), body, None).await;
    server.shutdown().await;
    verdict
}

/// As [`observe`], with the server forwarding to a fresh mock upstream: the verdict,
/// then `=>` and what the upstream received (`mock_upstream::describe`).
pub async fn observe_forwarded(config: OpenaiConfig, body: &Value) -> (String, Vec<Value>) {
    let mock = MockUpstream::start(200).await;
    let config = config.with_upstream(Some(mock.base()));
    let verdict = observe(config, body).await;
    let received = mock.received();
    (format!("{verdict} => {}", describe(&received)), received)
}

/// `"200 text,image"`: the kinds the completion text says the last message carried
/// (then ` finish=None` when its finish_reason is not `stop`);
/// `"400 <code> <param>"` for an OpenAI error (after checking the envelope has exactly
/// its four fields); `"400 not-openai"` for any other error body.
pub fn verdict(status: u16, body: &Value) -> String {
    if status == 200 && body["object"] == "chat.completion" {
        let content = body["choices"][0]["message"]["content"]
            .as_str()
            .expect("content");
        let finish = match body["choices"][0]["finish_reason"].as_str() {
            Some("stop") => String::new(),
            other => format!(" finish={other:?}"),
        };
        return format!("200 {}{finish}", kinds(content));
    }
    if status == 200 && body["object"] == "list" {
        let ids: Vec<&str> = body["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["id"].as_str())
            .collect();
        return format!("200 models {}", ids.join(","));
    }
    let Some(error) = body["error"].as_object() else {
        return format!("{status} not-openai");
    };
    let keys: Vec<&str> = error.keys().map(String::as_str).collect();
    assert_eq!(keys, ["message", "type", "param", "code"], "{body}");
    assert!(
        error["message"].is_string() && error["type"].is_string(),
        "{body}"
    );
    let code = error["code"].as_str().unwrap_or("-");
    let param = error["param"].as_str().unwrap_or("-");
    format!("{status} {code} {param}")
}

/// The part kinds the answer text names for its last message (`text,image`).
pub fn kinds(content: &str) -> String {
    let last = content.rsplit(" messages[").next().unwrap_or_default();
    let parts = last
        .split_once(": ")
        .map_or("", |(_, p)| p)
        .trim_end_matches('.');
    parts
        .split("; ")
        .map(|p| p.split(' ').next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join(",")
}

/// `"200 stream text,image stop [DONE]"`: the kinds the streamed text names, the
/// finish_reasons (`no-finish` when none), `usage` when a usage chunk came last, and
/// `no-[DONE]` without the last line; `"200 stream bad-json"` when a data line is not
/// JSON.
pub fn stream_verdict(status: u16, text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect();
    let done = lines.last() == Some(&"[DONE]");
    let data = if done {
        &lines[..lines.len() - 1]
    } else {
        &lines[..]
    };
    let Ok(chunks) = data
        .iter()
        .map(|l| serde_json::from_str::<Value>(l))
        .collect::<Result<Vec<_>, _>>()
    else {
        return format!("{status} stream bad-json");
    };
    assert!(
        chunks
            .iter()
            .all(|c| c["object"] == "chat.completion.chunk"),
        "{text}"
    );
    let finish = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["finish_reason"].as_str())
        .collect::<Vec<_>>()
        .join(",");
    let finish = if finish.is_empty() {
        "no-finish".into()
    } else {
        finish
    };
    let usage = if chunks.last().is_some_and(|c| c["usage"].is_object()) {
        " usage"
    } else {
        ""
    };
    let content: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    let end = if done { "[DONE]" } else { "no-[DONE]" };
    format!("{status} stream {} {finish}{usage} {end}", kinds(&content))
}

/// What the upstream received in its last request's last message, part by part, with
/// what the forwarding faults bend: `text`, `image_url(<mime or url> detail=<d>)`,
/// `input_audio(<format>)`, `file(<filename>)`; `nothing` without a request.
pub fn upstream_parts(received: &[Value]) -> String {
    let Some(request) = received.last() else {
        return "nothing".into();
    };
    let content = &request["messages"]
        .as_array()
        .expect("messages")
        .last()
        .expect("a message")["content"];
    let Some(parts) = content.as_array() else {
        return format!("{content}");
    };
    let parts: Vec<String> = parts
        .iter()
        .map(|p| match p["type"].as_str() {
            Some("text") => "text".to_owned(),
            Some("image_url") => {
                let url = p["image_url"]["url"].as_str().unwrap_or("?");
                let source = url
                    .strip_prefix("data:")
                    .and_then(|u| u.split_once(';'))
                    .map_or("url", |(mime, _)| mime);
                let detail = p["image_url"]["detail"].as_str().unwrap_or("-");
                format!("image_url({source} detail={detail})")
            }
            Some("input_audio") => format!(
                "input_audio({})",
                p["input_audio"]["format"].as_str().unwrap_or("?")
            ),
            Some("file") => format!("file({})", p["file"]["filename"].as_str().unwrap_or("-")),
            other => format!("?{other:?}"),
        })
        .collect();
    parts.join(" ")
}
