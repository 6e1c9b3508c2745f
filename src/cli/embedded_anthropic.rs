//! `--target reference --profile anthropic`: the Anthropic Messages reference server
//! of the `reference_hosts` crate, started in this process, serving its two models;
//! the run names the model `--model` picks (default: the one that takes images and
//! documents), and the server declares what that model takes.

use super::args::ReferenceArgs;
use super::embedded::{loopback, parse_fault};
use super::embedded_model_server::{self, pick_model, point_at};
use crate::config::{EmbeddedClaims, RunConfig};
use reference_hosts::RunningReference;
use reference_hosts::anthropic::{
    self, AnthropicConfig, AnthropicFault, IMAGE_MIMES, MODELS, MULTIMODAL_MODEL, Model,
};

/// The reference server a run asked for, and the model the run names.
#[derive(Debug, Clone)]
pub struct AnthropicServer {
    pub config: AnthropicConfig,
    pub model: Model,
}

pub const FAULT_LISTING: &str = "mmconform serve-reference --profile anthropic --list-faults";

/// Every fault's name.
pub fn fault_names() -> Vec<&'static str> {
    AnthropicFault::all().iter().map(|f| f.name()).collect()
}

/// The server `--reference-fault` describes, and the model `--model` names.
pub fn server(
    args: &ReferenceArgs,
    model: Option<&str>,
    upstream: Option<url::Url>,
) -> Result<AnthropicServer, String> {
    let fault = parse_fault::<AnthropicFault>(
        "--reference-fault",
        args.reference_fault.as_deref(),
        &fault_names(),
        FAULT_LISTING,
    )?;
    let config = AnthropicConfig::new(fault).with_upstream(upstream);
    let model = pick_model(
        model,
        MULTIMODAL_MODEL,
        |id| config.served(id),
        MODELS.iter().map(|m| m.id),
    )?;
    Ok(AnthropicServer { config, model })
}

/// What the reference server declares its model takes: the four image types and PDF
/// and plain-text documents, by data and url sources, streaming offered.
pub fn claims(model: &Model) -> EmbeddedClaims {
    let mut accepts: Vec<String> = Vec::new();
    if model.image {
        accepts.extend(IMAGE_MIMES.iter().map(|m| m.to_string()));
    }
    if model.document {
        accepts.extend(["application/pdf".to_string(), "text/plain".to_string()]);
    }
    embedded_model_server::claims(model.id, accepts, &["http"], false)
}

/// Starts the server and points `config` at its API base, naming its model. The
/// server requires the run's token as `x-api-key` (so a token is exercised) and
/// serves the media `url` sources name; `--media-base-url` still wins.
pub async fn start(
    server: AnthropicServer,
    config: &mut RunConfig,
) -> Result<RunningReference, String> {
    let AnthropicServer {
        config: mut host,
        model,
    } = server;
    host.api_key = config.token.as_ref().map(|t| t.value.clone());
    config.model.get_or_insert_with(|| model.id.to_string());
    let running = anthropic::spawn(host, loopback())
        .await
        .map_err(|e| format!("cannot start the Anthropic reference server: {e}"))?;
    point_at(
        config,
        &anthropic::base_url(&running),
        anthropic::media_base_url(&running),
    )?;
    Ok(running)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference_hosts::anthropic::TEXT_MODEL;

    #[test]
    fn the_text_model_declares_nothing_and_the_multimodal_one_images_and_documents() {
        let text = MODELS.iter().find(|m| m.id == TEXT_MODEL).unwrap();
        assert!(claims(text).accepts.is_empty());
        let multi = MODELS.iter().find(|m| m.id == MULTIMODAL_MODEL).unwrap();
        let declared = claims(multi);
        assert!(declared.accepts.contains(&"image/webp".to_string()));
        assert!(declared.accepts.contains(&"text/plain".to_string()));
        assert_eq!(declared.sources, ["data", "http"]);
    }

    #[derive(clap::Parser)]
    struct Wrapped {
        #[command(flatten)]
        reference: ReferenceArgs,
    }

    fn reference_args(argv: &[&str]) -> ReferenceArgs {
        use clap::Parser as _;
        Wrapped::parse_from(std::iter::once("t").chain(argv.iter().copied())).reference
    }

    #[test]
    fn an_unknown_model_or_fault_is_a_usage_error() {
        let args = reference_args(&[]);
        assert!(server(&args, Some("claude-x"), None).is_err());
        assert_eq!(
            server(&args, None, None).unwrap().model.id,
            MULTIMODAL_MODEL
        );
        let bad = reference_args(&["--reference-fault", "crash-on-unknown-blok"]);
        let e = server(&bad, None, None).unwrap_err();
        assert!(e.contains("crash-on-unknown-block"), "{e}");
    }
}
