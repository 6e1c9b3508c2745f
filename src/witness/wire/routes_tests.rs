//! The Responses and Gemini routes over loopback HTTP: what clients get back, what is
//! recorded, and that an API key in the query never is.

use crate::witness::record::ProblemCode;
use crate::witness::{RunningWitness, Wire, Witness, WitnessConfig};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

const SECRET: &str = "AIzaSECRETkey0123456789";

fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().no_proxy().build().unwrap()
}

async fn start() -> RunningWitness {
    Witness::start(WitnessConfig::default()).await.unwrap()
}

fn root(w: &RunningWitness) -> String {
    w.base_url().trim_end_matches("/v1").to_string()
}

async fn post(url: &str, body: impl Into<reqwest::Body>) -> (u16, String, String) {
    let r = client()
        .post(url)
        .header("content-type", "application/json")
        .header("x-goog-api-key", SECRET)
        .bearer_auth(SECRET)
        .body(body)
        .send()
        .await
        .unwrap();
    let kind = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or_default().to_string())
        .unwrap_or_default();
    (r.status().as_u16(), kind, r.text().await.unwrap())
}

fn png(nonce: &str) -> String {
    STANDARD.encode(mmconform_media::generate("image/png", nonce))
}

fn responses_body(nonce: &str, stream: bool) -> String {
    let url = format!("data:image/png;base64,{}", png(nonce));
    json!({"model": "gpt-test", "stream": stream, "input": [{"role": "user", "content": [
        {"type": "input_text", "text": "what is this?"},
        {"type": "input_image", "image_url": url, "detail": "low"},
    ]}]})
    .to_string()
}

fn gemini_body(nonce: &str) -> String {
    json!({"contents": [{"role": "user", "parts": [
        {"text": "what is this?"},
        {"inlineData": {"mimeType": "image/png", "data": png(nonce)}},
    ]}]})
    .to_string()
}

#[tokio::test]
async fn a_responses_call_is_answered_as_a_completed_response_with_what_was_seen() {
    let w = start().await;
    for base in [w.base_url(), root(&w)] {
        let (status, _, body) =
            post(&format!("{base}/responses"), responses_body("r1-p0", false)).await;
        assert_eq!(status, 200, "{body}");
        let answer: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(answer["object"], "response");
        assert_eq!(answer["status"], "completed");
        let text = answer["output"][0]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains("nonce r1-p0") && text.contains("openai.responses"),
            "{text}"
        );
    }
    let calls = w.calls_carrying("r1");
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].wire, Wire::OpenaiResponses);
    assert_eq!(calls[0].parts[1].detail.as_deref(), Some("low"));
    assert_eq!(calls[1].path, "/responses");
}

#[tokio::test]
async fn a_responses_stream_sends_every_event_up_to_completed() {
    let w = start().await;
    let url = format!("{}/responses", w.base_url());
    let (status, kind, body) = post(&url, responses_body("r2-p0", true)).await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let names: Vec<&str> = body
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    assert_eq!(names, crate::wire::responses::EVENTS);
    let last = body
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .next_back()
        .unwrap();
    let last: Value = serde_json::from_str(last).unwrap();
    assert_eq!(last["type"], "response.completed");
    assert!(w.calls_carrying("r2")[0].stream);
}

