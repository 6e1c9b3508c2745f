//! Protocols: each wire mmconform speaks is one folder here, and one line in the
//! registry (`crate::registry`). Everything outside these folders is protocol-neutral: the planner
//! plans against whatever context a protocol provides, the executor runs whatever case
//! a protocol sends, the judges in `crate::judge` read any [`Answer`](crate::judge::Answer),
//! and the reporters show [`ProtocolEvidence`](crate::outcome::ProtocolEvidence) without
//! knowing what it holds. `docs/architecture.md` says what a new folder must provide.

pub mod a2a;
pub mod acp;
pub mod agentruntime;
pub mod agui;
pub mod anthropic;
pub mod claims_file;
pub mod declared_media;
pub mod description;
pub mod door;
pub mod media_server;

pub mod openwop;

pub mod openai;
pub mod openai_responses;

pub mod single_endpoint;
pub mod sse_read;
pub mod stream_post;

use crate::config::RunConfig;
use crate::event::DiscoverySnapshot;
use crate::http::HttpClient;
use crate::judge::catalog::SchemaCatalog;
use crate::observation::Observation;
use crate::outcome::{AssertionResult, CaseResult, EvidenceView, ProtocolEvidence};
use crate::plan::PlannedCase;
use crate::scenario::model::CaseSpec;
use crate::scenario::suite::{Suite, SuiteCase};
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::Arc;

pub(crate) use crate::protocol_options as options;
pub use description::{Description, ExpectKey, PlannedOn, TargetKind, UrlTarget, UserDeclaration};

/// The modalities a media reference (`--media-ref MODALITY=REF`) names, where a
/// protocol's parts are named by modality.
pub const MEDIA_MODALITIES: [&str; 3] = ["image", "audio", "document"];

/// A problem `lint` reports in a case of a protocol's file.
pub struct LintFinding {
    /// JSON pointer into the scenario file.
    pub pointer: String,
    /// The pointer names a key (the diagnostic points at the key, not its value).
    pub key: bool,
    pub message: String,
}

impl LintFinding {
    pub fn new(pointer: String, key: bool, message: String) -> LintFinding {
        LintFinding {
            pointer,
            key,
            message,
        }
    }
}

/// A protocol as the registry knows it: its name, what scenario files may say in it,
/// and how a run of it starts.
pub trait Protocol: Sync {
    /// What it says about itself: name, summary, target, token variable, ...
    fn description(&self) -> &'static Description;

    /// The name scenario files use in `profile:` and `--profile` takes.
    fn name(&self) -> &'static str {
        self.description().name
    }

    /// The context roots (`openwop`, `agui`) and fact names its planning context holds,
    /// for `lint` to check placeholders and predicate paths against.
    fn vocabulary(&self) -> Vec<(String, Option<Vec<String>>)>;

    /// Problems with a case of a file of this protocol: endpoints, part spellings and
    /// expectations that belong to another protocol. `raw` is the case as written.
    fn lint_case(&self, case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding>;

    /// Starts a run from the resolved configuration. `Err` is a usage error (exit 2),
    /// found before any request: a declaration that is missing or does not parse.
    fn open(&self, config: &Arc<RunConfig>) -> Result<Box<dyn ProtocolRun>, String>;

    /// The header the token travels in as it is (`x-api-key`); `None`: a bearer token.
    fn api_key_header(&self) -> Option<&'static str> {
        None
    }

    /// What it reads in a saved report of one of its runs that the evidence merge
    /// cannot read generically: its wire, what its discovery advertised, the variant all
    /// its cases were judged at.
    fn read_report(&self, _report: &Value) -> crate::evidence::input::ReportReading {
        Default::default()
    }

    /// Checks the run's options before anything starts (an error is a usage error, exit
    /// 2) and names the values among them that are secrets, for the redactor (RFC
    /// 0108's endpoint). The run reads them again when it opens.
    fn check_options(&self, _options: &options::ProtocolOptions) -> Result<Vec<String>, String> {
        Ok(Vec::new())
    }

    /// Settles, before the session opens, what the run's options leave to the target
    /// (the model doors: the one model `GET {base}/models` lists when `--model` is
    /// absent); `client` makes a client for the target. `Err` is a usage error (exit 2).
    fn prepare<'a>(
        &'a self,
        _config: &'a mut RunConfig,
        _client: &'a ClientMaker,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// Makes the HTTP client of a run's target, for [`Protocol::prepare`].
pub type ClientMaker = dyn Fn() -> Result<HttpClient, String> + Send + Sync;

