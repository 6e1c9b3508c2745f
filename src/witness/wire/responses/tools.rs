//! What a Responses request says about the tool-media tool (`crate::witness::tools`):
//! a `function` tool's `name` declares it, at the top of `tools`, inside a `namespace`
//! tool's `tools` (the call then names the namespace), or in a `tool_search_output`
//! input item's `tools` (the output of a client-run tool search) or an
//! `additional_tools` input item's (where some hosts declare them); a `tool_search` tool
//! run by the client (`execution: "client"`) offers a search for deferred tools, and a
//! `custom` tool whose description says its code reaches the other tools offers code
//! mode (its input is JavaScript calling the tool); a user `message` item's text may carry the directive
//! (or `input` as a string); a `function_call` item naming the tool, or a
//! `custom_tool_call` whose code does, says the history already called it, and a
//! `tool_search_call` item that it already searched.

use crate::witness::tools::ToolTurn;
use serde_json::{Map, Value};

pub fn read(object: &Map<String, Value>) -> ToolTurn {
    let mut turn = ToolTurn::default();
    declare_all(&mut turn, array(object.get("tools")));
    if let Some(Value::String(text)) = object.get("input") {
        turn.read_user_text(text);
    }
    for item in array(object.get("input")) {
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") => {
                if let Some(name) = item.get("name").and_then(Value::as_str) {
                    turn.saw_call(name);
                }
            }
            Some("custom_tool_call") => {
                for field in ["name", "input"] {
                    if let Some(text) = item.get(field).and_then(Value::as_str) {
                        turn.saw_call(text);
                    }
                }
            }
            Some("tool_search_call") => turn.searched = true,
            Some("tool_search_output" | "additional_tools") => {
                declare_all(&mut turn, array(item.get("tools")))
            }
            Some("message") | None if item.get("role").and_then(Value::as_str) == Some("user") => {
                match item.get("content") {
                    Some(Value::String(text)) => turn.read_user_text(text),
                    Some(Value::Array(parts)) => parts
                        .iter()
                        .filter_map(|p| p.get("text").and_then(Value::as_str))
                        .for_each(|text| turn.read_user_text(text)),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    turn
}

/// Declares each named tool, and those a namespace holds; notes a client-run search
/// and a code-mode tool.
fn declare_all(turn: &mut ToolTurn, tools: &[Value]) {
    for tool in tools {
        declare_one(turn, None, tool);
    }
}

fn declare_one(turn: &mut ToolTurn, namespace: Option<&str>, tool: &Value) {
    let field = |name: &str| tool.get(name).and_then(Value::as_str);
    match field("type") {
        Some("tool_search") if field("execution") == Some("client") => {
            turn.search.get_or_insert_with(|| "tool_search".into());
        }
        Some("custom") => {
            if let (Some(name), Some(listing)) = (field("name"), field("description")) {
                turn.offer_code_mode(name, listing);
            }
        }
        Some("namespace") if namespace.is_none() => {
            for inner in array(tool.get("tools")) {
                declare_one(turn, field("name"), inner);
            }
        }
        _ => {
            if let Some(name) = field("name") {
                turn.declare_in(namespace, name);
            }
        }
    }
}

fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
