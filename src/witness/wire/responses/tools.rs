//! What a Responses request says about the tool-media tool (`crate::witness::tools`):
//! a `function` tool's `name` declares it, at the top of `tools`, inside a `namespace`
//! tool's `tools`, or in a `tool_search_output` input item's `tools` (a client-run tool
//! search); a user `message` item's text may carry the directive (or `input` as a
//! string); a `function_call` item says the history already called it.

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
            Some("function_call" | "custom_tool_call") => {
                if let Some(name) = item.get("name").and_then(Value::as_str) {
                    turn.saw_call(name);
                }
            }
            Some("tool_search_output") => declare_all(&mut turn, array(item.get("tools"))),
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

/// Declares each named tool, and those a namespace holds.
fn declare_all(turn: &mut ToolTurn, tools: &[Value]) {
    for tool in tools {
        if let Some(name) = tool.get("name").and_then(Value::as_str) {
            turn.declare(name);
        }
        for inner in array(tool.get("tools")) {
            if let Some(name) = inner.get("name").and_then(Value::as_str) {
                turn.declare(name);
            }
        }
    }
}

fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_namespaces_tool_search_output_the_directive_and_the_history() {
        let mut body = json!({
            "tools": [{"type": "namespace", "name": "mcp__mmconform", "tools": [
                {"type": "function", "name": "mmconform_tool_media"}]}],
            "input": [{"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "[mmconform tool-media case=a-c1 medium=png]"}]}]
        });
        let turn = read(body.as_object().unwrap());
        assert_eq!(turn.declared.as_deref(), Some("mmconform_tool_media"));
        assert!(turn.directive.is_some() && !turn.called);
        let searched = json!({"input": [{"type": "tool_search_output", "tools": [
            {"type": "function", "name": "mcp__mmconform__mmconform_tool_media"}]}]});
        assert!(read(searched.as_object().unwrap()).declared.is_some());
        body["input"]
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "function_call",
            "call_id": "c", "name": "mmconform_tool_media", "arguments": "{}"}));
        assert!(read(body.as_object().unwrap()).called);
    }
}
