//! What a Gemini request says about the tool-media tool (`crate::witness::tools`):
//! `tools[].functionDeclarations[].name` declares it, a `user` content's text part may
//! carry the directive, and a `model` content's `functionCall` part says the history
//! already called it.

use crate::witness::tools::ToolTurn;
use serde_json::{Map, Value};

pub fn read(object: &Map<String, Value>) -> ToolTurn {
    let mut turn = ToolTurn::default();
    for tool in array(object.get("tools")) {
        for declaration in array(tool.get("functionDeclarations")) {
            if let Some(name) = declaration.get("name").and_then(Value::as_str) {
                turn.declare(name);
            }
        }
    }
    for content in array(object.get("contents")) {
        let role = content
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("user");
        for part in array(content.get("parts")) {
            match role {
                "user" => {
                    if let Some(text) = part.get("text").and_then(Value::as_str) {
                        turn.read_user_text(text);
                    }
                }
                "model" => {
                    if let Some(name) = part.pointer("/functionCall/name").and_then(Value::as_str) {
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
        let name = "mcp_mmconform_mmconform_tool_media";
        let mut body = json!({
            "tools": [{"functionDeclarations": [{"name": name}]}],
            "contents": [{"role": "user", "parts": [{"text": "[mmconform tool-media case=a-c1 medium=png]"}]}]
        });
        let turn = read(body.as_object().unwrap());
        assert_eq!(turn.declared.as_deref(), Some(name));
        assert!(turn.directive.is_some() && !turn.called);
        body["contents"]
            .as_array_mut()
            .unwrap()
            .push(json!({"role": "model", "parts": [
            {"functionCall": {"name": name, "args": {}}}]}));
        assert!(read(body.as_object().unwrap()).called);
    }
}
