//! What a Messages request says about the tool-media tool (`crate::witness::tools`):
//! `tools[].name` declares it (a deferred tool, `defer_loading: true`, too: it is called
//! by name all the same), a `user` message's text may carry the directive, and an
//! `assistant` message's `tool_use` block says the history already called it.

use crate::witness::tools::ToolTurn;
use serde_json::{Map, Value};

pub fn read(object: &Map<String, Value>) -> ToolTurn {
    let mut turn = ToolTurn::default();
    for tool in array(object.get("tools")) {
        if let Some(name) = tool.get("name").and_then(Value::as_str) {
            turn.declare(name);
        }
    }
    for message in array(object.get("messages")) {
        let role = message.get("role").and_then(Value::as_str);
        let blocks = match message.get("content") {
            Some(Value::String(text)) if role == Some("user") => {
                turn.read_user_text(text);
                continue;
            }
            Some(Value::Array(blocks)) => blocks,
            _ => continue,
        };
        for block in blocks {
            let kind = block.get("type").and_then(Value::as_str);
            match (role, kind) {
                (Some("user"), Some("text")) => {
                    if let Some(text) = block.get("text").and_then(Value::as_str) {
                        turn.read_user_text(text);
                    }
                }
                (Some("assistant"), Some("tool_use")) => {
                    if let Some(name) = block.get("name").and_then(Value::as_str) {
                        turn.saw_call(name);
                    }
                }
                _ => {}
            }
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
        let name = "mcp__mmconform__mmconform_tool_media";
        let mut body = json!({
            "tools": [{"name": "ToolSearch"}, {"name": name, "defer_loading": true, "input_schema": {}}],
            "messages": [{"role": "user", "content": [
                {"type": "text", "text": "[mmconform tool-media case=a-c1 medium=png]"}]}]
        });
        let turn = read(body.as_object().unwrap());
        assert_eq!(turn.declared.as_deref(), Some(name));
        assert_eq!(
            turn.directive.as_ref().map(|d| d.case.as_str()),
            Some("a-c1")
        );
        assert!(!turn.called);
        body["messages"]
            .as_array_mut()
            .unwrap()
            .push(json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "t", "name": name, "input": {}}]}));
        assert!(read(body.as_object().unwrap()).called);
    }
}
