//! HTTP wiring of the reference agent: the run endpoint, the media it serves for url
//! sources, and JSON 404s.

use super::events::{events, sse_body};
use super::forward;
use super::input::{self, SchemaError};
use super::model::{self, Verdict};
use super::{AGENT_PATH, AgentConfig, AguiFault, MEDIA_PATH};
use crate::auth::presented_bearer;
use crate::body_limit::{BodyError, DEFAULT_CAP, read_capped};
use crate::media_files::media_file;
use crate::upstream::Upstream;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};
use std::sync::Arc;

/// The agent's configuration, and the model it forwards to when it has one.
struct Agent {
    config: AgentConfig,
    upstream: Option<Upstream>,
}

type Shared = Arc<Agent>;

/// The reference agent as an axum router (no listener; see `spawn`).
pub fn router(config: AgentConfig) -> Router {
    Router::new()
        .route(AGENT_PATH, post(run))
        .route(&format!("{MEDIA_PATH}/{{name}}"), get(media))
        .fallback(not_found)
        .layer(DefaultBodyLimit::disable())
        .with_state(Arc::new(Agent {
            upstream: config
                .upstream
                .as_ref()
                .map(|url| Upstream::over(url, config.upstream_wire)),
            config,
        }))
}

/// A FastAPI-style error body (`{"detail": ...}`), as the servers AG-UI is mostly
/// served from answer.
fn detail(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({"detail": message}))).into_response()
}

fn schema_error(config: &AgentConfig, error: SchemaError) -> Response {
    if config.fault == Some(AguiFault::CrashOnMalformed) {
        // What an unhandled validation exception looks like from outside.
        return detail(StatusCode::INTERNAL_SERVER_ERROR, "Internal Server Error");
    }
    detail(StatusCode::UNPROCESSABLE_ENTITY, &error.0)
}

/// The bearer check: nothing when no token is configured or the right one is
/// presented; otherwise the 401 a FastAPI `HTTPBearer` dependency answers. The token is
/// never echoed.
fn unauthorized(config: &AgentConfig, headers: &HeaderMap) -> Option<Response> {
    let expected = config.token.as_deref()?;
    if config.fault == Some(AguiFault::IgnoresAuth) || presented_bearer(headers) == Some(expected) {
        return None;
    }
    let mut refused = detail(StatusCode::UNAUTHORIZED, "Not authenticated");
    refused
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    Some(refused)
}

async fn run(State(agent): State<Shared>, headers: HeaderMap, body: Body) -> Response {
    let config = &agent.config;
    if let Some(refused) = unauthorized(config, &headers) {
        return refused;
    }
    let bytes = match read_capped(body, DEFAULT_CAP).await {
        Ok(b) => b,
        Err(BodyError::TooLarge { cap }) => {
            return detail(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("body over {cap} bytes"),
            );
        }
        Err(BodyError::Transport(why)) => return detail(StatusCode::BAD_REQUEST, &why),
    };
    let Ok(value) = serde_json::from_slice::<Value>(&bytes) else {
        return detail(StatusCode::BAD_REQUEST, "the body is not JSON");
    };
    let messages = match input::read(&value, config.fault) {
        Ok(messages) => messages,
        Err(e) => return schema_error(config, e),
    };
    let (verdict, reply) = match &agent.upstream {
        Some(upstream) => forward::run(config, upstream, &messages).await,
        None => (model::run(config, &messages.concat()), None),
    };
    if let Verdict::Crash(_) = verdict {
        return detail(StatusCode::INTERNAL_SERVER_ERROR, "Internal Server Error");
    }
    let id = |key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let body = sse_body(&events(
        &id("threadId"),
        &id("runId"),
        &verdict,
        config.fault,
        reply.as_deref(),
    ));
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /media/<kind>.<ext>`: the files `--media-base-url` points at for the reference
/// agent, so a url part names something real (the agent itself never fetches).
async fn media(Path(name): Path<String>) -> Response {
    match media_file(&name) {
        Some((mime, bytes)) => ([(header::CONTENT_TYPE, mime)], bytes).into_response(),
        None => detail(StatusCode::NOT_FOUND, "no such media"),
    }
}

async fn not_found() -> Response {
    detail(StatusCode::NOT_FOUND, "Not Found")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agui::spawn;

    async fn post(base: &str, body: Value) -> (u16, String) {
        let r = crate::test_support::client()
            .post(format!("{base}{AGENT_PATH}"))
            .json(&body)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }

    /// A complete RunAgentInput with one user message.
    fn input(content: Value) -> Value {
        json!({"threadId": "t", "runId": "r", "state": {}, "forwardedProps": {},
               "tools": [], "context": [],
               "messages": [{"id": "m", "role": "user", "content": content}]})
    }

    #[tokio::test]
    async fn answers_streams_422s_and_media() {
        let running = spawn(AgentConfig::default(), "127.0.0.1:0".parse().unwrap())
            .await
            .unwrap();
        let base = running.base_url();
        let (status, body) = post(&base, input(json!("hello"))).await;
        assert_eq!(status, 200);
        assert!(
            body.starts_with("data: {\"type\":\"RUN_STARTED\""),
            "{body}"
        );
        assert!(
            body.contains("mmconform.echo") && body.contains("RUN_FINISHED"),
            "{body}"
        );
        let (status, body) = post(&base, input(json!([{"type": "hologram"}]))).await;
        assert_eq!(status, 422, "{body}");
        assert!(body.contains("hologram"), "{body}");
        let (status, _) = post(&base, json!("not an input")).await;
        assert_eq!(status, 422);
        let r = reqwest::get(format!("{base}{MEDIA_PATH}/image.png"))
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        assert!(r.bytes().await.unwrap().starts_with(b"\x89PNG"));
        for missing in ["image.exe", "image.wav", "video.mp4x", "image"] {
            let r = reqwest::get(format!("{base}{MEDIA_PATH}/{missing}"))
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 404, "{missing}");
        }
        for (name, magic) in [("audio.wav", &b"RIFF"[..]), ("document.pdf", b"%PDF")] {
            let r = reqwest::get(format!("{base}{MEDIA_PATH}/{name}"))
                .await
                .unwrap();
            assert!(r.bytes().await.unwrap().starts_with(magic), "{name}");
        }
        running.shutdown().await;
    }

    #[tokio::test]
    async fn a_configured_token_is_required_unless_the_fault_ignores_it() {
        let token = Some("t0k".to_string());
        for (fault, open) in [(None, false), (Some(AguiFault::IgnoresAuth), true)] {
            let config = AgentConfig {
                fault,
                ..AgentConfig::default().with_token(token.clone())
            };
            let running = spawn(config, "127.0.0.1:0".parse().unwrap()).await.unwrap();
            let base = running.base_url();
            let (status, body) = post(&base, input(json!("hello"))).await;
            assert_eq!(status == 200, open, "{fault:?}: {status} {body}");
            if !open {
                assert_eq!(status, 401);
                assert!(!body.contains("t0k"), "{body}");
            }
            let r = crate::test_support::client()
                .post(format!("{base}{AGENT_PATH}"))
                .bearer_auth("t0k")
                .json(&input(json!("hello")))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 200);
            running.shutdown().await;
        }
    }

    #[tokio::test]
    async fn crash_faults_answer_500() {
        let config = AgentConfig {
            fault: Some(AguiFault::CrashOnMalformed),
            ..AgentConfig::default()
        };
        let running = spawn(config, "127.0.0.1:0".parse().unwrap()).await.unwrap();
        let (status, _) = post(&running.base_url(), input(json!(42))).await;
        assert_eq!(status, 500);
        running.shutdown().await;
    }
}
