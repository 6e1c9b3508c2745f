//! The shapes the OpenAI-compatible reference server is calibrated in: one model and
//! one declaration each. The server's two models are all a shape can serve, so the
//! declarations are chosen to match them: every kind the multimodal model takes
//! (the positives, the malformations, streaming, http and file_id sources), nothing on
//! the text-only model (every capability refusal), and the multimodal model declared
//! with data sources only and no streaming, as `--accepts` declares it. The Responses
//! door is calibrated in four shapes of its own, and the Chat door once more with the
//! server translating into Responses calls to the witness.

use super::FORMS;
use crate::config::EmbeddedClaims;
use crate::protocol::options::Origin;
use crate::reference::shape::{Shape, ShapeHost, Started, calibration_token, embedded_run};
use futures_util::future::BoxFuture;
use reference_hosts::openai::{
    self, IMAGE_MIMES, MULTIMODAL_MODEL, OpenaiConfig, OpenaiFault, REFERENCE_FILE_ID,
    REFERENCE_IMAGE_ID, TEXT_MODEL,
};
use reference_hosts::{HostFault, UpstreamWire};
use std::sync::Arc;

/// How a shape declares the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Declared {
    /// Everything the multimodal model takes, every source, detail, streaming.
    Full,
    /// Nothing: a text-only model (no `--accepts`, no `--claims`).
    Nothing,
    /// The multimodal model's types, as `--accepts` says them: data sources only, no
    /// detail claimed, streaming not offered.
    DataOnly,
}

#[derive(Debug, Clone)]
struct ServerShape {
    model: &'static str,
    declared: Declared,
    /// The run knocks at the Responses door (`--profile openai-responses`), not Chat's.
    responses: bool,
}

/// A shape of the Chat door (`responses` false) or the Responses door.
fn door(
    name: &'static str,
    summary: &'static str,
    model: &'static str,
    declared: Declared,
    responses: bool,
) -> Shape {
    let form = &FORMS[usize::from(responses)];
    let shape = ServerShape {
        model,
        declared,
        responses,
    };
    Shape::new(name, summary, "openai", form.profile, Arc::new(shape)).at_door(form.door)
}

/// Every shape of the server, in the order the matrix lists them.
pub fn shapes() -> Vec<Shape> {
    use Declared::*;
    vec![
        door(
            "openai-multimodal",
            "OpenAI server, reference-multimodal declared in full (what `--profile openai --target reference` judges), a token, its media for the http sources",
            MULTIMODAL_MODEL,
            Full,
            false,
        )
        .with_schema_mutants(),
        door(
            "openai-witness",
            "openai-multimodal, the server forwarding each accepted call to a witness (a gateway; run --witness)",
            MULTIMODAL_MODEL,
            Full,
            false,
        )
        .witnessed(),
        door(
            "openai-text-only",
            "OpenAI server, reference-text with no declaration (a text-only model)",
            TEXT_MODEL,
            Nothing,
            false,
        )
        .with_schema_mutants(),
        door(
            "openai-text-witness",
            "openai-text-only, the server forwarding each accepted call to a witness (refusals must not reach it)",
            TEXT_MODEL,
            Nothing,
            false,
        )
        .witnessed(),
        door(
            "openai-data-only",
            "OpenAI server, reference-multimodal declared with data sources only, no streaming",
            MULTIMODAL_MODEL,
            DataOnly,
            false,
        ),
        door(
            "responses-multimodal",
            "OpenAI server's Responses door, reference-multimodal declared in full (what `--profile openai-responses --target reference` judges)",
            MULTIMODAL_MODEL,
            Full,
            true,
        ),
        door(
            "responses-witness",
            "responses-multimodal, the server forwarding each accepted call to a witness (run --witness)",
            MULTIMODAL_MODEL,
            Full,
            true,
        )
        .witnessed(),
        door(
            "responses-text-only",
            "OpenAI server's Responses door, reference-text with no declaration",
            TEXT_MODEL,
            Nothing,
            true,
        ),
        door(
            "responses-text-witness",
            "responses-text-only, the server forwarding each accepted call to a witness",
            TEXT_MODEL,
            Nothing,
            true,
        )
        .witnessed(),
        door(
            "openai-responses-witness",
            "openai-witness, the server translating Chat into Responses calls to the witness (forwarding faults only)",
            MULTIMODAL_MODEL,
            Full,
            false,
        )
        .witnessed_over(UpstreamWire::Responses),
    ]
}

