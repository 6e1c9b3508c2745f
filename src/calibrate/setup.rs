//! The shapes the reference hosts are calibrated in. One shape cannot exercise every
//! case (a host advertising audio never runs the "unadvertised audio" negative), so the
//! catalogue holds several per profile, and every case must run in at least one of them.

use super::setup_anthropic::{self, AnthropicShape};
use super::setup_openai::{self, OpenaiShape};
use super::variant::Variant;
use crate::config::{EmbeddedClaims, NamedProvider, OpenwopMajor, RunConfig, Target, Token};
use crate::protocol::openwop::Dialect;
use crate::witness::{RunningWitness, Witness, WitnessConfig};
use reference_hosts::agui::{self, AgentConfig};
use reference_hosts::{Fault, ReferenceConfig, RunningReference, UpstreamWire};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Not a secret: the token the `with-token` shapes require, so the auth case runs.
pub(super) const CALIBRATION_TOKEN: &str = "mmconform-calibration-token";
/// Never fetched (the reference host judges URLs, it does not fetch them): it only
/// lets the `url` positives and the data+url shape case apply.
const CALIBRATION_MEDIA_BASE_URL: &str = "http://media.example.invalid/mmconform";
/// Never fetched either: the endpoint the self-hosted shapes configure their provider
/// with (RFC 0108), and the run's `OPENWOP_TEST_COMPAT_ENDPOINT`.
const CALIBRATION_COMPAT_ENDPOINT: &str = "http://compat.calibration.invalid:8089/v1";

/// One shape of a faithful host plus the run options that go with it.
#[derive(Debug, Clone)]
pub struct Setup {
    pub name: &'static str,
    /// What the shape exercises, for the matrix header.
    pub summary: &'static str,
    pub shape: Shape,
    /// The host forwards to a witness the run starts (`run --witness`): the forwarding
    /// faults run here, and the `expect.witness` cases are judged.
    pub witness: bool,
    /// The wire the host calls its model in: Chat Completions, or (a gateway that
    /// translates wires) Responses for the OpenAI server, Gemini for the AG-UI agent.
    pub upstream_wire: UpstreamWire,
}

/// How long a case of a witness setup waits for its model call. The reference hosts
/// call their model before they answer, so a call that is not there by then is late
/// only under a heavily loaded machine; a host that never calls costs this per case.
const CALIBRATION_WITNESS_WAIT: Duration = Duration::from_millis(1500);

/// A started shape: its host, the run configuration pointed at it and, in a witness
/// setup, the witness the host forwards to.
pub struct Started {
    /// The embedded host; `None` for a process target (agentruntime), started per case.
    pub reference: Option<RunningReference>,
    pub config: RunConfig,
    pub witness: Option<Arc<RunningWitness>>,
}

#[derive(Debug, Clone)]
pub enum Shape {
    /// The openwop reference host.
    Openwop(OpenwopShape),
    /// The AG-UI reference agent declaring these MIME prefixes, requiring the
    /// calibration token when the bool says so (so the auth case runs).
    Agui(&'static [&'static str], bool),
    /// The OpenAI-compatible reference server serving one model, declared one way.
    Openai(OpenaiShape),
    /// The Anthropic Messages reference server serving one model.
    Anthropic(AnthropicShape),
    /// The reference AgentRuntime, a bridge process per case, started this way.
    Agentruntime(super::setup_agentruntime::RuntimeShape),
    /// The reference ACP agent, one process per run, advertising these capabilities
    /// (none: all).
    Acp(&'static [&'static str]),
}

#[derive(Debug, Clone)]
pub struct OpenwopShape {
    pub reference: ReferenceConfig,
    pub dialect: Dialect,
    pub openwop_major: OpenwopMajor,
    pub media_base_url: bool,
    pub token: bool,
}

fn modalities(list: &[&str]) -> Vec<String> {
    list.iter().map(|m| m.to_string()).collect()
}

fn openwop(reference: ReferenceConfig) -> OpenwopShape {
    OpenwopShape {
        reference,
        dialect: Dialect::Spec,
        openwop_major: OpenwopMajor::One,
        media_base_url: false,
        token: false,
    }
}

/// `reference` with its self-hosted provider configured (RFC 0108); the run then
/// looks for the endpoint and, at v2, names the provider (`OpenwopShape::start`).
fn self_hosting(reference: ReferenceConfig) -> ReferenceConfig {
    ReferenceConfig {
        compat_endpoint: Some(CALIBRATION_COMPAT_ENDPOINT.to_string()),
        ..reference
    }
}