/// What a protocol learned about the target before planning.
pub struct Discovered {
    /// The planning context (`discovery.*`, `openwop.*`, `agui.*`; `run.*` is added by
    /// the session).
    pub context: Map<String, Value>,
    /// What discovery returned, when the protocol has discovery and it was fetched.
    pub snapshot: Option<DiscoverySnapshot>,
    /// Why the target's own description is unusable (exit 4), when it is.
    pub problem: Option<String>,
    /// Further planning contexts, by tag (openwop auto: `v2`, from the v2 root), for the
    /// cases [`ProtocolRun::arrange`] puts there (`run.*` is added by the session).
    pub variants: Vec<(String, crate::plan::contexts::VariantContext)>,
}

pub use crate::plan::settle::Probed;

/// Marks every endpoint not in `own` as unusable: a run of `profile` sends to its own
/// endpoints only, so a case naming another (a scenario of a different wire) is a tool
/// error.
pub fn refuse_other_endpoints(
    probed: &mut Probed,
    endpoints: &BTreeSet<String>,
    own: &[&str],
    profile: &str,
) {
    for other in endpoints.iter().filter(|e| !own.contains(&e.as_str())) {
        let reason = format!("an {profile} run cannot send to `{other}`");
        probed
            .unusable
            .insert(other.clone(), (crate::outcome::Outcome::Error, reason));
    }
}

/// Everything one case needs from the run.
pub struct CaseInput<'a> {
    pub planned: &'a PlannedCase,
    pub case: &'a SuiteCase,
    pub client: &'a HttpClient,
    pub catalog: &'a SchemaCatalog,
    pub context: &'a Value,
    /// The case's own nonce (`PlannedCase::nonce`): `{nonce}`, media stamps and echo
    /// comparisons use it. The run's nonce is `RunInfo::nonce`.
    pub nonce: &'a str,
}

/// One run of a protocol: the state it keeps between discovery and the cases.
pub trait ProtocolRun: Send + Sync {
    /// The options the run was started with (JSON report) and how reporters show them.
    fn options(&self) -> (Map<String, Value>, EvidenceView) {
        (Map::new(), EvidenceView::default())
    }

    /// Facts the run adds under `run.` in every planning context (openwop: the part
    /// spelling and the protocol major); their names are `Description::run_facts`.
    fn run_facts(&self) -> Map<String, Value> {
        Map::new()
    }

    /// What the target is declared to accept, for a protocol without discovery.
    fn declared(&self) -> Option<ProtocolEvidence> {
        None
    }

    /// The base URL requests go to, from the target URL as given (userinfo removed).
    fn base_url(&self, shown: &url::Url) -> String {
        shown.as_str().trim_end_matches('/').to_string()
    }

    /// Learns what the target offers, without sending anything when `client` is
    /// `None` (`--offline`, or `list` without a target).
    fn discover<'a>(&'a mut self, client: Option<&'a HttpClient>) -> BoxFuture<'a, Discovered>;

    /// Checks, once each, that the endpoints the runnable cases send to exist.
    fn probe<'a>(
        &'a self,
        client: &'a HttpClient,
        endpoints: &'a BTreeSet<String>,
        nonce: &'a str,
    ) -> BoxFuture<'a, Probed>;

    /// Whether the cases may be sent while [`probe`](Self::probe) is in flight: a case
    /// on an endpoint the probe then finds unusable is blocked with the probe's reason
    /// (its exchange kept, its answer not judged). One round trip fewer before the first
    /// case; the price is that a host without the endpoint receives those cases too.
    /// `false` (the default): no case is sent before the probes have answered.
    fn send_while_probing(&self) -> bool {
        false
    }

    /// A case this run leaves out whatever the target says, and why: a choice of the
    /// run, like `--filter` (openwop: a case of the other protocol major). Excluded, so
    /// `--require` does not turn it into a failure.
    fn excludes(&self, _case: &SuiteCase, _context: &Value) -> Option<String> {
        None
    }

    /// The suite to plan once discovery found `variants` (tags of
    /// [`Discovered::variants`]): a case moved into a variant, or copied there with the
    /// variant in its id, carries it in `SuiteCase::variant`. `None`: the suite as it is.
    fn arrange(&self, _suite: &Suite, _variants: &[String]) -> Option<Suite> {
        None
    }

    /// Whether [`observe_on_hand`](Self::observe_on_hand) judges this case (so the
    /// executor can send every other case first).
    fn on_hand(&self, _case: &SuiteCase) -> bool {
        false
    }

    /// Judges a case on what the run already holds, without a request (openwop's
    /// discovery cases judge the document fetched once); `None` when it must send. Like
    /// [`run_case`](Self::run_case), it returns what it observed, not a verdict.
    fn observe_on_hand(&self, _input: &CaseInput) -> Option<Observation> {
        None
    }

    /// Sends one case's request, reads and classifies the answer and judges it: what
    /// was observed (assertions, notes, what could not be judged and why, the
    /// protocol's evidence and exchanges). The verdict is the runner's
    /// (`runner::verdict`).
    fn run_case<'a>(&'a self, input: CaseInput<'a>) -> BoxFuture<'a, Observation>;

    /// After the witness judged a case (`run --witness`), before the verdict: the
    /// protocol may name, in its own terms, what the model calls in `record` showed,
    /// in the `witness` assertions (ACP: a block it does not advertise, "used anyway").
    /// Most protocols add nothing.
    fn after_witness(&self, _record: &CaseResult, _witness: &mut [AssertionResult]) {}

    /// After the last case: end what the run keeps running (ACP's one agent process:
    /// SIGTERM, then SIGKILL after a grace). Most protocols hold nothing.
    fn finish(&self) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
}