fn full_accepts() -> Vec<String> {
    IMAGE_MIMES
        .iter()
        .chain(&["audio/wav", "audio/mpeg", "application/pdf"])
        .map(|m| m.to_string())
        .collect()
}

impl ServerShape {
    fn claims(&self) -> Option<EmbeddedClaims> {
        let (sources, detail, streaming, by): (&[&str], bool, bool, &str) = match self.declared {
            Declared::Nothing => return None,
            Declared::Full => (
                &["data", "http", "file_id"],
                true,
                true,
                "calibration (full)",
            ),
            Declared::DataOnly => (&["data"], false, false, "calibration (data only)"),
        };
        Some(EmbeddedClaims {
            accepts: full_accepts(),
            sources: sources.iter().map(|s| s.to_string()).collect(),
            echo: false,
            detail,
            streaming,
            by: by.to_string(),
        })
    }
}

impl ShapeHost for ServerShape {
    /// Starts the server serving this shape's model, broken by `fault`, forwarding to
    /// `upstream` when given, and the run pointed at its API base.
    fn start<'a>(
        &'a self,
        fault: Option<&'static dyn HostFault>,
        upstream: Option<url::Url>,
        upstream_wire: UpstreamWire,
    ) -> BoxFuture<'a, Result<Started, String>> {
        Box::pin(async move {
            let fault = crate::reference::own_fault::<OpenaiFault>(fault)?;
            let full = self.declared == Declared::Full;
            let token = full.then(calibration_token);
            let server = OpenaiConfig {
                token: token.as_ref().map(|t| t.value.clone()),
                upstream,
                upstream_wire,
                ..OpenaiConfig::new(fault).with_models(&[self.model.to_string()])?
            };
            let running = openai::spawn(server, crate::reference::loopback())
                .await
                .map_err(|e| format!("cannot start the OpenAI reference server: {e}"))?;
            let base = openai::base_url(&running);
            let mut config = embedded_run(&base, format!("reference server ({base})"))?;
            config.options.set(
                crate::protocol::door::MODEL,
                self.model,
                Origin::Calibration,
            );
            config.claims.embedded = self.claims();
            config.token = token;
            if full {
                config.media_base_url = Some(openai::media_base_url(&running));
                config
                    .media_refs
                    .insert("file".into(), REFERENCE_FILE_ID.to_string());
                if self.responses {
                    config
                        .media_refs
                        .insert("image".into(), REFERENCE_IMAGE_ID.to_string());
                }
            }
            Ok(Started {
                reference: Some(running),
                config,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::CHAT_DOOR;
    use super::*;
    use reference_hosts::openai::RESPONSES_DOOR;

    #[tokio::test]
    async fn shapes_serve_their_model_with_their_declaration_and_fault() {
        let all = shapes();
        let text = all.iter().find(|s| s.name == "openai-text-only").unwrap();
        assert_eq!((text.profile, text.door), ("openai", CHAT_DOOR));
        let full = all.iter().find(|s| s.name == "openai-multimodal").unwrap();
        assert!(!full.witness);
        assert!(all.iter().any(|s| s.name == "openai-witness" && s.witness));
        let responses = all.iter().find(|s| s.name == "responses-witness").unwrap();
        assert_eq!(
            (responses.profile, responses.door),
            ("openai-responses", RESPONSES_DOOR)
        );
        let fault: &'static dyn HostFault = OpenaiFault::all()
            .iter()
            .find(|f| **f == OpenaiFault::StreamWithoutDone)
            .unwrap();
        let started = full
            .start
            .start(Some(fault), None, UpstreamWire::Chat)
            .await
            .unwrap();
        let config = started.config;
        assert_eq!(
            crate::protocol::door::model(&config.options),
            Some(MULTIMODAL_MODEL)
        );
        assert!(config.token.is_some() && config.media_base_url.is_some());
        assert_eq!(
            config.claims.embedded.as_ref().unwrap().sources,
            ["data", "http", "file_id"]
        );
        assert!(
            config
                .target_label
                .as_deref()
                .is_some_and(|l| l.ends_with("/v1)")),
            "{:?}",
            config.target_label
        );
        started.reference.unwrap().shutdown().await;
    }
}