fn setup(name: &'static str, summary: &'static str, shape: OpenwopShape) -> Setup {
    Setup {
        name,
        summary,
        shape: Shape::Openwop(shape),
        witness: false,
        upstream_wire: UpstreamWire::Chat,
    }
}

fn agui(name: &'static str, summary: &'static str, accepts: &'static [&'static str]) -> Setup {
    Setup {
        name,
        summary,
        shape: Shape::Agui(accepts, false),
        witness: false,
        upstream_wire: UpstreamWire::Chat,
    }
}

/// An agui `setup` whose agent requires the calibration token, which the run sends.
fn with_token(mut setup: Setup) -> Setup {
    if let Shape::Agui(accepts, _) = setup.shape {
        setup.shape = Shape::Agui(accepts, true);
    }
    setup
}

/// `setup` forwarding to a witness.
fn witnessed(mut setup: Setup) -> Setup {
    setup.witness = true;
    setup
}

/// `setup` forwarding to a witness in `wire`.
fn witnessed_over(setup: Setup, wire: UpstreamWire) -> Setup {
    Setup {
        upstream_wire: wire,
        ..witnessed(setup)
    }
}

/// Every calibration shape, in the order the matrix lists them.
pub fn setups() -> Vec<Setup> {
    let all = ReferenceConfig {
        modalities: modalities(&["text", "image", "audio", "document"]),
        ..ReferenceConfig::default()
    };
    vec![
        setup(
            "default",
            "text,image advertised, maxBytesPerPart 65536 (what `run --target reference` judges)",
            openwop(ReferenceConfig::default()),
        ),
        setup(
            "all-modalities",
            "text,image,audio,document advertised, a bearer token, --media-base-url",
            OpenwopShape {
                media_base_url: true,
                token: true,
                ..openwop(all.clone())
            },
        ),
        witnessed(setup(
            "witness",
            "all-modalities, forwarding `provider: compat` calls to a witness (run --witness)",
            OpenwopShape {
                media_base_url: true,
                token: true,
                ..openwop(all.clone())
            },
        )),
        setup(
            "text-only",
            "no aiProviders.input block (text-only host), no maxBytesPerPart",
            openwop(ReferenceConfig {
                modalities: Vec::new(),
                advertise_input: false,
                max_bytes_per_part: None,
                ..ReferenceConfig::default()
            }),
        ),
        setup(
            "implicit-text",
            "modalities [image]: text left implicit; a self-hosted provider `compat` and OPENWOP_TEST_COMPAT_ENDPOINT (RFC 0108)",
            openwop(self_hosting(ReferenceConfig {
                modalities: modalities(&["image"]),
                ..ReferenceConfig::default()
            })),
        ),
        setup(
            "suite-dialect",
            "every modality, parts spelled as the official suite does (file + dataBase64)",
            OpenwopShape {
                dialect: Dialect::Suite,
                ..openwop(all.clone())
            },
        ),
        setup(
            "openwop-v2",
            "text,image advertised, the v2 seams and OpenWOP-Version header; a self-hosted provider named by --self-hosted-provider compat",
            OpenwopShape {
                openwop_major: OpenwopMajor::Two,
                ..openwop(self_hosting(ReferenceConfig::default()))
            },
        ),
        setup(
            "openwop-v2-all",
            "all-modalities at openwop 2 (v2 root, v2 registry codes, a token, --media-base-url)",
            OpenwopShape {
                openwop_major: OpenwopMajor::Two,
                media_base_url: true,
                token: true,
                ..openwop(all)
            },
        ),
        setup(
            "openwop-v2-text-only",
            "text-only at openwop 2 (no aiProviders.input block)",
            OpenwopShape {
                openwop_major: OpenwopMajor::Two,
                ..openwop(ReferenceConfig {
                    modalities: Vec::new(),
                    advertise_input: false,
                    max_bytes_per_part: None,
                    ..ReferenceConfig::default()
                })
            },
        ),
        with_token(agui(
            "agui-default",
            "AG-UI agent accepting image/, audio/wav, application/pdf (what `--profile agui` judges), a bearer token",
            &agui::DEFAULT_ACCEPTS,
        )),
        witnessed(agui(
            "agui-witness",
            "agui-default, forwarding what reaches its model to a witness (run --witness)",
            &agui::DEFAULT_ACCEPTS,
        )),
        witnessed_over(
            agui(
                "agui-gemini-witness",
                "agui-witness, the agent translating AG-UI into Gemini generateContent calls to the witness (forwarding faults only)",
                &agui::DEFAULT_ACCEPTS,
            ),
            UpstreamWire::Gemini,
        ),
        agui(
            "agui-av",
            "AG-UI agent accepting image/, audio/, video/ (no documents)",
            &["image/", "audio/", "video/"],
        ),
        agui(
            "agui-documents",
            "AG-UI agent accepting application/pdf only",
            &["application/pdf"],
        ),
        agui(
            "agui-exact-types",
            "AG-UI agent accepting exact types image/png, audio/mpeg, video/webm, text/plain",
            &["image/png", "audio/mpeg", "video/webm", "text/plain"],
        ),
        agui(
            "agui-webp",
            "AG-UI agent accepting image/webp only",
            &["image/webp"],
        ),
    ]
    .into_iter()
    .chain(
        setup_openai::shapes()
            .into_iter()
            .map(|(name, summary, shape, witness)| Setup {
                name,
                summary,
                shape: Shape::Openai(shape),
                witness,
                upstream_wire: UpstreamWire::Chat,
            }),
    )
    .chain(
        setup_openai::responses_shapes()
            .into_iter()
            .map(|(name, summary, shape, witness)| Setup {
                name,
                summary,
                shape: Shape::Openai(shape),
                witness,
                upstream_wire: UpstreamWire::Chat,
            }),
    )
    .chain([Setup {
        name: "openai-responses-witness",
        summary: "openai-witness, the server translating Chat into Responses calls to the witness (forwarding faults only)",
        shape: Shape::Openai(setup_openai::full_multimodal()),
        witness: true,
        upstream_wire: UpstreamWire::Responses,
    }])
    .chain(
        setup_anthropic::shapes()
            .into_iter()
            .map(|(name, summary, shape, witness)| Setup {
                name,
                summary,
                shape: Shape::Anthropic(shape),
                witness,
                upstream_wire: UpstreamWire::Chat,
            }),
    )
    .chain(
        super::setup_agentruntime::SHAPES
            .into_iter()
            .map(|shape| Setup {
                name: shape.name,
                summary: shape.summary,
                shape: Shape::Agentruntime(shape),
                witness: true,
                upstream_wire: UpstreamWire::Chat,
            }),
    )
    .chain(
        super::setup_acp::SHAPES
            .into_iter()
            .map(|(name, summary, accepts)| Setup {
                name,
                summary,
                shape: Shape::Acp(accepts),
                witness: true,
                upstream_wire: UpstreamWire::Chat,
            }),
    )
    .collect()
}