/// What the protocol `own` of a file (`profile:`) finds foreign in one of its cases:
/// its own checks, a key of `expect:` only other protocols read (`all`), and a value
/// of one of its own keys that is not one it reads.
pub fn lint_file_case<'a>(
    own: &dyn Protocol,
    all: impl Iterator<Item = &'a dyn Protocol>,
    case: &CaseSpec,
    raw: &Value,
    base: &str,
) -> Vec<crate::scenario::checks::Finding> {
    let mut findings = own.lint_case(case, raw, base);
    let written: Vec<&str> = raw
        .get("expect")
        .and_then(Value::as_object)
        .map(|expect| expect.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let owned = own.description().expect_keys;
    let others: Vec<&dyn Protocol> = all.filter(|p| p.name() != own.name()).collect();
    for key in written {
        let pointer = format!("{base}/expect/{key}");
        if let Some(mine) = owned.iter().find(|k| k.key == key) {
            if let Some(value) = raw.pointer(&format!("/expect/{key}"))
                && let Err(e) = (mine.check)(value)
            {
                findings.push(LintFinding::new(
                    pointer,
                    false,
                    format!("`expect.{key}`: {e}"),
                ));
            }
            continue;
        }
        let owners: Vec<&dyn Protocol> = others
            .iter()
            .copied()
            .filter(|p| p.description().expect_keys.iter().any(|k| k.key == key))
            .collect();
        let Some(first) = owners.first() else {
            continue;
        };
        let about = first
            .description()
            .expect_keys
            .iter()
            .find(|k| k.key == key)
            .map_or("", |k| k.about);
        let names: Vec<&str> = owners.iter().map(|p| p.name()).collect();
        findings.push(LintFinding::new(
            pointer,
            true,
            format!("`expect.{key}` {about} (profile: {})", names.join(", ")),
        ));
    }
    findings
        .into_iter()
        .map(|f| (f.pointer, f.key, f.message))
        .collect()
}

/// The lint vocabulary of `protocols`, plus the roots every run has.
pub fn context_vocabulary<'a>(
    protocols: impl Iterator<Item = &'a dyn Protocol>,
) -> Vec<(String, Option<Vec<String>>)> {
    let mut roots: Vec<(String, Option<Vec<String>>)> = Vec::new();
    let mut run: Vec<String> = crate::config::RUN_FACT_NAMES
        .iter()
        .map(|s| s.to_string())
        .collect();
    for protocol in protocols {
        roots.extend(protocol.vocabulary());
        run.extend(
            protocol
                .description()
                .run_facts
                .iter()
                .map(|s| s.to_string()),
        );
    }
    roots.push(("run".to_string(), Some(run)));
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_endpoint_run_refuses_every_other_endpoint_as_a_tool_error() {
        let endpoints: BTreeSet<String> = ["agui-run", "ai-call", "envelope-accept"]
            .into_iter()
            .map(String::from)
            .collect();
        let mut probed = Probed::default();
        refuse_other_endpoints(&mut probed, &endpoints, &["agui-run"], "agui");
        assert!(!probed.unusable.contains_key("agui-run"));
        assert_eq!(
            probed.unusable["ai-call"],
            (
                crate::outcome::Outcome::Error,
                "an agui run cannot send to `ai-call`".to_string()
            )
        );
        assert!(probed.unusable.contains_key("envelope-accept"));
    }
}
