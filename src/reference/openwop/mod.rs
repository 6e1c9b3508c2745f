//! The openwop reference host (`reference_hosts::spawn`): started in this process for
//! `--target reference`, served by `serve-reference` (the default form), and
//! calibrated in the shapes of [`shapes`].

mod shapes;

use super::serve::{self, ServeFlag, ServeForm, ServeRequest};
use super::{EmbeddedHost, ReferenceHost, ReferenceRequest, ReferenceTarget, Shape};
use crate::config::RunConfig;
use crate::exit::Ending;
use crate::protocol::openwop::options::{self, OpenwopOptions};
use crate::protocol::options::Origin;
use futures_util::future::BoxFuture;
use reference_hosts::{Fault, HostFault, ReferenceConfig, RunningReference};

/// The modalities the openwop reference host can advertise.
pub const MODALITIES: [&str; 4] = ["text", "image", "audio", "document"];

/// The openwop reference host, as the registry lists it.
pub static HOST: OpenwopHost = OpenwopHost;

pub struct OpenwopHost;

static FORMS: [ServeForm; 1] = [ServeForm {
    profile: "openwop",
    help: "The openwop reference host",
    door: "",
    takes: &[ServeFlag::SelfHostedEndpoint],
}];

fn fault_names() -> Vec<&'static str> {
    Fault::all().iter().map(|f| f.name()).collect()
}

fn parse(flag: &str, given: Option<&str>) -> Result<Option<Fault>, String> {
    let listing = super::fault_listing(&FORMS[0], true);
    super::parse_fault::<Fault>(flag, given, &fault_names(), &listing)
}

impl ReferenceHost for OpenwopHost {
    fn name(&self) -> &'static str {
        "openwop"
    }

    /// The first table: its names go bare.
    fn variant_prefix(&self) -> &'static str {
        ""
    }

    fn faults(&self) -> Vec<&'static dyn HostFault> {
        super::faults_of(Fault::all())
    }

    fn target(&self, request: &ReferenceRequest) -> Result<ReferenceTarget, String> {
        let host = ReferenceConfig {
            modalities: super::parse_modalities(&request.modalities, &MODALITIES)
                .map_err(|e| format!("--reference-modalities: {e}"))?,
            max_bytes_per_part: (request.max_bytes_per_part > 0)
                .then_some(request.max_bytes_per_part),
            fault: parse("--reference-fault", request.fault.as_deref())?,
            upstream: request.upstream.clone(),
            ..ReferenceConfig::default()
        };
        Ok(ReferenceTarget::Embedded(Box::new(EmbeddedOpenwop(host))))
    }

    fn serve_forms(&self) -> &'static [ServeForm] {
        &FORMS
    }

    fn serve(&self, _form: &ServeForm, request: &ServeRequest) -> Result<Ending, Ending> {
        if request.list_faults {
            return Ok(serve::list_faults(&self.faults(), ""));
        }
        let modalities = super::parse_modalities(&request.modalities, &MODALITIES)
            .map_err(|e| Ending::Usage(format!("--modalities: {e}")))?;
        let fault = parse("--fault", request.fault.as_deref()).map_err(Ending::Usage)?;
        let token = request.token()?;
        request.check_limits()?;
        let config = ReferenceConfig {
            modalities,
            advertise_input: true,
            max_bytes_per_part: request.max_bytes_per_part,
            max_request_body_bytes: request.max_request_body_bytes,
            token,
            fault,
            upstream: request.upstream()?,
            compat_endpoint: request.self_hosted_endpoint.clone(),
        };
        let addr = request.addr;
        serve::runtime()?.block_on(async move {
            let running =
                reference_hosts::spawn_with_service_time(config.clone(), addr, request.delay).await;
            serve::until_interrupted(running, addr, |running| {
                format!(
                    "mmconform reference host listening on {} (modalities {}{}{}{}{})",
                    running.base_url(),
                    config.modalities.join(","),
                    config
                        .max_bytes_per_part
                        .map(|n| format!(", maxBytesPerPart {n}"))
                        .unwrap_or_default(),
                    ServeRequest::upstream_banner(config.upstream.as_ref()),
                    request.service_time_banner(),
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

/// The openwop host a run asked for, not started yet.
#[derive(Debug)]
struct EmbeddedOpenwop(ReferenceConfig);

impl EmbeddedHost for EmbeddedOpenwop {
    fn default_upstream(&mut self, url: url::Url) {
        self.0.upstream.get_or_insert(url);
    }

    /// The host requires the run's token (so the auth case can run), offers its own
    /// mediaRefs (so the mediaRef positives run without flags), and is configured with
    /// the self-hosted endpoint the run looks for: it advertises its self-hosted
    /// provider only then, as RFC 0108 §A.2 asks, and names it unless the user did.
    fn start<'a>(
        self: Box<Self>,
        config: &'a mut RunConfig,
    ) -> BoxFuture<'a, Result<RunningReference, String>> {
        let mut host = self.0;
        Box::pin(async move {
            host.token = config.token.as_ref().map(|t| t.value.clone());
            host.compat_endpoint = OpenwopOptions::read(&config.options)?.compat_endpoint;
            if host.compat_endpoint.is_some() {
                config.options.offer(
                    options::SELF_HOSTED_PROVIDER,
                    reference_hosts::COMPAT_PROVIDER,
                    Origin::Reference,
                );
            }
            for modality in &host.modalities {
                if let Some(media_ref) = reference_hosts::known_media_ref(modality) {
                    config
                        .media_refs
                        .entry(modality.clone())
                        .or_insert_with(|| media_ref.to_string());
                }
            }
            let running = reference_hosts::spawn(host, super::loopback())
                .await
                .map_err(|e| format!("cannot start the reference host: {e}"))?;
            let base_url = running.base_url();
            super::point(config, &base_url, format!("reference ({base_url})"))?;
            Ok(running)
        })
    }
}