impl Setup {
    /// The cases this shape is limited to when calibrate runs every case (an id filter).
    pub fn only_cases(&self) -> Option<&'static str> {
        match &self.shape {
            Shape::Agentruntime(shape) => shape.only_cases,
            _ => None,
        }
    }

    /// The protocol whose cases this shape runs.
    pub fn profile(&self) -> &'static str {
        match &self.shape {
            Shape::Openwop(_) => crate::protocol::openwop::PROFILE,
            Shape::Agui(..) => crate::protocol::agui::PROFILE,
            Shape::Openai(shape) => shape.profile(),
            Shape::Anthropic(_) => crate::protocol::anthropic::PROFILE,
            Shape::Agentruntime(_) => crate::protocol::agentruntime::PROFILE,
            Shape::Acp(_) => crate::protocol::acp::PROFILE,
        }
    }

    /// Starts this shape's faithful host, or the host broken by `variant`, on a loopback
    /// port, and returns it with the run configuration pointed at it; schema mutants
    /// come in as a directory of replacement schemas.
    pub async fn start(
        &self,
        variant: Option<&Variant>,
        schemas_dir: Option<PathBuf>,
        concurrency: usize,
    ) -> Result<Started, String> {
        let witness = match self.witness {
            true => Some(Arc::new(start_witness().await?)),
            false => None,
        };
        let upstream = witness
            .as_ref()
            .map(|w| url::Url::parse(&w.base_url()).map_err(|e| format!("witness URL: {e}")))
            .transpose()?;
        let (reference, mut config) = match &self.shape {
            Shape::Openwop(shape) => embedded(shape.start(host_fault(variant), upstream).await?),
            Shape::Agui(accepts, token) => {
                let token = token.then(|| Token {
                    value: CALIBRATION_TOKEN.to_string(),
                    origin: "calibration".to_string(),
                });
                let agent = agent_config(accepts, variant)?
                    .with_upstream(upstream)
                    .with_upstream_wire(self.upstream_wire)
                    .with_token(token.as_ref().map(|t| t.value.clone()));
                let (running, mut config) = start_agent(agent).await?;
                config.token = token;
                embedded((running, config))
            }
            Shape::Openai(shape) => {
                embedded(shape.start(variant, upstream, self.upstream_wire).await?)
            }
            Shape::Anthropic(shape) => embedded(shape.start(variant, upstream).await?),
            Shape::Agentruntime(shape) => {
                let fault = match variant {
                    Some(Variant::Runtime(fault)) => Some(*fault),
                    _ => None,
                };
                (None, super::setup_agentruntime::run_config(fault, shape)?)
            }
            Shape::Acp(accepts) => {
                let fault = match variant {
                    Some(Variant::Acp(fault)) => Some(*fault),
                    _ => None,
                };
                (None, super::setup_acp::run_config(fault, accepts)?)
            }
        };
        config.concurrency = concurrency;
        config.schemas_dir = schemas_dir;
        if let Some(w) = &witness {
            // What `run --witness` sets (cli::run_witness, cli::resolve).
            config.witness_url = Some(w.base_url());
            config.witness_wait = CALIBRATION_WITNESS_WAIT;
            config.model_provider = Some(reference_hosts::COMPAT_PROVIDER.to_string());
        }
        Ok(Started {
            reference,
            config,
            witness,
        })
    }
}

