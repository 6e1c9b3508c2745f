//! One A2A run: the card is fetched once (`discovery.rs`); its first interface
//! mmconform speaks is the run's own planning context and each further one a variant,
//! every message case copied there as `<id>@<tag>`; the card cases are judged on hand;
//! each interface is probed once; each case is sent on its interface. Media for `url`
//! parts is served by mmconform on loopback for the run (`protocol::media_server`)
//! unless `--media-base-url` says where it is.

use super::case::{self, CaseEnv};
use super::discovery::{self, Fetched};
use super::interface::Interface;
use super::{ENDPOINT_CARD, PROFILE, card_case, probe};
use crate::config::RunConfig;
use crate::http::HttpClient;
use crate::observation::Observation;
use crate::outcome::{AssertionResult, CaseResult};
use crate::plan::contexts::VariantContext;
use crate::protocol::media_server::{MediaServer, extension};
use crate::protocol::{CaseInput, Discovered, Probed, ProtocolRun, refuse_other_endpoints};
use crate::scenario::model::Predicate;
use crate::scenario::suite::{Suite, SuiteCase};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long to wait after a stream's end for events that would break it.
const AFTER_TERMINAL_GRACE: Duration = Duration::from_millis(300);

pub struct A2aRun {
    config: Arc<RunConfig>,
    /// `--accepts`, overriding the card.
    accepts: Option<Vec<String>>,
    /// The target's path: the card is below it.
    base_path: String,
    fetched: Option<Fetched>,
    /// The interfaces spoken, each with its variant tag (`None`: the run's own).
    interfaces: Vec<(Option<String>, Interface)>,
    media: Mutex<Option<MediaServer>>,
    media_base: Option<String>,
}

impl A2aRun {
    pub fn new(config: Arc<RunConfig>, accepts: Option<Vec<String>>) -> A2aRun {
        let base_path = match &config.target {
            crate::config::Target::Url(url) => url.path().trim_end_matches('/').to_string(),
            _ => String::new(),
        };
        A2aRun {
            config,
            accepts,
            base_path,
            fetched: None,
            interfaces: Vec::new(),
            media: Mutex::new(None),
            media_base: None,
        }
    }

    fn media_url(&self, nonce: &str, kind: &str, mime: &str) -> Option<String> {
        if let Some(base) = &self.config.media_base_url {
            return Some(format!(
                "{}/{kind}.{}",
                base.trim_end_matches('/'),
                extension(mime)
            ));
        }
        let base = self.media_base.as_ref()?;
        Some(format!("{base}/{nonce}/{kind}.{}", extension(mime)))
    }

    /// The interface an endpoint's tag names.
    fn interface_of(&self, endpoint: &str) -> Option<&Interface> {
        let tag = endpoint.split_once('@').map(|(_, t)| t.to_string());
        self.interfaces
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|(_, i)| i)
    }
}

/// The target's origin (`http://host:port`), where every request goes.
fn origin(shown: &url::Url) -> String {
    shown.origin().ascii_serialization()
}

impl ProtocolRun for A2aRun {
    /// Requests go to the target's origin: the card is below the target's path, the
    /// interfaces at the paths the card names.
    fn base_url(&self, shown: &url::Url) -> String {
        origin(shown)
    }

    fn discover<'a>(&'a mut self, client: Option<&'a HttpClient>) -> BoxFuture<'a, Discovered> {
        async move {
            let Some(client) = client else {
                return Discovered {
                    context: Map::new(),
                    snapshot: None,
                    problem: None,
                    variants: Vec::new(),
                };
            };
            let origin = url::Url::parse(&client.url("/"))
                .unwrap_or_else(|_| url::Url::parse("http://127.0.0.1/").expect("a URL"));
            let fetched =
                discovery::fetch(client, &self.base_path, &origin, self.accepts.as_deref()).await;
            let spoken: Vec<Interface> = fetched
                .card
                .as_ref()
                .map(|c| c.interfaces.clone())
                .unwrap_or_default();
            self.interfaces = match spoken.first() {
                Some(main) => spoken.iter().map(|i| (i.tag(main), i.clone())).collect(),
                None => Vec::new(),
            };
            let main_context = fetched.context(spoken.first(), None);
            let variants = self
                .interfaces
                .iter()
                .filter_map(|(tag, interface)| {
                    let tag = tag.clone()?;
                    let context = fetched.context(Some(interface), Some(&tag));
                    Some((
                        tag,
                        VariantContext {
                            context,
                            problem: None,
                        },
                    ))
                })
                .collect();
            if self.config.media_base_url.is_none() && !spoken.is_empty() {
                // A server that cannot start leaves `url` parts unbuildable: their cases
                // then say so (a url part needs media to point at).
                if let Ok(server) = MediaServer::start().await {
                    self.media_base = Some(server.base().to_string());
                    *self.media.lock().unwrap_or_else(|p| p.into_inner()) = Some(server);
                }
            }
            let snapshot = fetched.snapshot(client.url(&fetched.path), &main_context);
            let problem = fetched.problem.clone();
            let Value::Object(context) = main_context else {
                unreachable!("the context is an object")
            };
            self.fetched = Some(fetched);
            Discovered {
                context,
                snapshot: Some(snapshot),
                problem,
                variants,
            }
        }
        .boxed()
    }