#[tokio::test]
async fn gemini_calls_are_answered_in_each_framing_and_the_key_is_never_kept() {
    let w = start().await;
    let models = format!("{}/v1beta/models", root(&w));
    let (status, _, body) = post(
        &format!("{models}/gemini-test:generateContent?key={SECRET}"),
        gemini_body("g1-p0"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    let text = answer["candidates"][0]["content"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(text.contains("nonce g1-p0"), "{text}");

    let url = format!("{models}/gemini-test:streamGenerateContent?alt=sse&key={SECRET}");
    let (status, kind, body) = post(&url, gemini_body("g2-p0")).await;
    assert_eq!((status, kind.as_str()), (200, "text/event-stream"));
    let data = body.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
    let chunk: Value = serde_json::from_str(data).unwrap();
    assert_eq!(chunk["candidates"][0]["finishReason"], "STOP");

    let url = format!(
        "{}/v1/v1beta/models/gemini-test:streamGenerateContent",
        root(&w)
    );
    let (status, _, body) = post(&url, gemini_body("g3-p0")).await;
    assert_eq!(status, 200);
    let array: Value = serde_json::from_str(&body).unwrap();
    assert!(array[0]["candidates"].is_array(), "{body}");

    // google-genai's default API version is v1, at the path OpenAI's models share.
    let url = format!("{}/models/gemini-test:countTokens", w.base_url());
    let (status, _, body) = post(&url, gemini_body("g4-p0")).await;
    assert_eq!(status, 200);
    assert!(serde_json::from_str::<Value>(&body).unwrap()["totalTokens"].is_u64());

    let calls = w.calls_since(0);
    let wires: Vec<(Wire, bool)> = calls.iter().map(|c| (c.wire, c.stream)).collect();
    assert_eq!(
        wires,
        [
            (Wire::Gemini, false),
            (Wire::Gemini, true),
            (Wire::Gemini, true),
            (Wire::GeminiCountTokens, false)
        ]
    );
    assert_eq!(calls[0].model.as_deref(), Some("gemini-test"));
    let recorded = serde_json::to_string(&calls).unwrap();
    assert!(!recorded.contains(SECRET));
    assert!(!recorded.contains("key="));
}

#[tokio::test]
async fn the_gemini_model_list_and_errors_are_in_googles_shape() {
    let w = start().await;
    let models = format!("{}/v1beta/models", root(&w));
    let list: Value = client()
        .get(&models)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["models"][0]["name"], "models/mmconform-witness");
    let one = client()
        .get(format!("{models}/mmconform-witness"))
        .send()
        .await
        .unwrap();
    assert_eq!(one.status(), 200);
    let missing = client()
        .get(format!("{models}/other"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    let body: Value = missing.json().await.unwrap();
    assert_eq!(body["error"]["status"], "NOT_FOUND");
    // The OpenAI list is still where it was.
    let openai: Value = client()
        .get(format!("{}/models", w.base_url()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(openai["object"], "list");

    let (status, _, body) = post(&format!("{models}/g:generateContent"), "{not json").await;
    assert_eq!(status, 400);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (
            body["error"]["code"].as_u64(),
            body["error"]["status"].as_str()
        ),
        (Some(400), Some("INVALID_ARGUMENT"))
    );
    let (status, _, body) = post(&format!("{}/responses", w.base_url()), "[1]").await;
    assert_eq!(status, 400);
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"]["message"].is_string());
    let (status, _, _) = post(&format!("{models}/g:embedContent"), "{}").await;
    assert_eq!(status, 404);
    let calls = w.calls_since(0);
    assert!(calls[0].has_problem(ProblemCode::MalformedJson));
    assert_eq!(calls[0].wire, Wire::Gemini);
    assert!(calls[1].has_problem(ProblemCode::BadShape));
    assert_eq!(calls[2].wire, Wire::Unknown);
}

/// A Chat request of a tool-media case: the tool declared, the directive in the
/// prompt, and, once `result` is given, the witness's call and the tool's result.
fn tool_media_body(stream: bool, result: Option<Value>) -> String {
    let directive = crate::tool_media::Directive::text("0123456789abcdef-c4", "png");
    let name = "mcp__mmconform__mmconform_tool_media";
    let mut messages =
        vec![json!({"role": "user", "content": format!("Run the tool. {directive}")})];
    if let Some(result) = result {
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_mmconform_1", "type": "function", "function": {"name": name, "arguments": "{}"}}]}));
        messages
            .push(json!({"role": "tool", "tool_call_id": "call_mmconform_1", "content": result}));
    }
    json!({"model": "gpt-test", "stream": stream, "messages": messages,
        "tools": [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}]})
    .to_string()
}

#[tokio::test]
async fn a_tool_media_case_gets_one_tool_call_then_text_and_the_result_is_recorded() {
    let w = start().await;
    let url = format!("{}/chat/completions", w.base_url());
    let (status, _, body) = post(&url, tool_media_body(false, None)).await;
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["choices"][0]["finish_reason"], "tool_calls");
    let call = &answer["choices"][0]["message"]["tool_calls"][0];
    assert_eq!(
        call["function"]["name"],
        "mcp__mmconform__mmconform_tool_media"
    );
    let (_, kind, streamed) = post(&url, tool_media_body(true, None)).await;
    assert!(kind.starts_with("text/event-stream"));
    assert!(
        streamed.contains("\"finish_reason\":\"tool_calls\""),
        "{streamed}"
    );
    let medium = "0123456789abcdef-p4";
    let result = json!([{"type": "text", "text": "mmconform tool result"},
        {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", png(medium))}}]);
    let (_, _, body) = post(&url, tool_media_body(false, Some(result))).await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["choices"][0]["finish_reason"], "stop", "{body}");
    let calls = w.calls_since(0);
    assert_eq!(calls.len(), 3);
    assert!(calls[0].tool_call.is_some() && calls[1].tool_call.is_some());
    assert!(calls[2].tool_call.is_none());
    assert!(calls[2].carries(medium));
    assert!(!calls[0].carries(medium));
}

/// A streamed Responses request of a tool-media case, as Codex sends one: its tools,
/// then `extra` input items after the prompt.
fn codex_body(tools: Value, extra: Vec<Value>) -> String {
    let directive = crate::tool_media::Directive::text("0123456789abcdef-c6", "png");
    let mut input = vec![json!({"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": format!("Call the tool. {directive}")}]})];
    input.extend(extra);
    json!({"model": "gpt-test", "stream": true, "tools": tools, "input": input}).to_string()
}

#[tokio::test]
async fn the_responses_route_searches_for_a_deferred_tool_and_runs_code_mode() {
    let w = start().await;
    let url = format!("{}/responses", w.base_url());
    let search =
        json!([{"type": "tool_search", "execution": "client", "description": "Tool discovery"}]);
    let (_, kind, streamed) = post(&url, codex_body(search.clone(), vec![])).await;
    assert!(kind.starts_with("text/event-stream"));
    assert!(
        streamed.contains(r#""type":"tool_search_call""#),
        "{streamed}"
    );
    assert!(
        streamed.contains(r#""query":"mmconform_tool_media""#),
        "{streamed}"
    );

    let found = vec![
        json!({"type": "tool_search_call", "call_id": "call_mmconform_1", "execution": "client",
            "arguments": {"query": "mmconform_tool_media"}}),
        json!({"type": "tool_search_output", "call_id": "call_mmconform_1", "execution": "client",
            "tools": [{"type": "namespace", "name": "mcp__mmconform", "tools": [
                {"type": "function", "name": "mmconform_tool_media", "defer_loading": true}]}]}),
    ];
    let (_, _, streamed) = post(&url, codex_body(search, found)).await;
    assert!(streamed.contains(r#""type":"function_call""#), "{streamed}");
    assert!(
        streamed.contains(r#""namespace":"mcp__mmconform""#),
        "{streamed}"
    );

    let exec = json!([{"type": "custom", "name": "exec",
        "description": "Run JavaScript. All nested tools are on the global `tools` object, e.g. `await tools.exec_command(...)`; `ALL_TOOLS` lists them."}]);
    let (_, _, streamed) = post(&url, codex_body(exec.clone(), vec![])).await;
    assert!(
        streamed.contains("event: response.custom_tool_call_input.delta"),
        "{streamed}"
    );
    let medium = "0123456789abcdef-p6";
    let ran = vec![
        json!({"type": "custom_tool_call", "call_id": "call_mmconform_4", "name": "exec",
            "input": "await tools.mcp__mmconform__mmconform_tool_media({})"}),
        json!({"type": "custom_tool_call_output", "call_id": "call_mmconform_4", "output": [
            {"type": "input_text", "text": "Script completed"},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{}", png(medium))}]}),
    ];
    let (_, _, streamed) = post(&url, codex_body(exec, ran)).await;
    assert!(
        streamed.contains(r#""type":"message""#),
        "text at last: {streamed}"
    );
    let calls = w.calls_since(0);
    assert_eq!(calls.len(), 4);
    assert!(!calls[0].tool_call.as_ref().unwrap().calls_the_tool());
    assert!(calls[1].tool_call.as_ref().unwrap().calls_the_tool());
    assert!(calls[3].tool_call.is_none() && calls[3].carries(medium));
}
