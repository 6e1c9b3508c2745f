//! The `authenticate` request, and the "gateway" authentication method some agents
//! list (Gemini CLI: `{"id": "gateway", "_meta": {"gateway": {"protocol": "google"}}}`;
//! claude-agent-acp only to a client whose `clientCapabilities.auth._meta.gateway` is
//! true, which mmconform says with `--witness`):
//! an agent that lists one takes its model's base URL in `authenticate`'s
//! `_meta.gateway.baseUrl`. When the user selects such a method (`--acp-auth`) in a
//! run with `--witness`, the base URL is the witness's, so the agent's model is the
//! witness without any environment variable. `_meta` is ACP's extension point, so the
//! shape is the agents', not the protocol's: it is read loosely and reported.

use serde_json::{Value, json};

/// A listed method that is a gateway: its id and the wire it names (`protocol`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayMethod {
    pub id: String,
    pub protocol: Option<String>,
}

/// The listed method `id`, when its `_meta` says it is a gateway.
pub fn gateway_method(initialize: &Value, id: &str) -> Option<GatewayMethod> {
    let method = initialize
        .get("authMethods")?
        .as_array()?
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(id))?;
    let gateway = method.pointer("/_meta/gateway")?;
    gateway.is_object().then(|| GatewayMethod {
        id: id.to_string(),
        protocol: gateway
            .get("protocol")
            .and_then(Value::as_str)
            .map(String::from),
    })
}

/// The witness's base URL as a gateway of `protocol` is given it: OpenAI clients take
/// the URL with its `/v1` (`http://127.0.0.1:PORT/v1`), Anthropic and Google SDKs append
/// their own version (`/v1/messages`, `/v1beta/models/...`) to the bare origin.
pub fn base_url_for(protocol: Option<&str>, witness: &str) -> String {
    match protocol {
        Some("openai") => witness.to_string(),
        _ => witness
            .trim_end_matches('/')
            .trim_end_matches("/v1")
            .to_string(),
    }
}

/// The `authenticate` params for `method`: with a witness and a gateway method, the
/// witness's base URL in `_meta.gateway.baseUrl` (and no extra headers: the witness
/// takes any key).
pub fn authenticate_params(method: &str, initialize: &Value, witness: Option<&str>) -> Value {
    match (gateway_method(initialize, method), witness) {
        (Some(gateway), Some(url)) => json!({
            "methodId": method,
            "_meta": {"gateway": {
                "baseUrl": base_url_for(gateway.protocol.as_deref(), url),
                "headers": {}
            }}
        }),
        _ => json!({"methodId": method}),
    }
}

/// What the initialize case notes about the gateway, when the selected method is one.
pub fn note(method: &str, initialize: &Value, witness: Option<&str>) -> Option<String> {
    let gateway = gateway_method(initialize, method)?;
    let wire = gateway
        .protocol
        .as_deref()
        .map_or(String::new(), |p| format!(" (protocol {p})"));
    Some(match witness {
        Some(url) => format!(
            "authenticated with the gateway method `{method}`{wire}: the agent's model base URL is the witness ({}), sent in _meta.gateway.baseUrl",
            base_url_for(gateway.protocol.as_deref(), url)
        ),
        None => format!(
            "`{method}` is a gateway method{wire}: with --witness its _meta.gateway.baseUrl would point the agent's model at the witness; without, no base URL was sent"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing() -> Value {
        json!({"protocolVersion": 1, "authMethods": [
            {"id": "gemini-api-key", "name": "Gemini API key", "_meta": {"api-key": {"provider": "google"}}},
            {"id": "gateway", "name": "AI API Gateway", "_meta": {"gateway": {"protocol": "google", "restartRequired": "false"}}}
        ]})
    }

    #[test]
    fn a_gateway_method_gets_the_witness_as_its_base_url() {
        let params = authenticate_params("gateway", &listing(), Some("http://127.0.0.1:9/v1"));
        assert_eq!(params["methodId"], "gateway");
        assert_eq!(params["_meta"]["gateway"]["baseUrl"], "http://127.0.0.1:9");
        assert_eq!(params["_meta"]["gateway"]["headers"], json!({}));
        assert_eq!(
            base_url_for(Some("openai"), "http://127.0.0.1:9/v1"),
            "http://127.0.0.1:9/v1"
        );
        assert_eq!(
            base_url_for(Some("anthropic"), "http://127.0.0.1:9/v1"),
            "http://127.0.0.1:9"
        );
        let note = note("gateway", &listing(), Some("http://127.0.0.1:9/v1")).unwrap();
        assert!(note.contains("protocol google"), "{note}");
    }

    #[test]
    fn a_client_with_a_witness_says_it_can_give_a_gateway() {
        let with = crate::protocol::acp::agent::initialize_params(true);
        assert_eq!(with["clientCapabilities"]["auth"]["_meta"]["gateway"], true);
        assert_eq!(with["clientCapabilities"]["terminal"], false);
        let without = crate::protocol::acp::agent::initialize_params(false);
        assert!(without["clientCapabilities"].get("auth").is_none());
    }

    #[test]
    fn other_methods_and_runs_without_a_witness_send_the_method_alone() {
        let key = authenticate_params("gemini-api-key", &listing(), Some("http://127.0.0.1:9"));
        assert_eq!(key, json!({"methodId": "gemini-api-key"}));
        assert!(note("gemini-api-key", &listing(), None).is_none());
        let bare = authenticate_params("gateway", &listing(), None);
        assert_eq!(bare, json!({"methodId": "gateway"}));
        assert!(gateway_method(&json!({}), "gateway").is_none());
    }
}
