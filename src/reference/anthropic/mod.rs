//! The Anthropic Messages reference server (`reference_hosts::anthropic`): started in
//! this process for `--target reference --profile anthropic`, serving its two models;
//! the run names the model `--model` picks (default: the one that takes images and
//! documents), and the server declares what that model takes. Served by
//! `serve-reference --profile anthropic`; calibrated in [`shapes`].

mod shapes;

use super::model_server::{self, DECLARES_ITSELF, pick_model, point_at};
use super::serve::{self, ServeForm, ServeRequest};
use super::{EmbeddedHost, ReferenceHost, ReferenceRequest, ReferenceTarget, Shape};
use crate::config::{EmbeddedClaims, RunConfig};
use crate::exit::Ending;
use crate::protocol::options::Origin;
use futures_util::future::BoxFuture;
use reference_hosts::anthropic::{
    self, AnthropicConfig, AnthropicFault, IMAGE_MIMES, MODELS, MULTIMODAL_MODEL, Model,
};
use reference_hosts::{HostFault, RunningReference};

/// The Anthropic Messages reference server, as the registry lists it.
pub static SERVER: AnthropicServer = AnthropicServer;

pub struct AnthropicServer;

static FORMS: [ServeForm; 1] = [ServeForm {
    profile: "anthropic",
    help: "The Anthropic Messages server (API base `/v1`, `POST /v1/messages`)",
    door: "",
    takes: &[],
}];

fn parse(flag: &str, given: Option<&str>) -> Result<Option<AnthropicFault>, String> {
    let names: Vec<&str> = AnthropicFault::all().iter().map(|f| f.name()).collect();
    let listing = super::fault_listing(&FORMS[0], false);
    super::parse_fault::<AnthropicFault>(flag, given, &names, &listing)
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
    model_server::claims(model.id, accepts, &["http"], false)
}

impl ReferenceHost for AnthropicServer {
    fn name(&self) -> &'static str {
        "anthropic"
    }

    fn variant_prefix(&self) -> &'static str {
        "anthropic:"
    }

    fn faults(&self) -> Vec<&'static dyn HostFault> {
        super::faults_of(AnthropicFault::all())
    }

    /// The server `--reference-fault` describes, and the model `--model` names.
    fn target(&self, request: &ReferenceRequest) -> Result<ReferenceTarget, String> {
        let fault = parse("--reference-fault", request.fault.as_deref())?;
        let config = AnthropicConfig::new(fault).with_upstream(request.upstream.clone());
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
        })))
    }

    fn serve_forms(&self) -> &'static [ServeForm] {
        &FORMS
    }

    fn serve(&self, form: &ServeForm, request: &ServeRequest) -> Result<Ending, Ending> {
        if request.list_faults {
            return Ok(serve::list_faults(&self.faults(), form.door));
        }
        let fault = parse("--fault", request.fault.as_deref()).map_err(Ending::Usage)?;
        request.check_limits()?;
        let config = AnthropicConfig {
            api_key: request.token()?,
            max_request_body_bytes: request.max_request_body_bytes,
            ..AnthropicConfig::new(fault)
        }
        .with_upstream(request.upstream()?);
        let addr = request.addr;
        serve::runtime()?.block_on(async move {
            let running = anthropic::spawn(config.clone(), addr).await;
            serve::until_interrupted(running, addr, |running| {
                let models: Vec<&str> = config.models.iter().map(|m| m.id).collect();
                format!(
                    "mmconform Anthropic Messages reference server listening on {} (models {}{}{})",
                    anthropic::base_url(running),
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
    config: AnthropicConfig,
    model: Model,
}

impl EmbeddedHost for EmbeddedServer {
    fn claims(&self) -> Option<EmbeddedClaims> {
        Some(claims(&self.model))
    }

    fn default_upstream(&mut self, url: url::Url) {
        self.config.upstream.get_or_insert(url);
    }

    /// Starts the server and points `config` at its API base, naming its model. The
    /// server requires the run's token as `x-api-key` (so a token is exercised) and
    /// serves the media `url` sources name; `--media-base-url` still wins.
    fn start<'a>(
        self: Box<Self>,
        config: &'a mut RunConfig,
    ) -> BoxFuture<'a, Result<RunningReference, String>> {
        let EmbeddedServer {
            config: mut host,
            model,
        } = *self;
        Box::pin(async move {
            host.api_key = config.token.as_ref().map(|t| t.value.clone());
            config
                .options
                .offer(crate::protocol::door::MODEL, model.id, Origin::Reference);
            let running = anthropic::spawn(host, super::loopback())
                .await
                .map_err(|e| format!("cannot start the Anthropic reference server: {e}"))?;
            point_at(
                config,
                &anthropic::base_url(&running),
                anthropic::media_base_url(&running),
            )?;
            Ok(running)
        })
    }
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

    fn request(model: Option<&str>, fault: Option<&str>) -> ReferenceRequest {
        ReferenceRequest {
            profile: "anthropic",
            modalities: Vec::new(),
            max_bytes_per_part: 0,
            fault: fault.map(String::from),
            accepts: Vec::new(),
            emits_outbound: false,
            upstream: None,
            options: {
                let mut options = crate::protocol::options::ProtocolOptions::default();
                if let Some(model) = model {
                    options.set(crate::protocol::door::MODEL, model, Origin::CommandLine);
                }
                options
            },
            user_declared: false,
        }
    }

    #[test]
    fn an_unknown_model_or_fault_is_a_usage_error() {
        assert!(SERVER.target(&request(Some("claude-x"), None)).is_err());
        let Ok(ReferenceTarget::Embedded(host)) = SERVER.target(&request(None, None)) else {
            panic!("the server is embedded");
        };
        assert_eq!(
            host.claims().unwrap().by,
            format!("reference server ({MULTIMODAL_MODEL})")
        );
        let e = SERVER
            .target(&request(None, Some("crash-on-unknown-blok")))
            .unwrap_err();
        assert!(e.contains("crash-on-unknown-block"), "{e}");
    }
}
