//! What a Messages request says about the tool-media tool (`crate::witness::tools`):
//! `tools[].name` declares it (`defer_loading: true` marks it deferred) or a search
//! tool (`ToolSearch`); a listing of deferred tools, one name a line, may name it in
//! the `system` prompt, a `system` message or a user's text (Claude Code: "The following
//! deferred tools are now available via ToolSearch"); a `user` message's text may
//! carry the directive; an `assistant` message's `tool_use` block says the history
//! already called the tool or the search; and the search's result names what it
//! loaded, as `tool_reference` blocks or as text, in the `tool_result` answering it.

use crate::witness::tools::{ToolTurn, is_tool_search};
use serde_json::{Map, Value};

pub fn read(object: &Map<String, Value>) -> ToolTurn {
    let mut turn = ToolTurn::default();
    for tool in array(object.get("tools")) {
        if let Some(name) = tool.get("name").and_then(Value::as_str) {
            let deferred = tool.get("defer_loading").and_then(Value::as_bool) == Some(true);
            turn.declare_deferred(name, deferred);
        }
    }
    match object.get("system") {
        Some(Value::String(text)) => turn.read_listing(text),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(text_of)
            .for_each(|t| turn.read_listing(t)),
        _ => {}
    }
    let mut searches: Vec<&str> = Vec::new();
    for message in array(object.get("messages")) {
        let role = message.get("role").and_then(Value::as_str);
        let blocks = match message.get("content") {
            Some(Value::String(text)) => {
                read_text(&mut turn, role, text);
                continue;
            }
            Some(Value::Array(blocks)) => blocks,
            _ => continue,
        };
        for block in blocks {
            match (role, block.get("type").and_then(Value::as_str)) {
                (_, Some("text")) => {
                    if let Some(text) = text_of(block) {
                        read_text(&mut turn, role, text);
                    }
                }
                (Some("assistant"), Some("tool_use")) => {
                    let name = block.get("name").and_then(Value::as_str).unwrap_or("");
                    turn.saw_call(name);
                    if is_tool_search(name)
                        && let Some(id) = block.get("id").and_then(Value::as_str)
                    {
                        searches.push(id);
                    }
                }
                (Some("user"), Some("tool_result")) => read_result(&mut turn, block, &searches),
                (Some("user"), Some("tool_reference")) => read_reference(&mut turn, block),
                _ => {}
            }
        }
    }
    turn
}

/// A message's text: a user's may carry the directive; a user's or a system
/// message's may list deferred tools.
fn read_text(turn: &mut ToolTurn, role: Option<&str>, text: &str) {
    match role {
        Some("user") => {
            turn.read_user_text(text);
            turn.read_listing(text);
        }
        Some("system") => turn.read_listing(text),
        _ => {}
    }
}

/// A `tool_result`: its `tool_reference` blocks name what a search loaded; the text
/// of a result answering a search call does when it names the tool.
fn read_result(turn: &mut ToolTurn, block: &Value, searches: &[&str]) {
    let answers_search = block
        .get("tool_use_id")
        .and_then(Value::as_str)
        .is_some_and(|id| searches.contains(&id));
    match block.get("content") {
        Some(Value::String(text)) if answers_search => turn.saw_found(text),
        Some(Value::Array(inner)) => {
            for item in inner {
                match item.get("type").and_then(Value::as_str) {
                    Some("tool_reference") => read_reference(turn, item),
                    Some("text") if answers_search => {
                        if let Some(text) = text_of(item) {
                            turn.saw_found(text);
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

fn read_reference(turn: &mut ToolTurn, block: &Value) {
    if let Some(name) = block.get("tool_name").and_then(Value::as_str) {
        turn.saw_found(name);
    }
}

fn text_of(block: &Value) -> Option<&str> {
    block.get("text").and_then(Value::as_str)
}

fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
