//! What a Chat Completions request says about the tool-media tool
//! (`crate::witness::tools`): `tools[].function.name` declares it, a `user` message's
//! text may carry the directive, and an `assistant` message's
//! `tool_calls[].function.name` says the history already called it.

use crate::witness::tools::ToolTurn;
use serde_json::{Map, Value};

pub fn read(object: &Map<String, Value>) -> ToolTurn {
    let mut turn = ToolTurn::default();
    let name = |v: &Value| {
        v.pointer("/function/name")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    for tool in array(object.get("tools")) {
        if let Some(n) = name(tool) {
            turn.declare(&n);
        }
    }
    for message in array(object.get("messages")) {
        match message.get("role").and_then(Value::as_str) {
            Some("user") => match message.get("content") {
                Some(Value::String(text)) => turn.read_user_text(text),
                Some(Value::Array(parts)) => parts
                    .iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .for_each(|text| turn.read_user_text(text)),
                _ => {}
            },
            Some("assistant") => {
                for call in array(message.get("tool_calls")) {
                    if let Some(n) = name(call) {
                        turn.saw_call(&n);
                    }
                }
            }
            _ => {}
        }
    }
    turn
}

fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_declaration_the_directive_and_the_history() {
        let body = json!({
            "tools": [{"type": "function", "function": {"name": "mcp__mmconform__mmconform_tool_media"}}],
            "messages": [
                {"role": "system", "content": "[mmconform tool-media case=sys medium=png]"},
                {"role": "user", "content": [{"type": "text", "text": "go [mmconform tool-media case=a-c1 medium=wav]"}]},
            ]
        });
        let turn = read(body.as_object().unwrap());
        assert_eq!(
            turn.declared.as_deref(),
            Some("mcp__mmconform__mmconform_tool_media")
        );
        assert_eq!(
            turn.directive.as_ref().map(|d| d.medium.as_str()),
            Some("wav")
        );
        assert!(!turn.called);
        let mut body = body;
        body["messages"].as_array_mut().unwrap().push(json!({"role": "assistant", "content": null,
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "mcp__mmconform__mmconform_tool_media", "arguments": "{}"}}]}));
        assert!(read(body.as_object().unwrap()).called);
    }
}
