//! Which provider an ai/call request names. With a witness (`run --witness`), the run
//! asks the host to send its model calls to the witness: ai/call requests carry
//! `provider: "compat"` (RFC 0108's self-hosted OpenAI-compatible path), or the name
//! `--witness-provider` gives (`RunConfig::model_provider`). A body that names a
//! provider already keeps it, and other seams are left alone.

use serde_json::Value;

/// `body` with `provider` set when the request goes to the ai/call seam and names none.
pub fn name_provider(endpoint: &str, body: Option<Value>, provider: Option<&str>) -> Option<Value> {
    match (endpoint, body, provider) {
        ("ai-call", Some(Value::Object(mut map)), Some(name)) => {
            map.entry("provider")
                .or_insert_with(|| Value::String(name.to_string()));
            Some(Value::Object(map))
        }
        (_, body, _) => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ai_calls_name_the_provider_only_with_one_configured() {
        let body = json!({"messages": []});
        assert_eq!(
            name_provider("ai-call", Some(body.clone()), Some("compat")),
            Some(json!({"messages": [], "provider": "compat"}))
        );
        assert_eq!(
            name_provider("ai-call", Some(body.clone()), None),
            Some(body.clone())
        );
        assert_eq!(
            name_provider("envelope-accept", Some(body.clone()), Some("compat")),
            Some(body)
        );
        let named = json!({"messages": [], "provider": "other"});
        assert_eq!(
            name_provider("ai-call", Some(named.clone()), Some("compat")),
            Some(named)
        );
        // A body that is not an object is sent as written (a shape case).
        assert_eq!(
            name_provider("ai-call", Some(json!([1])), Some("compat")),
            Some(json!([1]))
        );
    }
}
