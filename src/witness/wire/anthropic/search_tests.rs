//! Claude Code's deferred tool, end to end over loopback HTTP: the witness answers the
//! first streamed Messages call with a `ToolSearch` call selecting the tool, the call
//! holding the search's `tool_reference` result with the tool itself, and the call
//! holding the tool's result with text; the three are recorded as such.

use crate::witness::tools::Way;
use crate::witness::wire::data_lines;
use crate::witness::{Witness, WitnessConfig};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

const NAME: &str = "mcp__mmconform__mmconform_tool_media";
const CASE: &str = "0123456789abcdef-c4";
const MEDIUM: &str = "0123456789abcdef-p4";

/// The request after `steps` of the four history messages (search call, its result,
/// tool call, its result), streamed as Claude Code streams them.
fn body(steps: usize) -> String {
    let prompt = format!(
        "Call the tool. {}",
        crate::tool_media::Directive::text(CASE, "png")
    );
    let image = STANDARD.encode(mmconform_media::generate("image/png", MEDIUM));
    let history = [
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "call_mmconform_1",
            "name": "ToolSearch", "input": {"query": format!("select:{NAME}"), "max_results": 1}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_mmconform_1",
            "content": [{"type": "tool_reference", "tool_name": NAME}]},
            {"type": "text", "text": "Tool loaded."}]}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "call_mmconform_2",
            "name": NAME, "input": {"case": CASE, "medium": "png"}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_mmconform_2",
            "content": [{"type": "text", "text": "mmconform tool result"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": image}}]}]}),
    ];
    let mut messages = vec![
        json!({"role": "user", "content": [{"type": "text", "text": prompt}]}),
        json!({"role": "system", "content": [{"type": "text", "text":
            format!("The following deferred tools are now available via ToolSearch:\nWebFetch\n{NAME}\n")}]}),
    ];
    messages.extend(history.into_iter().take(steps));
    let mut tools = vec![json!({"name": "ToolSearch", "input_schema": {"type": "object"}})];
    if steps > 0 {
        tools
            .push(json!({"name": NAME, "input_schema": {"type": "object"}, "defer_loading": true}));
    }
    json!({"model": "claude-opus-5-5", "max_tokens": 100, "stream": true, "messages": messages, "tools": tools})
        .to_string()
}

/// The `content_block_start` block and the input its delta carries.
async fn answer(url: &str, steps: usize) -> (Value, Option<Value>) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let sse = client
        .post(url)
        .header("content-type", "application/json")
        .body(body(steps))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let data: Vec<Value> = data_lines(&sse)
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let input = data[2]["delta"]["partial_json"]
        .as_str()
        .map(|j| serde_json::from_str(j).unwrap());
    (data[1]["content_block"].clone(), input)
}

#[tokio::test]
async fn a_deferred_tool_is_searched_for_then_called_then_answered() {
    let w = Witness::start(WitnessConfig::default()).await.unwrap();
    let url = format!("{}/messages", w.base_url());

    let (block, input) = answer(&url, 0).await;
    assert_eq!(
        (block["type"].as_str(), block["name"].as_str()),
        (Some("tool_use"), Some("ToolSearch"))
    );
    assert_eq!(
        input,
        Some(json!({"query": format!("select:{NAME}"), "max_results": 1}))
    );

    let (block, input) = answer(&url, 2).await;
    assert_eq!(block["name"], NAME);
    assert_eq!(input, Some(json!({"case": CASE, "medium": "png"})));

    let (block, _) = answer(&url, 4).await;
    assert_eq!(block["type"], "text");

    let calls = w.calls_since(0);
    let ways: Vec<Option<Way>> = calls
        .iter()
        .map(|c| c.tool_call.as_ref().map(|t| t.way.clone()))
        .collect();
    assert_eq!(
        ways,
        [
            Some(Way::Search { tool: NAME.into() }),
            Some(Way::Direct),
            None
        ]
    );
    assert!(calls[2].carries(MEDIUM) && !calls[1].carries(MEDIUM));
    assert!(
        calls.iter().all(|c| c.all_problems().next().is_none()),
        "{calls:?}"
    );
}
