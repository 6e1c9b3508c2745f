//! Wrapping a scenario body into a complete AG-UI `RunAgentInput`.
//!
//! Scenario files write only what a case is about (`messages`); the profile adds the
//! rest of the envelope, always: 0.x servers require `tools`, `context` and
//! `forwardedProps` (docs/wire.md, "Runs"), and a fresh `threadId`/`runId` per case keeps one
//! case's run from being mistaken for another's by a server that keeps thread state.

use serde_json::{Map, Value, json};

/// The envelope fields in the order they are sent, with their defaults.
fn defaults(uid: &str) -> [(&'static str, Value); 7] {
    [
        ("threadId", json!(format!("mmconform-thread-{uid}"))),
        ("runId", json!(format!("mmconform-run-{uid}"))),
        ("messages", json!([])),
        ("tools", json!([])),
        ("context", json!([])),
        ("state", json!({})),
        ("forwardedProps", json!({})),
    ]
}

/// The protocol version mmconform speaks.
pub const PROTOCOL_VERSION: &str = "1.0";

/// `body` completed into a `RunAgentInput`: missing envelope fields get their defaults
/// (a field the scenario sets is kept as written), and every message object without an
/// `id` gets one (AG-UI messages carry ids). A body that is not an object is sent as is.
pub fn run_input(body: Value, uid: &str) -> Value {
    let Value::Object(mut given) = body else {
        return body;
    };
    let mut out = Map::new();
    for (key, default) in defaults(uid) {
        out.insert(key.to_string(), given.remove(key).unwrap_or(default));
    }
    out.insert(
        "protocolVersion".into(),
        given
            .remove("protocolVersion")
            .unwrap_or_else(|| json!(PROTOCOL_VERSION)),
    );
    out.extend(given);
    if let Some(Value::Array(messages)) = out.get_mut("messages") {
        for (i, message) in messages.iter_mut().enumerate() {
            if let Value::Object(m) = message
                && !m.contains_key("id")
            {
                let mut with_id = Map::new();
                with_id.insert("id".into(), json!(format!("mmconform-msg-{uid}-{i}")));
                with_id.extend(std::mem::take(m));
                *m = with_id;
            }
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_the_envelope_and_message_ids_in_order() {
        let body = json!({"messages": [{"role": "user", "content": "hi"}, {"id": "m", "role": "user", "content": "x"}]});
        let input = run_input(body, "n-3");
        let keys: Vec<&String> = input.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "threadId",
                "runId",
                "messages",
                "tools",
                "context",
                "state",
                "forwardedProps",
                "protocolVersion"
            ]
        );
        assert_eq!(input["threadId"], "mmconform-thread-n-3");
        assert_eq!(input["runId"], "mmconform-run-n-3");
        assert_eq!(input["protocolVersion"], "1.0");
        assert_eq!(input["messages"][0]["id"], "mmconform-msg-n-3-0");
        assert_eq!(input["messages"][1]["id"], "m");
        assert_eq!(input["tools"], json!([]));
    }

    #[test]
    fn fields_the_scenario_sets_are_kept() {
        let input = run_input(
            json!({"tools": [{"name": "t"}], "extra": 1, "messages": []}),
            "u",
        );
        assert_eq!(input["tools"], json!([{"name": "t"}]));
        assert_eq!(input["extra"], 1);
        assert_eq!(run_input(json!(42), "u"), json!(42));
    }
}
