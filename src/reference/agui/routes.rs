//! HTTP wiring of the reference agent: the run endpoint, the media it serves for url
//! sources, and JSON 404s.

use super::events::{events, sse_body};
use super::input::{self, SchemaError};
use super::model::{self, Verdict};
use super::{AGENT_PATH, AgentConfig, AguiFault, MEDIA_PATH};
use crate::reference::body_limit::{BodyError, DEFAULT_CAP, read_capped};
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};
use std::sync::Arc;

type Shared = Arc<AgentConfig>;

/// The reference agent as an axum router (no listener; see `spawn`).
pub fn router(config: AgentConfig) -> Router {
    Router::new()
        .route(AGENT_PATH, post(run))
        .route(&format!("{MEDIA_PATH}/{{name}}"), get(media))
        .fallback(not_found)
        .layer(DefaultBodyLimit::disable())
        .with_state(Arc::new(config))
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

async fn run(State(config): State<Shared>, body: Body) -> Response {
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
    let parts = match input::read(&value, config.fault) {
        Ok(parts) => parts,
        Err(e) => return schema_error(&config, e),
    };
    let verdict = model::run(&config, &parts);
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
    let Some((kind, ext)) = name.split_once('.') else {
        return detail(StatusCode::NOT_FOUND, "no such media");
    };
    let mime = mmconform_media::supported_mimes().iter().find(|m| {
        crate::profile::agui::kind_of_mime(m) == kind
            && crate::profile::openwop::part::extension(m) == ext
    });
    match mime {
        Some(mime) => (
            [(header::CONTENT_TYPE, *mime)],
            mmconform_media::generate(mime, "reference-media"),
        )
            .into_response(),
        None => detail(StatusCode::NOT_FOUND, "no such media"),
    }
}

async fn not_found() -> Response {
    detail(StatusCode::NOT_FOUND, "Not Found")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::agui::spawn;

    async fn post(base: &str, body: Value) -> (u16, String) {
        let r = crate::reference::test_support::client()
            .post(format!("{base}{AGENT_PATH}"))
            .json(&body)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }

    fn input(content: Value) -> Value {
        crate::profile::agui::run_input::run_input(
            json!({"messages": [{"role": "user", "content": content}]}),
            "t",
        )
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
        let r = reqwest::get(format!("{base}{MEDIA_PATH}/image.exe"))
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 404);
        running.shutdown().await;
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

#[cfg(test)]
mod echo_schema_tests {
    use super::*;
    use crate::profile::agui::echo;

    /// The reference agent's echo is what `schemas/agui-echo.schema.json` documents for
    /// third parties, and what mmconform's parser reads.
    #[tokio::test]
    async fn the_reference_echo_validates_against_the_published_schema() {
        let schema: Value =
            serde_json::from_str(crate::scenario::builtin::schema("agui-echo").unwrap()).unwrap();
        let validator = jsonschema::options().build(&schema).unwrap();
        let running =
            crate::reference::agui::spawn(AgentConfig::default(), "127.0.0.1:0".parse().unwrap())
                .await
                .unwrap();
        let png = base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            mmconform_media::generate("image/png", "0123456789abcdef"),
        );
        let input = crate::profile::agui::run_input::run_input(
            json!({"messages": [{"role": "user", "content": [
                {"type": "text", "text": "x"},
                {"type": "image", "source": {"type": "data", "value": png, "mimeType": "image/png"}},
                {"type": "audio", "source": {"type": "url", "value": "http://127.0.0.1:9/a.wav"}}
            ]}]}),
            "echo",
        );
        let body = crate::reference::test_support::client()
            .post(format!("{}{AGENT_PATH}", running.base_url()))
            .json(&input)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let value: Value = body
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str::<Value>(d).ok())
            .find(|e| e["name"] == "mmconform.echo")
            .map(|e| e["value"].clone())
            .expect("an echo event");
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}\n{value}");
        let parts = echo::parse(&value).unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[1].nonce.as_deref(), Some("0123456789abcdef"));
        assert_eq!(
            (parts[2].bytes, parts[2].source.as_deref()),
            (None, Some("url"))
        );
        assert!(!validator.is_valid(&json!({"parts": [{"type": "image", "nonce": "XYZ"}]})));
        running.shutdown().await;
    }
}
