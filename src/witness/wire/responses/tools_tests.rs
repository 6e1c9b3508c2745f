//! Request bodies shaped like those a Codex host sends (Responses wire, streamed), as
//! observed: its own tools, a client-run `tool_search`, a custom tool, then the search's
//! call and output (the MCP tool in a `namespace`, deferred), then the tool's call and
//! its output.

use super::*;
use crate::witness::tools::{Way, decide};
use serde_json::{Value, json};

const DIRECTIVE: &str = "[mmconform tool-media case=0123456789abcdef-c18 medium=png]";

/// The first request: the MCP tool is deferred behind the search.
fn first() -> Value {
    json!({
        "model": "gpt-5.5", "stream": true, "tool_choice": "auto",
        "tools": [
            {"type": "function", "name": "exec_command", "strict": false, "parameters": {}},
            {"type": "function", "name": "list_mcp_resources", "strict": false, "parameters": {}},
            {"type": "custom", "name": "apply_patch", "description": "Use the `apply_patch` tool to edit files.",
             "format": {"type": "grammar", "syntax": "lark", "definition": "start: begin_patch"}},
            {"type": "tool_search", "execution": "client",
             "description": "# Tool discovery\nSearches over deferred tool metadata ...\n- mmconform",
             "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}},
            {"type": "web_search", "external_web_access": false}
        ],
        "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "You are Codex"}]},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "mmconform 0123456789abcdef-c18"},
                {"type": "input_text", "text": format!("Call the tool. {DIRECTIVE}")}]}
        ]
    })
}

fn push(body: &mut Value, item: Value) {
    body["input"].as_array_mut().unwrap().push(item);
}

/// The second request: the search's call, and its output declaring the tool.
fn second() -> Value {
    let mut body = first();
    push(
        &mut body,
        json!({"type": "tool_search_call", "id": "ts_mmconform_1", "call_id": "call_mmconform_1",
        "status": "completed", "execution": "client",
        "arguments": {"query": "mmconform_tool_media", "limit": 1}}),
    );
    push(
        &mut body,
        json!({"type": "tool_search_output", "id": "tso_1", "call_id": "call_mmconform_1",
        "status": "completed", "execution": "client", "tools": [
            {"type": "namespace", "name": "mcp__mmconform", "description": "Tools in the mcp__mmconform namespace.",
             "tools": [{"type": "function", "name": "mmconform_tool_media", "strict": false,
                        "defer_loading": true, "parameters": {"type": "object"}}]}]}),
    );
    body
}

fn turn(body: &Value) -> ToolTurn {
    read(body.as_object().unwrap())
}

#[test]
fn a_deferred_tool_is_searched_for_then_called_in_its_namespace_then_answered() {
    let opening = turn(&first());
    assert_eq!(
        opening.declared, None,
        "apply_patch and the rest are not the tool"
    );
    assert_eq!(opening.search.as_deref(), Some("tool_search"));
    assert_eq!(opening.code_mode, None);
    let search = decide(&opening, 1).expect("a search");
    assert_eq!(
        (search.way.clone(), search.name.as_str()),
        (
            Way::Search {
                tool: "mmconform_tool_media".into()
            },
            "tool_search"
        )
    );
    assert!(!search.calls_the_tool());

    let searched = turn(&second());
    assert!(searched.searched);
    assert_eq!(searched.declared.as_deref(), Some("mmconform_tool_media"));
    assert_eq!(searched.namespace.as_deref(), Some("mcp__mmconform"));
    let call = decide(&searched, 2).expect("the tool's call");
    assert_eq!(call.way, Way::Direct);
    assert_eq!(call.namespace.as_deref(), Some("mcp__mmconform"));

    let mut third = second();
    push(
        &mut third,
        json!({"type": "function_call", "status": "completed", "id": "fc_mmconform_2",
        "name": "mmconform_tool_media", "namespace": "mcp__mmconform",
        "arguments": "{\"case\":\"0123456789abcdef-c18\",\"medium\":\"png\"}", "call_id": "call_mmconform_2"}),
    );
    push(
        &mut third,
        json!({"type": "function_call_output", "call_id": "call_mmconform_2", "output": [
            {"type": "input_text", "text": "Wall time: 0.0115 seconds\nOutput:"},
            {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "high"}]}),
    );
    assert_eq!(
        decide(&turn(&third), 3),
        None,
        "the history called it: text"
    );
}