fn embedded(
    (reference, config): (RunningReference, RunConfig),
) -> (Option<RunningReference>, RunConfig) {
    (Some(reference), config)
}

/// A witness on a loopback port with the default limits.
async fn start_witness() -> Result<RunningWitness, String> {
    Witness::start(WitnessConfig {
        listen: loopback(),
        ..WitnessConfig::default()
    })
    .await
}

/// The openwop host fault `variant` names, if it names one.
fn host_fault(variant: Option<&Variant>) -> Option<Fault> {
    match variant {
        Some(Variant::Host(fault)) => Some(*fault),
        _ => None,
    }
}

/// The agent declaring `accepts`, with the AG-UI fault `variant` names; any other
/// variant means nothing to the agent, which then runs faithfully.
fn agent_config(accepts: &[&str], variant: Option<&Variant>) -> Result<AgentConfig, String> {
    let fault = match variant {
        Some(Variant::AguiHost(fault)) => Some(*fault),
        _ => None,
    };
    let accepts: Vec<String> = accepts.iter().map(|a| a.to_string()).collect();
    AgentConfig::new(&accepts, fault)
}

pub(super) fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

/// A run against the embedded host at `url`, shown as `label`.
pub(super) fn embedded_run(url: &str, label: String) -> Result<RunConfig, String> {
    let url = url::Url::parse(url).map_err(|e| format!("embedded host URL `{url}`: {e}"))?;
    let mut config = RunConfig::new(Target::Url(url.clone()));
    config.point_at_embedded(url, label);
    Ok(config)
}

/// The agent plans the run with its own declaration, serves the media url sources point
/// at, and holds a file for each kind it declares.
async fn start_agent(agent: AgentConfig) -> Result<(RunningReference, RunConfig), String> {
    let claims = EmbeddedClaims {
        accepts: agent.accepts.prefixes().to_vec(),
        sources: agent.sources().iter().map(|s| s.to_string()).collect(),
        echo: agent.echoes(),
        detail: false,
        streaming: false,
        by: "reference agent".into(),
    };
    let file_ids = agent
        .accepts
        .kinds()
        .iter()
        .filter_map(|kind| agui::known_file_id(kind).map(|id| (kind.clone(), id)))
        .collect();
    let running = agui::spawn(agent, loopback())
        .await
        .map_err(|e| format!("cannot start the AG-UI reference agent: {e}"))?;
    let endpoint = agui::endpoint_url(&running);
    let mut config = embedded_run(&endpoint, format!("reference agent ({endpoint})"))?;
    config.protocol = Some(crate::protocol::agui::PROFILE);
    config.claims.embedded = Some(claims);
    config.media_base_url = Some(agui::media_base_url(&endpoint));
    config.media_refs = file_ids;
    Ok((running, config))
}

impl OpenwopShape {
    fn token(&self) -> Option<Token> {
        self.token.then(|| Token {
            value: CALIBRATION_TOKEN.to_string(),
            origin: "calibration".to_string(),
        })
    }

    /// The host this shape runs with `fault`; it requires the run's token, if any.
    fn host(&self, fault: Option<Fault>) -> ReferenceConfig {
        ReferenceConfig {
            fault,
            token: self.token().map(|t| t.value),
            ..self.reference.clone()
        }
    }

