//! The OpenAI-compatible reference server (`reference_hosts::openai`), one server with
//! two doors: Chat Completions (`--profile openai`) and Responses (`--profile
//! openai-responses`). Started in this process for `--target reference`, serving its
//! models; the run names the model `--model` picks (default: the one that takes
//! images, audio and files), and the server declares what that model takes. Served by
//! `serve-reference --profile openai` (or `openai-responses`: the same server, whose
//! faults listed and taken are its Responses door's); calibrated in [`shapes`].

mod shapes;

use super::model_server::{self, DECLARES_ITSELF, pick_model, point_at};
use super::serve::{self, ServeFlag, ServeForm, ServeRequest};
use super::{EmbeddedHost, ReferenceHost, ReferenceRequest, ReferenceTarget, Shape};
use crate::config::{EmbeddedClaims, RunConfig};
use crate::exit::Ending;
use crate::protocol::options::Origin;
use futures_util::future::BoxFuture;
use reference_hosts::openai::{
    self, IMAGE_MIMES, MODELS, MULTIMODAL_MODEL, Model, OpenaiConfig, OpenaiFault,
    REFERENCE_FILE_ID, REFERENCE_IMAGE_ID, RESPONSES_DOOR,
};
use reference_hosts::{HostFault, RunningReference};

/// The door of the Chat Completions profile.
const CHAT_DOOR: &str = "chat";

/// The OpenAI-compatible reference server, as the registry lists it (for both doors).
pub static SERVER: OpenaiServer = OpenaiServer;

pub struct OpenaiServer;

static FORMS: [ServeForm; 2] = [
    ServeForm {
        profile: "openai",
        help: "The OpenAI-compatible Chat Completions server (API base `/v1`)",
        door: CHAT_DOOR,
        takes: &[ServeFlag::Models],
    },
    ServeForm {
        profile: "openai-responses",
        help: "The same server, its Responses door (`/v1/responses`) and that door's faults",
        door: RESPONSES_DOOR,
        takes: &[ServeFlag::Models],
    },
];

/// The serve form (and so the door) of `profile`.
fn form(profile: &str) -> &'static ServeForm {
    FORMS
        .iter()
        .find(|f| f.profile == profile)
        .unwrap_or(&FORMS[0])
}

/// The fault `given` for `flag`, among those acting at `form`'s door.
fn parse(flag: &str, given: Option<&str>, form: &ServeForm) -> Result<Option<OpenaiFault>, String> {
    let names: Vec<&str> = OpenaiFault::all()
        .iter()
        .filter(|f| HostFault::acts_at(*f, form.door))
        .map(|f| f.name())
        .collect();
    let listing = super::fault_listing(form, false);
    super::parse_fault::<OpenaiFault>(flag, given, &names, &listing)
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
    model_server::claims(model.id, accepts, &["http", "file_id"], model.image)
}

impl ReferenceHost for OpenaiServer {
    fn name(&self) -> &'static str {
        "openai"
    }

    fn variant_prefix(&self) -> &'static str {
        "openai:"
    }

    fn faults(&self) -> Vec<&'static dyn HostFault> {
        super::faults_of(OpenaiFault::all())
    }

    /// The server `--reference-fault` describes, and the model `--model` names.
    fn target(&self, request: &ReferenceRequest) -> Result<ReferenceTarget, String> {
        let form = form(request.profile);
        let fault = parse("--reference-fault", request.fault.as_deref(), form)?;
        let config = OpenaiConfig::new(fault).with_upstream(request.upstream.clone());
        let model = pick_model(
            crate::protocol::door::model(&request.options),
            MULTIMODAL_MODEL,
            |id| config.served(id),
            MODELS.iter().map(|m| m.id),
        )?;
        if request.user_declared {
            return Err(DECLARES_ITSELF.into());
        }
        Ok(ReferenceTarget::Embedded(Box::new(EmbeddedServer {
            config,
            model,
            responses: form.door == RESPONSES_DOOR,
        })))
    }

    fn serve_forms(&self) -> &'static [ServeForm] {
        &FORMS
    }

    fn serve(&self, form: &ServeForm, request: &ServeRequest) -> Result<Ending, Ending> {
        if request.list_faults {
            return Ok(serve::list_faults(&self.faults(), form.door));
        }
        let fault = parse("--fault", request.fault.as_deref(), form).map_err(Ending::Usage)?;
        request.check_limits()?;
        let config = OpenaiConfig {
            token: request.token()?,
            max_request_body_bytes: request.max_request_body_bytes,
            ..OpenaiConfig::new(fault)
        }
        .with_models(&request.models)
        .map_err(|e| Ending::Usage(format!("--models: {e}")))?
        .with_upstream(request.upstream()?);
        let addr = request.addr;
        serve::runtime()?.block_on(async move {
            let running = openai::spawn(config.clone(), addr).await;
            serve::until_interrupted(running, addr, |running| {
                let models: Vec<&str> = config.models.iter().map(|m| m.id).collect();
                format!(
                    "mmconform OpenAI-compatible reference server listening on {} (models {}{}{})",
                    openai::base_url(running),
                    models.join(","),
                    ServeRequest::upstream_banner(config.upstream.as_ref()),
                    serve::fault_banner(config.fault.as_ref().map(|f| f as &dyn HostFault)),
                )
            })
            .await
        })
    }

    fn shapes(&self) -> Vec<Shape> {
        shapes::shapes()
    }
}

/// The reference server a run asked for, and the model the run names.
#[derive(Debug)]
struct EmbeddedServer {
    config: OpenaiConfig,
    model: Model,
    /// The run knocks at the Responses door.
    responses: bool,
}

impl EmbeddedHost for EmbeddedServer {
    fn claims(&self) -> Option<EmbeddedClaims> {
        Some(claims(&self.model))
    }

    fn default_upstream(&mut self, url: url::Url) {
        self.config.upstream.get_or_insert(url);
    }

    /// Starts the server and points `config` at its API base, naming its model. The
    /// server requires the run's token (so a token is exercised), serves the media the
    /// http positives point at, and holds a file for the file_id positive;
    /// `--media-base-url` and `--media-ref` still win.
    fn start<'a>(
        self: Box<Self>,
        config: &'a mut RunConfig,
    ) -> BoxFuture<'a, Result<RunningReference, String>> {
        let EmbeddedServer {
            config: mut host,
            model,
            responses,
        } = *self;
        Box::pin(async move {
            host.token = config.token.as_ref().map(|t| t.value.clone());
            config
                .options
                .offer(crate::protocol::door::MODEL, model.id, Origin::Reference);
            if model.file {
                config
                    .media_refs
                    .entry("file".into())
                    .or_insert_with(|| REFERENCE_FILE_ID.to_string());
            }
            if model.image && responses {
                // Only the Responses door takes an image by file id.
                config
                    .media_refs
                    .entry("image".into())
                    .or_insert_with(|| REFERENCE_IMAGE_ID.to_string());
            }
            let running = openai::spawn(host, super::loopback())
                .await
                .map_err(|e| format!("cannot start the OpenAI reference server: {e}"))?;
            point_at(
                config,
                &openai::base_url(&running),
                openai::media_base_url(&running),
            )?;
            Ok(running)
        })
    }
}
