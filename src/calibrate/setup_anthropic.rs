//! The shapes the Anthropic Messages reference server is calibrated in: the
//! multimodal model declared in full (a token as `x-api-key`, its media for the `url`
//! sources) and the text-only model with no declaration, each with and without a
//! witness it forwards to (in the Messages wire).

use super::setup::{CALIBRATION_TOKEN, embedded_run, loopback};
use super::variant::Variant;
use crate::config::{RunConfig, Token};
use reference_hosts::RunningReference;
use reference_hosts::anthropic::{self, AnthropicConfig, MODELS, MULTIMODAL_MODEL, TEXT_MODEL};

#[derive(Debug, Clone)]
pub struct AnthropicShape {
    pub model: &'static str,
}

/// The anthropic shapes, in the order the matrix lists them, each with whether the
/// server forwards to a witness.
pub fn shapes() -> Vec<(&'static str, &'static str, AnthropicShape, bool)> {
    let multimodal = AnthropicShape {
        model: MULTIMODAL_MODEL,
    };
    let text = AnthropicShape { model: TEXT_MODEL };
    vec![
        (
            "anthropic-multimodal",
            "Anthropic server, reference-claude-multimodal declared in full (what `--profile anthropic --target reference` judges), an x-api-key, its media for the url sources",
            multimodal.clone(),
            false,
        ),
        (
            "anthropic-witness",
            "anthropic-multimodal, the server forwarding each accepted call to a witness in the Messages wire (run --witness)",
            multimodal,
            true,
        ),
        (
            "anthropic-text-only",
            "Anthropic server, reference-claude-text with no declaration (a text-only model)",
            text.clone(),
            false,
        ),
        (
            "anthropic-text-witness",
            "anthropic-text-only, the server forwarding each accepted call to a witness (refusals must not reach it)",
            text,
            true,
        ),
    ]
}

impl AnthropicShape {
    /// Starts the server serving this shape's model, with the Anthropic fault `variant`
    /// names (any other variant: faithful), forwarding to `upstream` when given, and
    /// the run pointed at its API base.
    pub async fn start(
        &self,
        variant: Option<&Variant>,
        upstream: Option<url::Url>,
    ) -> Result<(RunningReference, RunConfig), String> {
        let fault = match variant {
            Some(Variant::AnthropicHost(fault)) => Some(*fault),
            _ => None,
        };
        let model = MODELS
            .iter()
            .copied()
            .find(|m| m.id == self.model)
            .ok_or_else(|| format!("the Anthropic reference server has no model {}", self.model))?;
        let full = model.image;
        let token = full.then(|| Token {
            value: CALIBRATION_TOKEN.to_string(),
            origin: "calibration".to_string(),
        });
        let server = AnthropicConfig {
            api_key: token.as_ref().map(|t| t.value.clone()),
            models: vec![model],
            ..AnthropicConfig::new(fault).with_upstream(upstream)
        };
        let running = anthropic::spawn(server, loopback())
            .await
            .map_err(|e| format!("cannot start the Anthropic reference server: {e}"))?;
        let base = anthropic::base_url(&running);
        let mut config = embedded_run(&base, format!("reference server ({base})"))?;
        config.protocol = Some(crate::protocol::anthropic::PROFILE);
        config.model = Some(self.model.to_string());
        config.token = token;
        if full {
            config.claims.embedded = Some(crate::cli::embedded_anthropic::claims(&model));
            config.media_base_url = Some(anthropic::media_base_url(&running));
        }
        Ok((running, config))
    }
}
