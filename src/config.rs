//! The resolved configuration of a run. The CLI module turns arguments and environment
//! into these types once; nothing downstream reads clap types.

use crate::baseline::Baseline;
use crate::plan::filter::Filter;
use crate::redact::Redactor;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// TLS trust, from `--cacert` and `--insecure`.
#[derive(Debug, Clone, Default)]
pub struct TlsSettings {
    /// PEM bundle that replaces the system roots (curl's `--cacert`), and its path for
    /// the curl line.
    pub cacert_pem: Option<Vec<u8>>,
    pub cacert_path: Option<String>,
    /// Accept any certificate (`--insecure`); the run records a warning.
    pub insecure: bool,
}

/// Names available under `run.` in predicates and placeholders in every run (checked
/// by `lint`); a protocol may add its own (`Description::run_facts`).
pub const RUN_FACT_NAMES: [&str; 5] = [
    "tokenConfigured",
    "witnessed",
    "mediaBaseUrl",
    "mediaRefs",
    "externalProbeUrls",
];

/// What to test.
#[derive(Debug, Clone)]
pub enum Target {
    /// A host's base URL, or an AG-UI agent's run endpoint. An embedded reference host
    /// (`--target reference`) is started by the CLI and reached this way too.
    Url(url::Url),
    /// A program started once per request (`--target-cmd`, agentruntime's bridge),
    /// through the bounded child-process client (`crate::process`).
    Command(crate::process::Command),
    /// No target: only offline (schema validation) cases run.
    Offline,
}

/// A bearer token and where it came from (for messages; the value is never printed).
#[derive(Clone)]
pub struct Token {
    pub value: String,
    pub origin: String,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Token(from {})", self.origin)
    }
}

/// Where results go.
#[derive(Debug, Clone)]
pub struct Output {
    pub junit: Option<PathBuf>,
    pub report: Option<PathBuf>,
    /// `--html`: the run as one HTML page.
    pub html: Option<PathBuf>,
    /// `--annotations github`: a workflow command per failed and warned case.
    pub annotations: bool,
    pub color: bool,
    pub progress: bool,
    pub verbose: bool,
    /// `--quiet`: the terminal shows only what needs attention and the summary.
    pub quiet: bool,
    /// Where the Markdown verdict goes (`--github-summary`, `$GITHUB_STEP_SUMMARY`).
    pub summary: Option<(PathBuf, SummaryWrite)>,
}

/// How the Markdown verdict reaches its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryWrite {
    /// Replace the file atomically (`--github-summary FILE`).
    Replace,
    /// Append (`$GITHUB_STEP_SUMMARY`, shared by every step of the job).
    Append,
}

/// What the target is declared to accept, for a protocol without discovery (AG-UI).
/// The CLI collects it; the protocol reads it when the run opens.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Claims {
    /// `--accepts`: MIME prefixes.
    pub accepts: Vec<String>,
    /// `--claims FILE`.
    pub file: Option<PathBuf>,
    /// Declared by whoever started an embedded target (it knows what it accepts).
    pub embedded: Option<EmbeddedClaims>,
}

/// An embedded target's own declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddedClaims {
    pub accepts: Vec<String>,
    pub sources: Vec<String>,
    pub echo: bool,
    /// OpenAI: `image_url.detail` is honoured (passed on, or used).
    pub detail: bool,
    /// OpenAI: `stream: true` is offered.
    pub streaming: bool,
    /// Shown in reports as who declared it (`reference agent`).
    pub by: String,
}

impl Claims {
    pub fn is_empty(&self) -> bool {
        self.accepts.is_empty() && self.file.is_none() && self.embedded.is_none()
    }
}

#[derive(Debug, Clone)]
pub struct RunConfig {
    pub target: Target,
    /// The protocol's name, as the registry (`crate::registry`) lists it; `None`: the
    /// registry's default.
    pub protocol: Option<&'static str>,
    /// What the target is declared to accept (protocols without discovery).
    pub claims: Claims,
    /// How reports show the target, when not by its URL (`reference (http://...)`).
    pub target_label: Option<String>,
    /// Whether requests may go through the proxy the environment names (`HTTP_PROXY`,
    /// ...). Off for a host started in this process on loopback: a proxy can only break it.
    pub env_proxy: bool,
    /// The command line a rerun of this run starts from (`mmconform run ...` without
    /// its selection and outputs), for the rerun command reports end with.
    pub rerun_base: Vec<String>,
    /// The proxy the environment names for the target (`$HTTP_PROXY (URL)`), named in
    /// the hint when the target cannot be reached.
    pub proxy: Option<String>,
    pub token: Option<Token>,
    /// The environment variable the token is read from (`--token-env`, or the profile's
    /// own), named when a host asks for credentials; empty: none named.
    pub token_env: String,
    /// Extra headers sent with every request.
    pub headers: Vec<(String, String)>,
    pub timeout: Duration,
    pub concurrency: usize,
    pub filters: Vec<Filter>,
    pub filter_text: Vec<String>,
    pub strict: bool,
    pub require: bool,
    pub opted_out_profiles: Vec<String>,
    /// `--waive`: cases `--require` does not fail for what only the user can give.
    pub waived: Vec<Filter>,
    /// The protocol's own options (`--openwop-major`, `--model`, ...), as its
    /// declarations name them; the protocol reads them when the run opens.
    pub options: crate::protocol_options::ProtocolOptions,
    /// `--allow-external-probe-urls`: probe URLs may leave loopback, and the cases gated
    /// on it (`scenario::external_gate`) run.
    pub allow_external_probe_urls: bool,
    pub media_base_url: Option<String>,
    pub media_refs: BTreeMap<String, String>,
    /// Largest part the limit probe will send (bytes).
    pub max_probe_bytes: u64,
    /// Response bodies are read up to this many bytes.
    pub max_response_bytes: usize,
    /// `--schemas DIR`: schema files that replace the shipped ones by name.
    pub schemas_dir: Option<PathBuf>,
    /// `--baseline FILE`: known failures, reported as xfail.
    pub baseline: Option<Baseline>,
    pub output: Output,
    /// `--secret-header`: lower-case names of headers whose values are masked everywhere.
    pub secret_headers: Vec<String>,
    /// Values never written anywhere besides the token: secret header values, passwords
    /// in the target URL or the proxy variables.
    pub extra_secrets: Vec<String>,
    /// Same-origin redirects followed at most (`--max-redirects`).
    pub max_redirects: usize,
    /// Retries after no answer or a 429/503 with Retry-After (`--retries`).
    pub retries: u32,
    /// Least time between two request starts (`--rate`).
    pub min_interval: Option<Duration>,
    /// The whole run's time bound (`--deadline`).
    pub deadline: Option<Duration>,
    pub tls: TlsSettings,
    /// Shown at the start of the run and kept in every report.
    pub warnings: Vec<String>,
    /// The base URL of the witness the run started (`--witness`), where the host's model
    /// calls are expected; recorded in the reports.
    pub witness_url: Option<String>,
    /// How long to wait after a case for a model call carrying its nonce (`--witness-wait`).
    pub witness_wait: Duration,
    /// The provider a request asks the host to send its model calls through, when the
    /// run has a witness (`--witness-provider`; the protocols whose requests name one).
    pub model_provider: Option<String>,
    /// A target that is a program: what its environment gets and loses.
    pub agent: AgentSettings,
}

