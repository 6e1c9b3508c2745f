//! The streamable-HTTP form, on loopback (`mmconform mcp-server --http 127.0.0.1:0`),
//! for agents configured with a URL: the SDK's streamable-HTTP service at `/mcp`, behind
//! one layer of our own that logs every message posted and answers a request sent
//! without a session before `initialize` (`server/discover`) with -32601, as the stdio
//! form does.

use super::ToolMedia;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

/// The path the server answers at.
pub const PATH: &str = "/mcp";

/// Largest body read.
const MAX_BODY: usize = 4 * 1024 * 1024;

/// A bound listener: its URL, and the future that serves until `stop` resolves.
pub struct Bound {
    pub url: String,
    pub serving: futures_util::future::BoxFuture<'static, std::io::Result<()>>,
}

/// Binds `listen` (a loopback address unless `allow_non_loopback`) and returns the
/// server, not yet serving.
pub async fn bind(
    handler: ToolMedia,
    listen: SocketAddr,
    allow_non_loopback: bool,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<Bound, String> {
    if !listen.ip().is_loopback() && !allow_non_loopback {
        return Err(format!(
            "{listen} is not a loopback address: the MCP server answers anyone who reaches it"
        ));
    }
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("the MCP server cannot listen on {listen}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("the MCP server cannot read its address: {e}"))?;
    let mut config = StreamableHttpServerConfig::default();
    config.allowed_hosts.push(addr.to_string());
    let factory = {
        let handler = handler.clone();
        move || Ok(handler.clone())
    };
    let service =
        StreamableHttpService::new(factory, Arc::new(LocalSessionManager::default()), config);
    let app = axum::Router::new()
        .nest_service(PATH, service)
        .layer(axum::middleware::from_fn_with_state(handler, front));
    use futures_util::FutureExt as _;
    let serving = async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(stop)
            .await
    }
    .boxed();
    Ok(Bound {
        url: format!("http://{addr}{PATH}"),
        serving,
    })
}

/// Logs a posted message and answers what is sent before a session exists.
async fn front(State(handler): State<ToolMedia>, request: Request, next: Next) -> Response {
    if request.method() != axum::http::Method::POST {
        return next.run(request).await;
    }
    let has_session = request.headers().contains_key("mcp-session-id");
    let (parts, body) = request.into_parts();
    let bytes: Bytes = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(bytes) => bytes,
        Err(_) => return (StatusCode::PAYLOAD_TOO_LARGE, "body over 4 MiB").into_response(),
    };
    let value = mmconform_json::bounded::parse(&bytes).unwrap_or(Value::Null);
    let messages = match &value {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    for message in &messages {
        handler.log(&super::received(message));
    }
    if let [message] = messages.as_slice() {
        let method = message.get("method").and_then(Value::as_str).unwrap_or("");
        let id = message.get("id").cloned();
        // A 2026-07-28 client names its version in every request's `_meta` instead of
        // opening a session; `server/discover` is answered as a 2025 server does.
        let stateless = message.pointer("/params/_meta").is_some();
        let early = !has_session && !stateless && !matches!(method, "" | "initialize" | "ping");
        if let Some(id) = id
            && (early || method == "server/discover")
        {
            let answer = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601,
                "message": format!("{method}: method not found (send initialize first)")}});
            handler.log(&super::sent(&answer));
            return (
                [(header::CONTENT_TYPE, "application/json")],
                answer.to_string(),
            )
                .into_response();
        }
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}