#[test]
fn a_search_that_declared_nothing_is_not_repeated() {
    let mut body = first();
    push(
        &mut body,
        json!({"type": "tool_search_call", "call_id": "call_mmconform_1", "execution": "client",
        "arguments": {"query": "mmconform_tool_media"}}),
    );
    push(
        &mut body,
        json!({"type": "tool_search_output", "call_id": "call_mmconform_1", "execution": "client", "tools": []}),
    );
    assert_eq!(decide(&turn(&body), 2), None);
}

#[test]
fn a_declared_tool_in_a_namespace_is_called_directly() {
    let mut body = first();
    body["tools"].as_array_mut().unwrap().push(json!({"type": "namespace",
        "name": "mcp__mmconform", "tools": [{"type": "function", "name": "mmconform_tool_media"}]}));
    let call = decide(&turn(&body), 1).expect("a call");
    assert_eq!(call.way, Way::Direct);
    assert_eq!(call.namespace.as_deref(), Some("mcp__mmconform"));
}

#[test]
fn the_directive_is_read_from_user_text_only() {
    let mut body = first();
    body["input"][1]["role"] = json!("developer");
    assert_eq!(turn(&body).directive, None);
    let plain = json!({"input": DIRECTIVE});
    assert!(turn(&plain).directive.is_some());
}

/// A code-mode request: the host's tools in an `additional_tools` item, one `exec`
/// custom tool whose code reaches the others (the MCP tool deferred, not listed).
fn code_mode() -> Value {
    json!({
        "model": "gpt-6.1-sol", "stream": true,
        "input": [
            {"type": "additional_tools", "role": "developer", "tools": [
                {"type": "namespace", "name": "functions", "description": "", "tools": [
                    {"type": "custom", "name": "exec", "description": "Run JavaScript code to orchestrate/compose tool calls\n- All nested tools are available on the global `tools` object, for example `await tools.exec_command(...)`.\n- `image(...)`: Appends an image item.\n- `ALL_TOOLS`: metadata for the enabled nested tools.\nSome deferred nested tools may be omitted from this description.",
                     "format": {"type": "grammar", "syntax": "lark", "definition": "start: plain_source"}},
                    {"type": "function", "name": "wait", "parameters": {}}]},
                {"type": "namespace", "name": "clock", "tools": [{"type": "function", "name": "sleep"}]}]},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": format!("Call the tool. {DIRECTIVE}")}]}
        ]
    })
}

#[test]
fn code_mode_calls_the_deferred_tool_from_code_once() {
    let opening = turn(&code_mode());
    assert_eq!(
        (opening.declared.as_ref(), opening.search.as_ref()),
        (None, None)
    );
    let code = opening.code_mode.clone().expect("code mode");
    assert_eq!(code.name, "exec");
    assert_eq!(code.tool, "mcp__mmconform__mmconform_tool_media");
    let call = decide(&opening, 1).expect("a call through code");
    assert!(call.calls_the_tool());
    assert!(call.code().unwrap().contains("ALL_TOOLS"));

    let mut after = code_mode();
    push(
        &mut after,
        json!({"type": "custom_tool_call", "status": "completed", "call_id": "call_mmconform_1",
        "name": "exec", "input": call.code().unwrap()}),
    );
    push(
        &mut after,
        json!({"type": "custom_tool_call_output", "call_id": "call_mmconform_1", "output": [
            {"type": "input_text", "text": "Script completed"}]}),
    );
    assert!(turn(&after).called);
    assert_eq!(decide(&turn(&after), 2), None);
}

#[test]
fn a_custom_tool_that_reaches_no_tools_is_no_code_mode() {
    let mut body = code_mode();
    body["input"][0]["tools"][0]["tools"][0]["description"] =
        json!("Use the `apply_patch` tool to edit files.");
    assert_eq!(turn(&body).code_mode, None);
    body["input"][0]["tools"][0]["tools"][0]["description"] = json!(
        "### `mcp__mmconform__mmconform_tool_media`\ndeclare const tools: { mcp__mmconform__mmconform_tool_media(args: {}) }"
    );
    assert_eq!(
        turn(&body).code_mode.map(|c| c.tool).as_deref(),
        Some("mcp__mmconform__mmconform_tool_media"),
        "a listing that names the tool gives its name"
    );
}