/// How a program target is started beyond its command (`--target-env`,
/// `--target-unset`). The values of `env` are secrets to the reports (they often are
/// keys): only the names are shown.
#[derive(Debug, Clone, Default)]
pub struct AgentSettings {
    /// `--target-env NAME=VALUE`.
    pub env: Vec<(String, String)>,
    /// `--target-env NAME`: passed on from mmconform's environment.
    pub pass: Vec<String>,
    pub unset: Vec<String>,
    /// `--target-inherit-env`: all of mmconform's environment, not the allow-list.
    pub inherit_env: bool,
}

impl AgentSettings {
    /// The environment a started program gets (before the protocol adds its own).
    pub fn environment(&self) -> crate::process::Environment {
        crate::process::Environment {
            inherit_all: self.inherit_env,
            pass: self.pass.clone(),
            set: self.env.clone(),
            unset: self.unset.clone(),
        }
    }

    /// What a report records of it: names only (a value set is often a key).
    pub fn record(&self) -> serde_json::Value {
        let set: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        serde_json::json!({
            "set": set,
            "passed": self.pass,
            "unset": self.unset,
            "inheritAll": self.inherit_env,
        })
    }
}

impl RunConfig {
    /// The `run.*` facts every planning context holds, whatever the protocol: what this
    /// run was given (a token, media URLs and references); the protocol's run adds its
    /// own (`ProtocolRun::run_facts`).
    pub fn run_facts(&self) -> serde_json::Value {
        serde_json::json!({
            "tokenConfigured": self.token.is_some(),
            "witnessed": self.witness_url.is_some(),
            "mediaBaseUrl": self.media_base_url,
            "mediaRefs": self.media_refs,
            "externalProbeUrls": self.allow_external_probe_urls,
        })
    }

    /// The redactor every output of this run goes through.
    pub fn redactor(&self) -> Redactor {
        let secrets = self
            .token
            .iter()
            .map(|t| t.value.clone())
            .chain(self.extra_secrets.iter().cloned());
        Redactor::new(secrets).with_sensitive_headers(&self.secret_headers)
    }

    /// A run against `target` with every option at its documented default; the CLI and
    /// calibration start from here and change what they were asked to.
    pub fn new(target: Target) -> RunConfig {
        RunConfig {
            target,
            protocol: None,
            claims: Claims::default(),
            target_label: None,
            env_proxy: true,
            proxy: None,
            rerun_base: Vec::new(),
            token: None,
            token_env: String::new(),
            headers: Vec::new(),
            timeout: Duration::from_secs(30),
            concurrency: 8,
            filters: Vec::new(),
            filter_text: Vec::new(),
            strict: false,
            require: false,
            opted_out_profiles: Vec::new(),
            waived: Vec::new(),
            options: Default::default(),
            allow_external_probe_urls: false,
            media_base_url: None,
            media_refs: BTreeMap::new(),
            max_probe_bytes: 16 * 1024 * 1024,
            max_response_bytes: 4 * 1024 * 1024,
            schemas_dir: None,
            baseline: None,
            output: Output {
                junit: None,
                report: None,
                html: None,
                annotations: false,
                color: false,
                progress: false,
                verbose: false,
                quiet: false,
                summary: None,
            },
            secret_headers: Vec::new(),
            extra_secrets: Vec::new(),
            max_redirects: 5,
            retries: 2,
            min_interval: None,
            deadline: None,
            tls: TlsSettings::default(),
            warnings: Vec::new(),
            witness_url: None,
            witness_wait: Duration::from_secs(3),
            model_provider: None,
            agent: AgentSettings::default(),
        }
    }

    /// Points the run at a host started in this process on loopback (`--target
    /// reference`, calibration): reached at `url`, shown as `label`, never through a proxy.
    pub fn point_at_embedded(&mut self, url: url::Url, label: String) {
        self.target = Target::Url(url);
        self.target_label = Some(label);
        self.env_proxy = false;
        self.proxy = None;
    }
}
