//! The requests of one interface: a send's `SendMessageRequest` (1.0 §3.2.1; 0.3
//! `MessageSendParams`) built around the scenario's parts, wrapped as the binding
//! wants (JSON-RPC 2.0 §9.3, or the HTTP+JSON body §11.4), at the path and with the
//! `A2A-Version` header (§3.6.1: `1.0`; 0.3 clients send none) of its version.
//!
//! A scenario body names only what a case is about: `parts` (the message's parts),
//! and optionally `configuration`, `metadata`, `message` (more message fields) and
//! `a2aVersion` (the header to send instead of the interface's; empty: none).

use super::interface::{Binding, Interface, Version};
use crate::http::HttpRequest;
use serde_json::{Map, Value, json};

/// The operations a case uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Send,
    Stream,
    GetTask,
}

/// The JSON-RPC method of `op` in `version` (§5.3; 0.3 §3.5.6).
pub fn method(version: Version, op: Operation) -> &'static str {
    match (version, op) {
        (Version::V1, Operation::Send) => "SendMessage",
        (Version::V1, Operation::Stream) => "SendStreamingMessage",
        (Version::V1, Operation::GetTask) => "GetTask",
        (Version::V03, Operation::Send) => "message/send",
        (Version::V03, Operation::Stream) => "message/stream",
        (Version::V03, Operation::GetTask) => "tasks/get",
    }
}

/// The user's role in `version` (§5.5: enum names at 1.0).
pub fn user_role(version: Version) -> &'static str {
    match version {
        Version::V1 => "ROLE_USER",
        Version::V03 => "user",
    }
}

/// The `A2A-Version` a request of `version` carries (0.3: none, §3.6.2).
pub fn version_header(version: Version) -> Option<&'static str> {
    match version {
        Version::V1 => Some("1.0"),
        Version::V03 => None,
    }
}

/// A send's params from the rendered scenario body, and the `A2A-Version` to send.
pub fn send_params(body: Value, interface: &Interface, uid: &str) -> (Value, Option<String>) {
    let version = interface.version;
    let mut given = match body {
        Value::Object(map) => map,
        other => {
            let mut map = Map::new();
            map.insert("parts".into(), other);
            map
        }
    };
    let header = match given.remove("a2aVersion") {
        Some(Value::String(v)) if v.is_empty() => None,
        Some(Value::String(v)) => Some(v),
        _ => version_header(version).map(str::to_string),
    };
    let mut message = Map::new();
    if version == Version::V03 {
        message.insert("kind".into(), json!("message"));
    }
    message.insert("messageId".into(), json!(format!("mmconform-{uid}")));
    message.insert("role".into(), json!(user_role(version)));
    message.insert(
        "parts".into(),
        given.remove("parts").unwrap_or_else(|| json!([])),
    );
    if let Some(Value::Object(extra)) = given.remove("message") {
        message.extend(extra);
    }
    let mut params = Map::new();
    if let (Version::V1, Some(tenant)) = (version, &interface.tenant) {
        params.insert("tenant".into(), json!(tenant));
    }
    params.insert("message".into(), Value::Object(message));
    params.extend(given);
    (Value::Object(params), header)
}

/// The HTTP request of `op` on `interface`: a JSON-RPC call (`id` is the case's uid)
/// or the HTTP+JSON operation.
pub fn http_request(
    interface: &Interface,
    op: Operation,
    params: Value,
    header: Option<&str>,
    auth: bool,
    id: &str,
    purpose: &str,
) -> HttpRequest {
    let version = interface.version;
    let mut headers: Vec<(String, String)> = header
        .map(|v| vec![("A2A-Version".to_string(), v.to_string())])
        .unwrap_or_default();
    if op == Operation::Stream {
        headers.push(("Accept".into(), "text/event-stream".into()));
    }
    let (method, path, body) = match interface.binding {
        Binding::JsonRpc => (
            reqwest::Method::POST,
            interface.path.clone(),
            Some(
                json!({"jsonrpc": "2.0", "id": id, "method": method(version, op), "params": params}),
            ),
        ),
        Binding::HttpJson => {
            let prefix = match version {
                Version::V1 => "",
                Version::V03 => "/v1",
            };
            match op {
                Operation::GetTask => {
                    let task = params.get("id").and_then(Value::as_str).unwrap_or_default();
                    let encoded = path_segment(task);
                    (
                        reqwest::Method::GET,
                        format!("{}{prefix}/tasks/{encoded}", interface.path),
                        None,
                    )
                }
                Operation::Send => (
                    reqwest::Method::POST,
                    format!("{}{prefix}/message:send", interface.path),
                    Some(params),
                ),
                Operation::Stream => (
                    reqwest::Method::POST,
                    format!("{}{prefix}/message:stream", interface.path),
                    Some(params),
                ),
            }
        }
    };
    HttpRequest {
        method,
        path,
        headers,
        body,
        auth,
        purpose: purpose.to_string(),
    }
}

/// `segment` percent-encoded for a URL path (RFC 3986 unreserved characters kept).
fn path_segment(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interface(binding: Binding, version: Version) -> Interface {
        Interface {
            binding,
            version,
            url: "http://h/a2a".into(),
            path: "/a2a".into(),
            tenant: Some("t".into()),
        }
    }

    #[test]
    fn a_send_is_built_in_the_interfaces_version() {
        let body = json!({"parts": [{"text": "hi"}], "configuration": {"returnImmediately": true}});
        let (params, header) = send_params(body, &interface(Binding::JsonRpc, Version::V1), "n-1");
        assert_eq!(header.as_deref(), Some("1.0"));
        assert_eq!(params["tenant"], "t");
        assert_eq!(params["message"]["role"], "ROLE_USER");
        assert_eq!(params["message"]["messageId"], "mmconform-n-1");
        assert_eq!(params["configuration"]["returnImmediately"], true);
        let (params, header) = send_params(
            json!({"parts": [], "a2aVersion": "99.0"}),
            &interface(Binding::JsonRpc, Version::V03),
            "n",
        );
        assert_eq!(header.as_deref(), Some("99.0"));
        assert_eq!(params["message"]["kind"], "message");
        assert!(params.get("tenant").is_none());
        let (_, none) = send_params(
            json!({"parts": []}),
            &interface(Binding::JsonRpc, Version::V03),
            "n",
        );
        assert_eq!(none, None);
    }

    #[test]
    fn bindings_wrap_and_route_the_operation() {
        let rpc = http_request(
            &interface(Binding::JsonRpc, Version::V1),
            Operation::Stream,
            json!({}),
            Some("1.0"),
            true,
            "i",
            "p",
        );
        assert_eq!(rpc.path, "/a2a");
        assert_eq!(rpc.body.as_ref().unwrap()["method"], "SendStreamingMessage");
        assert!(rpc.headers.contains(&("A2A-Version".into(), "1.0".into())));
        let rest = http_request(
            &interface(Binding::HttpJson, Version::V03),
            Operation::GetTask,
            json!({"id": "t 1"}),
            None,
            true,
            "i",
            "p",
        );
        assert_eq!(
            (rest.method.as_str(), rest.path.as_str()),
            ("GET", "/a2a/v1/tasks/t%201")
        );
        assert!(rest.body.is_none());
    }
}
