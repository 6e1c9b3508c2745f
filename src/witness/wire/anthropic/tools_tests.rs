//! Request bodies shaped like the ones Claude Code (2.1.318, through its ACP adapter)
//! was seen sending to the witness, cut down to the members that matter: its MCP tool
//! named in a `system` message's listing of deferred tools (not in `tools`), its
//! `ToolSearch`, the search's `tool_reference` result, the tool then declared with
//! `defer_loading: true`, and the tool's result.
use super::*;
use crate::witness::tools::{Way, decide};
use serde_json::json;

const NAME: &str = "mcp__mmconform__mmconform_tool_media";
const PROMPT: &str = "Call the tool mmconform_tool_media with the case and medium below, then \
                      say what it returned. [mmconform tool-media case=a-c1 medium=png]";

fn tool_search() -> Value {
    json!({"name": "ToolSearch", "description": "Fetches full schema definitions for deferred tools.",
        "input_schema": {"type": "object", "properties": {"query": {"type": "string"},
        "max_results": {"type": "number"}}, "required": ["query", "max_results"]}})
}

/// The turn's first request: the tool only listed, in a `system` message.
fn first() -> Value {
    json!({
        "model": "claude-opus-5-5",
        "system": [{"type": "text", "text": "You are Claude Code."}],
        "tools": [{"name": "Read", "input_schema": {}}, tool_search(),
            {"name": "DeferredToolPlaceholder", "input_schema": {}, "defer_loading": true}],
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "<system-reminder>\nAttribution...\n</system-reminder>\n"},
                {"type": "text", "text": "mmconform a-c1"},
                {"type": "text", "text": PROMPT}]},
            {"role": "system", "content": [{"type": "text", "text": format!(
                "# Environment\n...\nThe following deferred tools are now available via \
                 ToolSearch. Use ToolSearch with query \"select:<name>[,<name>...]\" to load \
                 tool schemas before calling them:\nCronCreate\nWebFetch\n{NAME}\n\nAvailable agent types...")}]}
        ],
        "stream": true
    })
}

fn push(body: &mut Value, message: Value) {
    body["messages"].as_array_mut().unwrap().push(message);
}

/// The second request: the search's call and its `tool_reference` result; the tool
/// now declared, still deferred.
fn after_search() -> Value {
    let mut body = first();
    body["tools"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": NAME, "input_schema": {"type": "object"}, "defer_loading": true}));
    push(
        &mut body,
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "call_mmconform_2",
        "name": "ToolSearch", "input": {"query": format!("select:{NAME}"), "max_results": 1}}]}),
    );
    push(
        &mut body,
        json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "call_mmconform_2",
            "content": [{"type": "tool_reference", "tool_name": NAME}]},
        {"type": "text", "text": "Tool loaded.", "cache_control": {"type": "ephemeral"}}]}),
    );
    body
}

fn turn(body: &Value) -> ToolTurn {
    read(body.as_object().unwrap())
}

#[test]
fn reads_the_declaration_the_directive_and_the_history() {
    let mut body = json!({
        "tools": [{"name": "ToolSearch"}, {"name": NAME, "input_schema": {}}],
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "[mmconform tool-media case=a-c1 medium=png]"}]}]
    });
    let read = turn(&body);
    assert_eq!(read.declared.as_deref(), Some(NAME));
    assert!(!read.deferred);
    assert_eq!(
        read.directive.as_ref().map(|d| d.case.as_str()),
        Some("a-c1")
    );
    assert!(!read.called);
    push(
        &mut body,
        json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "t", "name": NAME, "input": {}}]}),
    );
    assert!(turn(&body).called);
}

#[test]
fn a_listed_tool_is_searched_for_first() {
    let read = turn(&first());
    assert_eq!(read.declared, None);
    assert_eq!(read.listed.as_deref(), Some(NAME));
    assert_eq!(read.search.as_deref(), Some("ToolSearch"));
    assert!(!read.searched && !read.found);
    let call = decide(&read, 1).expect("the search");
    assert_eq!(call.name, "ToolSearch");
    assert_eq!(call.way, Way::Search { tool: NAME.into() });
}

#[test]
fn the_search_result_loads_the_tool_which_is_then_called() {
    let read = turn(&after_search());
    assert!(read.searched && read.found && read.deferred);
    let call = decide(&read, 3).expect("the tool");
    assert_eq!((call.name.as_str(), &call.way), (NAME, &Way::Direct));
    assert_eq!(call.case, "a-c1");
}

#[test]
fn the_tool_result_ends_the_calls() {
    let mut body = after_search();
    push(
        &mut body,
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "call_mmconform_3",
        "name": NAME, "input": {"case": "a-c1", "medium": "png"}}]}),
    );
    push(
        &mut body,
        json!({"role": "user", "content": [{"tool_use_id": "call_mmconform_3",
        "type": "tool_result", "content": [
            {"type": "text", "text": "mmconform tool result a-c1-t"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            {"type": "text", "text": "[Image: source: /home/u/.claude/projects/p/s/tool-results/mcp-mmconform-blob-1.png]"}]}]}),
    );
    assert_eq!(decide(&turn(&body), 4), None);
}

#[test]
fn a_search_that_names_nothing_is_not_made_again() {
    let mut body = first();
    push(
        &mut body,
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "s1",
        "name": "ToolSearch", "input": {"query": format!("select:{NAME}"), "max_results": 1}}]}),
    );
    push(
        &mut body,
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "s1",
        "content": "No matching deferred tools found"}]}),
    );
    let read = turn(&body);
    assert!(read.searched && !read.found);
    assert_eq!(decide(&read, 2), None, "one search per conversation");
}

#[test]
fn a_search_result_given_as_text_names_the_tool_too() {
    let mut body = first();
    push(
        &mut body,
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "s1",
        "name": "ToolSearch", "input": {"query": "select:x"}}]}),
    );
    push(
        &mut body,
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "s1",
        "content": [{"type": "text", "text": format!("<functions><function>{{\"name\": \"{NAME}\"}}</function></functions>")}]}]}),
    );
    assert!(turn(&body).found);
    // A result to another call that merely mentions the tool loads nothing.
    let mut other = first();
    push(
        &mut other,
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x",
        "content": format!("I could call {NAME}")}]}),
    );
    assert!(!turn(&other).found);
}

#[test]
fn deferral_turned_off_declares_the_tool_and_it_is_called_at_once() {
    // `ENABLE_TOOL_SEARCH=false`: the tool in `tools`, no listing, no deferral.
    let mut body = first();
    body["messages"].as_array_mut().unwrap().truncate(1);
    body["tools"] = json!([{"name": "Read"}, {"name": NAME, "input_schema": {"type": "object"}}]);
    let call = decide(&turn(&body), 1).expect("the tool");
    assert_eq!((call.name.as_str(), call.way), (NAME, Way::Direct));
}
