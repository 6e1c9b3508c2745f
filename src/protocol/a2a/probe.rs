//! Are the interfaces there? Once per interface the runnable cases send to, one call
//! that reaches no model (JSON-RPC: GetTask for a task that cannot exist, any JSON-RPC
//! answer meaning the endpoint is there; HTTP+JSON: a send without a message, anything
//! but a 404 or 405 meaning the route is there). An interface that is not there blocks its cases; a
//! card that names no interface mmconform speaks (gRPC only, say) blocks them all,
//! with why, and never passes.

use super::classify::send_answer;
use super::interface::{Binding, Interface};
use super::request::{Operation, http_request, version_header};
use crate::http::HttpClient;
use crate::outcome::Outcome;
use crate::protocol::Probed;
use serde_json::json;

/// Why the interface cannot take the cases, when it cannot.
pub async fn probe_interface(
    client: &HttpClient,
    interface: &Interface,
    nonce: &str,
) -> Option<String> {
    // JSON-RPC: GetTask for a task that cannot exist. HTTP+JSON: a send without a
    // message (`{}`), which an agent refuses before anything reaches a model, and whose
    // route answers 404 or 405 only when it is not there (a GET of an unknown task
    // answers 404 either way).
    let (op, params) = match interface.binding {
        Binding::JsonRpc => (
            Operation::GetTask,
            json!({"id": format!("mmconform-probe-{nonce}")}),
        ),
        Binding::HttpJson => (Operation::Send, json!({})),
    };
    let request = http_request(
        interface,
        op,
        params,
        version_header(interface.version),
        true,
        &format!("{nonce}-probe"),
        &format!("probe {}", interface.describe()),
    );
    let url = client.url(&request.path);
    let verb = request.method.to_string();
    let response = match client.send(&request).await.1 {
        Ok(r) => r,
        Err(e) => return Some(format!("{verb} {url} got no answer: {e}")),
    };
    let reading = send_answer(
        interface.binding,
        interface.version,
        response.status,
        &response.body,
    );
    let missing = match (interface.binding, response.status) {
        (_, 405) | (Binding::HttpJson, 404) => true,
        (Binding::JsonRpc, 404) => reading.error.as_ref().is_none_or(|e| e.code.is_none()),
        _ => false,
    };
    missing.then(|| {
        format!(
            "{verb} {url} answered {}: no {} endpoint there (is the card's interface URL right?)",
            response.status,
            interface.binding.name()
        )
    })
}

/// Blocks `endpoints` (all of them) with `reason`.
pub fn block_all(probed: &mut Probed, endpoints: impl Iterator<Item = String>, reason: &str) {
    for endpoint in endpoints {
        probed
            .unusable
            .insert(endpoint, (Outcome::Blocked, reason.to_string()));
    }
}