    async fn start(
        &self,
        fault: Option<Fault>,
        upstream: Option<url::Url>,
    ) -> Result<(RunningReference, RunConfig), String> {
        let host = ReferenceConfig {
            upstream,
            ..self.host(fault)
        };
        let running = reference_hosts::spawn(host, loopback())
            .await
            .map_err(|e| format!("cannot start the reference host: {e}"))?;
        let base_url = running.base_url();
        let mut config = embedded_run(&base_url, format!("reference ({base_url})"))?;
        config.dialect = self.dialect;
        config.openwop_major = self.openwop_major;
        if self.media_base_url {
            config.media_base_url = Some(CALIBRATION_MEDIA_BASE_URL.to_string());
        }
        config.token = self.token();
        if let Some(endpoint) = &self.reference.compat_endpoint {
            // What `OPENWOP_TEST_COMPAT_ENDPOINT` and `--self-hosted-provider` set.
            config.compat_endpoint = Some(endpoint.clone());
            config
                .extra_secrets
                .extend(crate::protocol::openwop::self_hosted::secrets(endpoint));
            // At v1 the document names the id (so a URL-shaped one is seen); the v2
            // boolean cannot, so the run names it as a user would.
            if self.openwop_major != OpenwopMajor::One {
                config.self_hosted_provider = Some(NamedProvider {
                    id: reference_hosts::COMPAT_PROVIDER.to_string(),
                    named_by: "--self-hosted-provider (calibration)".into(),
                    fallback: false,
                });
            }
        }
        // The host's own mediaRefs, so the mediaRef positives run.
        for modality in &self.reference.modalities {
            if let Some(media_ref) = reference_hosts::known_media_ref(modality) {
                config
                    .media_refs
                    .insert(modality.clone(), media_ref.to_string());
            }
        }
        Ok((running, config))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference_hosts::agui::AguiFault;

    #[tokio::test]
    async fn names_are_unique_and_the_token_reaches_the_host() {
        let all = setups();
        let mut names: Vec<&str> = all.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        let with_token = all
            .iter()
            .find_map(|s| match &s.shape {
                Shape::Openwop(o) if o.token => Some(o),
                _ => None,
            })
            .unwrap();
        let host = with_token.host(Some(Fault::IgnoresAuth));
        assert_eq!(host.token.as_deref(), Some(CALIBRATION_TOKEN));
        assert_eq!(host.fault, Some(Fault::IgnoresAuth));
        let (running, config) = with_token.start(None, None).await.unwrap();
        let label = config.target_label.clone().unwrap();
        assert_eq!(label, format!("reference ({})", running.base_url()));
        assert!(!config.env_proxy);
        assert_eq!(
            config.token.as_ref().map(|t| t.value.as_str()),
            Some(CALIBRATION_TOKEN)
        );
        assert!(config.media_refs.contains_key("audio"));
        running.shutdown().await;
    }

    #[tokio::test]
    async fn agui_shapes_run_the_agent_with_its_declaration_and_fault() {
        let all = setups();
        let webp = all.iter().find(|s| s.name == "agui-webp").unwrap();
        assert_eq!(webp.profile(), "agui");
        let Shape::Agui(accepts, _) = webp.shape else {
            panic!("not an agui shape");
        };
        let variant = Variant::AguiHost(AguiFault::IgnoresMimePrefix);
        let agent = agent_config(accepts, Some(&variant)).unwrap();
        assert_eq!(agent.fault, Some(AguiFault::IgnoresMimePrefix));
        // An openwop fault means nothing to the agent: it runs faithfully.
        let faithful = agent_config(accepts, Some(&Variant::Host(Fault::IgnoresAuth))).unwrap();
        assert_eq!(faithful.fault, None);
        let Started {
            reference: running,
            config,
            witness,
        } = webp.start(Some(&variant), None, 2).await.unwrap();
        let running = running.expect("the agent is embedded");
        assert!(witness.is_none() && config.witness_url.is_none());
        assert_eq!(config.protocol, Some("agui"));
        let declared = config
            .claims
            .embedded
            .as_ref()
            .expect("the agent declares itself");
        assert_eq!(declared.accepts, vec!["image/webp".to_string()]);
        assert_eq!(declared.by, "reference agent");
        let endpoint = format!("{}/agui", running.base_url());
        assert_eq!(
            config.target_label.as_deref(),
            Some(format!("reference agent ({endpoint})").as_str())
        );
        assert_eq!(
            config.media_base_url,
            Some(format!("{}/media", running.base_url()))
        );
        assert_eq!(config.media_refs["image"], "mmconform-file-image");
        assert_eq!(config.concurrency, 2);
        running.shutdown().await;
    }
}
