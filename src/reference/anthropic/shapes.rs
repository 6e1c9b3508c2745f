//! The shapes the Anthropic Messages reference server is calibrated in: the
//! multimodal model declared in full (a token as `x-api-key`, its media for the `url`
//! sources) and the text-only model with no declaration, each with and without a
//! witness it forwards to (in the Messages wire).

use crate::protocol::options::Origin;
use crate::reference::shape::{Shape, ShapeHost, Started, calibration_token, embedded_run};
use futures_util::future::BoxFuture;
use reference_hosts::anthropic::{
    self, AnthropicConfig, AnthropicFault, MODELS, MULTIMODAL_MODEL, TEXT_MODEL,
};
use reference_hosts::{HostFault, UpstreamWire};
use std::sync::Arc;

#[derive(Debug, Clone)]
struct ServerShape {
    model: &'static str,
}

fn shape(name: &'static str, summary: &'static str, model: &'static str) -> Shape {
    let host = Arc::new(ServerShape { model });
    Shape::new(name, summary, "anthropic", "anthropic", host)
}

/// The anthropic shapes, in the order the matrix lists them.
pub fn shapes() -> Vec<Shape> {
    vec![
        shape(
            "anthropic-multimodal",
            "Anthropic server, reference-claude-multimodal declared in full (what `--profile anthropic --target reference` judges), an x-api-key, its media for the url sources",
            MULTIMODAL_MODEL,
        ),
        shape(
            "anthropic-witness",
            "anthropic-multimodal, the server forwarding each accepted call to a witness in the Messages wire (run --witness)",
            MULTIMODAL_MODEL,
        )
        .witnessed(),
        shape(
            "anthropic-text-only",
            "Anthropic server, reference-claude-text with no declaration (a text-only model)",
            TEXT_MODEL,
        ),
        shape(
            "anthropic-text-witness",
            "anthropic-text-only, the server forwarding each accepted call to a witness (refusals must not reach it)",
            TEXT_MODEL,
        )
        .witnessed(),
    ]
}

impl ShapeHost for ServerShape {
    /// Starts the server serving this shape's model, broken by `fault`, forwarding to
    /// `upstream` when given, and the run pointed at its API base.
    fn start<'a>(
        &'a self,
        fault: Option<&'static dyn HostFault>,
        upstream: Option<url::Url>,
        _wire: UpstreamWire,
    ) -> BoxFuture<'a, Result<Started, String>> {
        Box::pin(async move {
            let fault = crate::reference::own_fault::<AnthropicFault>(fault)?;
            let model = MODELS
                .iter()
                .copied()
                .find(|m| m.id == self.model)
                .ok_or_else(|| {
                    format!("the Anthropic reference server has no model {}", self.model)
                })?;
            let full = model.image;
            let token = full.then(calibration_token);
            let server = AnthropicConfig {
                api_key: token.as_ref().map(|t| t.value.clone()),
                models: vec![model],
                ..AnthropicConfig::new(fault).with_upstream(upstream)
            };
            let running = anthropic::spawn(server, crate::reference::loopback())
                .await
                .map_err(|e| format!("cannot start the Anthropic reference server: {e}"))?;
            let base = anthropic::base_url(&running);
            let mut config = embedded_run(&base, format!("reference server ({base})"))?;
            config.options.set(
                crate::protocol::door::MODEL,
                self.model,
                Origin::Calibration,
            );
            config.token = token;
            if full {
                config.claims.embedded = Some(super::claims(&model));
                config.media_base_url = Some(anthropic::media_base_url(&running));
            }
            Ok(Started {
                reference: Some(running),
                config,
            })
        })
    }
}
