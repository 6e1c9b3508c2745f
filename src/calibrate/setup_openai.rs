//! The shapes the OpenAI-compatible reference server is calibrated in: one model and
//! one declaration each. The server's two models are all a shape can serve, so the
//! declarations are chosen to match them: every kind the multimodal model takes
//! (the positives, the malformations, streaming, http and file_id sources), nothing on
//! the text-only model (every capability refusal), and the multimodal model declared
//! with data sources only and no streaming, as `--accepts` declares it.

use super::setup::{CALIBRATION_TOKEN, embedded_run, loopback};
use super::variant::Variant;
use crate::config::{EmbeddedClaims, RunConfig, Token};
use reference_hosts::openai::{
    self, IMAGE_MIMES, MULTIMODAL_MODEL, OpenaiConfig, OpenaiFault, REFERENCE_FILE_ID,
    REFERENCE_IMAGE_ID, TEXT_MODEL,
};
use reference_hosts::{RunningReference, UpstreamWire};

/// How a shape declares the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declared {
    /// Everything the multimodal model takes, every source, detail, streaming.
    Full,
    /// Nothing: a text-only model (no `--accepts`, no `--claims`).
    Nothing,
    /// The multimodal model's types, as `--accepts` says them: data sources only, no
    /// detail claimed, streaming not offered.
    DataOnly,
}

#[derive(Debug, Clone)]
pub struct OpenaiShape {
    pub model: &'static str,
    pub declared: Declared,
    /// The run knocks at the Responses door (`--profile openai-responses`), not Chat's.
    pub responses: bool,
}

/// The openai shapes, in the order the matrix lists them, each with whether the server
/// forwards to a witness (where the forwarding faults run).
pub fn shapes() -> Vec<(&'static str, &'static str, OpenaiShape, bool)> {
    vec![
        (
            "openai-multimodal",
            "OpenAI server, reference-multimodal declared in full (what `--profile openai --target reference` judges), a token, its media for the http sources",
            OpenaiShape {
                model: MULTIMODAL_MODEL,
                declared: Declared::Full,
                responses: false,
            },
            false,
        ),
        (
            "openai-witness",
            "openai-multimodal, the server forwarding each accepted call to a witness (a gateway; run --witness)",
            OpenaiShape {
                model: MULTIMODAL_MODEL,
                declared: Declared::Full,
                responses: false,
            },
            true,
        ),
        (
            "openai-text-only",
            "OpenAI server, reference-text with no declaration (a text-only model)",
            OpenaiShape {
                model: TEXT_MODEL,
                declared: Declared::Nothing,
                responses: false,
            },
            false,
        ),
        (
            "openai-text-witness",
            "openai-text-only, the server forwarding each accepted call to a witness (refusals must not reach it)",
            OpenaiShape {
                model: TEXT_MODEL,
                declared: Declared::Nothing,
                responses: false,
            },
            true,
        ),
        (
            "openai-data-only",
            "OpenAI server, reference-multimodal declared with data sources only, no streaming",
            OpenaiShape {
                model: MULTIMODAL_MODEL,
                declared: Declared::DataOnly,
                responses: false,
            },
            false,
        ),
    ]
}

/// The openai-responses shapes: the same server at its Responses door, each model with
/// and without a witness.
pub fn responses_shapes() -> Vec<(&'static str, &'static str, OpenaiShape, bool)> {
    let shape = |model, declared| OpenaiShape {
        model,
        declared,
        responses: true,
    };
    vec![
        (
            "responses-multimodal",
            "OpenAI server's Responses door, reference-multimodal declared in full (what `--profile openai-responses --target reference` judges)",
            shape(MULTIMODAL_MODEL, Declared::Full),
            false,
        ),
        (
            "responses-witness",
            "responses-multimodal, the server forwarding each accepted call to a witness (run --witness)",
            shape(MULTIMODAL_MODEL, Declared::Full),
            true,
        ),
        (
            "responses-text-only",
            "OpenAI server's Responses door, reference-text with no declaration",
            shape(TEXT_MODEL, Declared::Nothing),
            false,
        ),
        (
            "responses-text-witness",
            "responses-text-only, the server forwarding each accepted call to a witness",
            shape(TEXT_MODEL, Declared::Nothing),
            true,
        ),
    ]
}

/// The multimodal model declared in full (the `openai-multimodal` shape).
pub fn full_multimodal() -> OpenaiShape {
    OpenaiShape {
        model: MULTIMODAL_MODEL,
        declared: Declared::Full,
        responses: false,
    }
}

fn full_accepts() -> Vec<String> {
    IMAGE_MIMES
        .iter()
        .chain(&["audio/wav", "audio/mpeg", "application/pdf"])
        .map(|m| m.to_string())
        .collect()
}

impl OpenaiShape {
    /// The profile whose cases this shape runs.
    pub fn profile(&self) -> &'static str {
        if self.responses {
            crate::protocol::openai_responses::PROFILE
        } else {
            crate::protocol::openai::PROFILE
        }
    }

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

    /// Starts the server serving this shape's model, with the OpenAI fault `variant`
    /// names (any other variant: faithful), forwarding to `upstream` when given, and the
    /// run pointed at its API base.
    pub async fn start(
        &self,
        variant: Option<&Variant>,
        upstream: Option<url::Url>,
        upstream_wire: UpstreamWire,
    ) -> Result<(RunningReference, RunConfig), String> {
        let fault = match variant {
            Some(Variant::OpenaiHost(fault)) => Some(*fault),
            _ => None,
        };
        let full = self.declared == Declared::Full;
        let token = full.then(|| Token {
            value: CALIBRATION_TOKEN.to_string(),
            origin: "calibration".to_string(),
        });
        let server = OpenaiConfig {
            token: token.as_ref().map(|t| t.value.clone()),
            upstream,
            upstream_wire,
            ..server_config(self.model, fault)?
        };
        let running = openai::spawn(server, loopback())
            .await
            .map_err(|e| format!("cannot start the OpenAI reference server: {e}"))?;
        let base = openai::base_url(&running);
        let mut config = embedded_run(&base, format!("reference server ({base})"))?;
        config.protocol = Some(self.profile());
        config.model = Some(self.model.to_string());
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
        Ok((running, config))
    }
}

fn server_config(model: &str, fault: Option<OpenaiFault>) -> Result<OpenaiConfig, String> {
    OpenaiConfig::new(fault).with_models(&[model.to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn shapes_serve_their_model_with_their_declaration_and_fault() {
        let all = shapes();
        let (_, _, text, _) = all.iter().find(|s| s.0 == "openai-text-only").unwrap();
        assert!(text.claims().is_none());
        let (_, _, full, witnessed) = all.iter().find(|s| s.0 == "openai-multimodal").unwrap();
        assert!(!witnessed);
        assert!(all.iter().any(|s| s.0 == "openai-witness" && s.3));
        let variant = Variant::OpenaiHost(OpenaiFault::StreamWithoutDone);
        let (running, config) = full
            .start(Some(&variant), None, UpstreamWire::Chat)
            .await
            .unwrap();
        assert_eq!(config.model.as_deref(), Some(MULTIMODAL_MODEL));
        assert_eq!(config.protocol, Some("openai"));
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
        running.shutdown().await;
    }
}
