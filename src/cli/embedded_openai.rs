//! `--target reference --profile openai`: the OpenAI-compatible reference server of the
//! `reference_hosts` crate, started in this process, serving its models; the run names
//! the model `--model` picks (default: the one that takes images, audio and files),
//! and the server declares what that model takes, as the reference agent does.

use super::args::ReferenceArgs;
use super::embedded::{loopback, parse_fault};
use super::embedded_model_server::{self, pick_model, point_at};
use crate::config::{EmbeddedClaims, RunConfig};
use reference_hosts::RunningReference;
use reference_hosts::openai::{
    self, IMAGE_MIMES, MODELS, MULTIMODAL_MODEL, Model, OpenaiConfig, OpenaiFault,
    REFERENCE_FILE_ID, REFERENCE_IMAGE_ID,
};

/// The reference server a run asked for, and the model the run names.
#[derive(Debug, Clone)]
pub struct OpenaiServer {
    pub config: OpenaiConfig,
    pub model: Model,
}

pub const OPENAI_FAULT_LISTING: &str = "mmconform serve-reference --profile openai --list-faults";
pub const RESPONSES_FAULT_LISTING: &str =
    "mmconform serve-reference --profile openai-responses --list-faults";

/// The faults of the Chat door, or of the Responses door (`responses`).
pub fn openai_fault_names(responses: bool) -> Vec<&'static str> {
    OpenaiFault::all()
        .iter()
        .filter(|f| f.seen_at(responses))
        .map(|f| f.name())
        .collect()
}

/// How to list the faults of a door.
pub fn fault_listing(responses: bool) -> &'static str {
    if responses {
        RESPONSES_FAULT_LISTING
    } else {
        OPENAI_FAULT_LISTING
    }
}

/// The server `--reference-fault` describes, and the model `--model` names.
pub fn server(
    args: &ReferenceArgs,
    model: Option<&str>,
    upstream: Option<url::Url>,
    responses: bool,
) -> Result<OpenaiServer, String> {
    let fault = parse_fault::<OpenaiFault>(
        "--reference-fault",
        args.reference_fault.as_deref(),
        &openai_fault_names(responses),
        fault_listing(responses),
    )?;
    let config = OpenaiConfig::new(fault).with_upstream(upstream);
    let model = pick_model(
        model,
        MULTIMODAL_MODEL,
        |id| config.served(id),
        MODELS.iter().map(|m| m.id),
    )?;
    Ok(OpenaiServer { config, model })
}

/// What the reference server declares its model takes: the image types it checks,
/// wav and mp3 audio, PDF files; every source and detail when it takes media at all;
/// streaming offered.
pub fn claims(model: &Model) -> EmbeddedClaims {
    let mut accepts: Vec<String> = Vec::new();
    if model.image {
        accepts.extend(IMAGE_MIMES.iter().map(|m| m.to_string()));
    }
    if model.audio {
        accepts.extend(["audio/wav".to_string(), "audio/mpeg".to_string()]);
    }
    if model.file {
        accepts.push("application/pdf".into());
    }
    embedded_model_server::claims(model.id, accepts, &["http", "file_id"], model.image)
}

/// Starts the server and points `config` at its API base, naming its model. The
/// server requires the run's token (so a token is exercised), serves the media the
/// http positives point at, and holds a file for the file_id positive;
/// `--media-base-url` and `--media-ref` still win.
pub async fn start(
    server: OpenaiServer,
    config: &mut RunConfig,
) -> Result<RunningReference, String> {
    let OpenaiServer {
        config: mut host,
        model,
    } = server;
    host.token = config.token.as_ref().map(|t| t.value.clone());
    config.model.get_or_insert_with(|| model.id.to_string());
    if model.file {
        config
            .media_refs
            .entry("file".into())
            .or_insert_with(|| REFERENCE_FILE_ID.to_string());
    }
    if model.image && config.protocol == Some(crate::protocol::openai_responses::PROFILE) {
        // Only the Responses door takes an image by file id.
        config
            .media_refs
            .entry("image".into())
            .or_insert_with(|| REFERENCE_IMAGE_ID.to_string());
    }
    let running = openai::spawn(host, loopback())
        .await
        .map_err(|e| format!("cannot start the OpenAI reference server: {e}"))?;
    point_at(
        config,
        &openai::base_url(&running),
        openai::media_base_url(&running),
    )?;
    Ok(running)
}