    fn arrange(&self, suite: &Suite, variants: &[String]) -> Option<Suite> {
        if variants.is_empty() {
            return None;
        }
        let mut cases = suite.cases.clone();
        for tag in variants {
            let version = self
                .interfaces
                .iter()
                .find(|(t, _)| t.as_deref() == Some(tag.as_str()))
                .map(|(_, i)| i.version.number());
            for case in &suite.cases {
                if on_the_card(case) || case.spec.endpoint().is_none() {
                    continue;
                }
                // A case written for one version is not copied to the other's
                // interface: there it could only ever be skipped.
                if written_for(case).is_some_and(|v| Some(v) != version) {
                    continue;
                }
                let mut copy = case.clone();
                copy.variant = Some(tag.clone());
                let spec = std::sync::Arc::make_mut(&mut copy.spec);
                spec.id = format!("{}@{tag}", case.spec.id);
                if let Some(request) = &mut spec.request {
                    request.endpoint = format!("{}@{tag}", request.endpoint);
                }
                spec.requirement.source = format!("{} ({tag})", spec.requirement.source);
                cases.push(copy);
            }
        }
        Some(Suite {
            cases,
            ..suite.clone()
        })
    }

    fn probe<'a>(
        &'a self,
        client: &'a HttpClient,
        endpoints: &'a BTreeSet<String>,
        nonce: &'a str,
    ) -> BoxFuture<'a, Probed> {
        async move {
            let mut probed = Probed::default();
            let ours: Vec<&String> = endpoints
                .iter()
                .filter(|e| case::operation_of(e).is_some())
                .collect();
            if self.interfaces.is_empty() && !ours.is_empty() {
                let why = match self.fetched.as_ref().and_then(|f| f.card.as_ref()) {
                    Some(card) if !card.unspoken.is_empty() => format!(
                        "the card declares no interface mmconform speaks: {}",
                        card.unspoken.join("; ")
                    ),
                    Some(_) => "the card declares no interface (supportedInterfaces, or a url with preferredTransport)".to_string(),
                    None => "there is no agent card to read the interfaces from".to_string(),
                };
                probe::block_all(&mut probed, ours.iter().map(|e| e.to_string()), &why);
            }
            let mut seen: Vec<(Option<String>, Option<String>)> = Vec::new();
            for endpoint in &ours {
                let tag = endpoint.split_once('@').map(|(_, t)| t.to_string());
                let Some(interface) = self.interface_of(endpoint) else { continue };
                let verdict = match seen.iter().find(|(t, _)| *t == tag) {
                    Some((_, v)) => v.clone(),
                    None => {
                        let v = probe::probe_interface(client, interface, nonce).await;
                        seen.push((tag.clone(), v.clone()));
                        v
                    }
                };
                if let Some(why) = verdict {
                    probe::block_all(&mut probed, std::iter::once(endpoint.to_string()), &why);
                }
            }
            let mut own: Vec<&str> = ours.iter().map(|e| e.as_str()).collect();
            own.push(ENDPOINT_CARD);
            refuse_other_endpoints(&mut probed, endpoints, &own, PROFILE);
            probed
        }
        .boxed()
    }

    /// A case written for the other version than the interface's: left out, as
    /// `--filter` would (the interface's version is the card's choice, not a defect).
    fn excludes(&self, case: &SuiteCase, context: &Value) -> Option<String> {
        let written = written_for(case)?;
        let speaks = context.pointer("/a2a/version").and_then(Value::as_str)?;
        (written != speaks)
            .then(|| format!("an A2A {written} case; this interface speaks {speaks}"))
    }

    fn on_hand(&self, case: &SuiteCase) -> bool {
        on_the_card(case)
    }

    fn observe_on_hand(&self, input: &CaseInput) -> Option<Observation> {
        if !on_the_card(input.case) {
            return None;
        }
        let fetched = self.fetched.as_ref()?;
        Some(card_case::observe(
            input.planned,
            input.case,
            input.context,
            input.nonce,
            input.catalog,
            fetched,
        ))
    }

    fn run_case<'a>(&'a self, input: CaseInput<'a>) -> BoxFuture<'a, Observation> {
        async move {
            let media_url = |nonce: &str, kind: &str, mime: &str| self.media_url(nonce, kind, mime);
            let env = CaseEnv {
                client: input.client,
                catalog: input.catalog,
                grace: AFTER_TERMINAL_GRACE.min(self.config.timeout),
                timeout: self.config.timeout,
                media_url: &media_url,
            };
            case::run_case(input.planned, input.case, input.context, input.nonce, &env).await
        }
        .boxed()
    }

    fn after_witness(&self, record: &CaseResult, witness: &mut [AssertionResult]) {
        super::unadvertised::name(record, witness);
    }

    fn finish(&self) -> BoxFuture<'_, ()> {
        if let Some(mut server) = self.media.lock().unwrap_or_else(|p| p.into_inner()).take() {
            server.stop();
        }
        Box::pin(std::future::ready(()))
    }
}

/// The version a case is written for, from a top-level `a2a.version` equality.
fn written_for(case: &SuiteCase) -> Option<&str> {
    case.spec.applies.iter().find_map(|p| match p {
        Predicate::Atom(check) if check.path == "a2a.version" => {
            check.equals.as_ref().and_then(Value::as_str)
        }
        _ => None,
    })
}

/// A case judged on the card.
fn on_the_card(case: &SuiteCase) -> bool {
    case.spec
        .endpoint()
        .is_some_and(|e| e.split('@').next() == Some(ENDPOINT_CARD))
}
