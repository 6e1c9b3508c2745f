//! The events a run emits. Reporters consume these and nothing else.

use crate::outcome::{CaseResult, EvidenceView, Outcome, ProtocolEvidence};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Facts about the run itself, known before any request is sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub tool_version: String,
    /// The protocol spoken, as scenario files name it in `profile:`.
    pub profile: String,
    /// Target base URL with any userinfo stripped, or `reference (http://127.0.0.1:PORT)`.
    pub target: String,
    /// The protocol's own run options (openwop: `dialect`, `openwop_major`), listed
    /// in the JSON report beside the run's other fields.
    #[serde(flatten)]
    pub protocol_options: serde_json::Map<String, serde_json::Value>,
    pub strict: bool,
    pub require: bool,
    pub opted_out_profiles: Vec<String>,
    pub filters: Vec<String>,
    pub concurrency: usize,
    /// RFC 3339 UTC timestamp.
    pub started_at: String,
    /// The run's nonce; each case's media are stamped with `<nonce>-c<plan index>`.
    pub nonce: String,
    /// SHA-256 over the scenario files actually loaded (path and bytes, in load order).
    pub scenario_set_sha256: String,
    /// (file, SHA-256) of each scenario file, in load order.
    pub scenario_files: Vec<(String, String)>,
    /// What the target is declared to accept, for a protocol with no discovery (AG-UI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<ProtocolEvidence>,
    /// The `--baseline` file the run was judged with, if any.
    #[serde(default)]
    pub baseline: Option<BaselineInfo>,
    /// Things about this run a reader of its evidence must know: TLS verification off
    /// (`--insecure`), a secret given on the command line, a proxy in the path.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// `--insecure`: certificates were not verified.
    #[serde(default)]
    pub insecure_tls: bool,
    /// The base URL of the witness the run started (`run --witness`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<String>,
    /// The command line a rerun starts from (`mmconform run ...` without its selection
    /// and outputs); empty when the run was not started from a command line.
    #[serde(skip)]
    pub rerun_base: Vec<String>,
    /// The JSON report the run writes, which `--rerun-failed` can read back.
    #[serde(skip)]
    pub report_file: Option<String>,
    /// How reporters show the protocol's part of the run header: the options
    /// (`dialect spec`) and properties (`dialect`, `openwop.major`). Not in the JSON
    /// report: the protocol derives it from the fields above.
    #[serde(skip)]
    pub protocol_view: EvidenceView,
}

/// Which baseline a run used: enough to tell two runs' baselines apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineInfo {
    pub file: String,
    pub sha256: String,
    pub entries: usize,
}

/// What discovery returned, verbatim, plus what the profile derived from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiscoverySnapshot {
    pub url: String,
    pub status: Option<u16>,
    /// The parsed document, verbatim (key order preserved), when it was JSON.
    pub document: Option<serde_json::Value>,
    /// SHA-256 of the document serialised with object keys sorted and no whitespace.
    pub canonical_sha256: Option<String>,
    /// Why the document is unusable, when it is.
    pub problem: Option<String>,
    /// Facts the profile derived (effective modalities, limits, seam presence...).
    pub facts: serde_json::Value,
    /// The same resource fetched for a further planning context, by the tag its cases
    /// carry (openwop `--openwop-major auto`: `v2`, the root `OpenWOP-Version: 2` got).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variants: BTreeMap<String, DiscoverySnapshot>,
    /// What the run says once about the description (openwop auto: a host that lists no
    /// 2.x version does not speak v2, so only the v1 suite ran).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The end of a run: counts per outcome and the exit code decided in `exit.rs`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// The host's cases per outcome (every case but the self-checks).
    pub counts: BTreeMap<Outcome, usize>,
    /// The offline cases that check mmconform's own schema files, per outcome: not
    /// evidence about the host, so never in `counts`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub self_checks: BTreeMap<Outcome, usize>,
    pub exit_code: i32,
    /// One word: `passed`, `failed`, `insufficient-evidence`, `unreachable`, `internal-error`, `interrupted`.
    pub verdict: String,
    /// Why the exit code is what it is, in one sentence.
    pub explanation: String,
    pub duration_ms: u64,
    pub finished_at: String,
    /// True when the run stopped before every planned case was decided.
    pub incomplete: bool,
    /// Baseline entries that no longer describe the host (exit 5), one sentence each.
    #[serde(default)]
    pub baseline_drift: Vec<String>,
    /// Cases whose request had to be retried (no answer, or 429/503 with Retry-After).
    #[serde(default)]
    pub flaky: usize,
    /// True when `--deadline` passed; cases undecided then are `blocked`.
    #[serde(default)]
    pub deadline_reached: bool,
    /// What the user can do about the run as a whole, one line each (an authentication
    /// answer to many cases, passes that could not see the far end).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advice: Vec<String>,
}

impl RunSummary {
    pub fn count(&self, outcome: Outcome) -> usize {
        self.counts.get(&outcome).copied().unwrap_or(0)
    }
}

/// One request the run sent, as the JSON report lists it under `requests`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireEntry {
    /// Order sent, from 1; a case's exchange cites it.
    pub seq: u64,
    pub method: String,
    pub url: String,
    /// Why it was sent: `discovery`, `probe ...`, or the case id.
    pub purpose: String,
    /// The status that answered it, when one did.
    pub status: Option<u16>,
    /// Why no answer came (refused, timed out, stopped), when none did.
    pub failure: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Event {
    RunStarted(Box<RunInfo>),
    Discovery(DiscoverySnapshot),
    /// Every expanded case the run will report, in plan order (skipped and excluded included).
    Planned {
        total: usize,
    },
    /// One case decided. `index` is its position in plan order.
    CaseFinished {
        index: usize,
        result: Box<CaseResult>,
    },
    /// The target cannot be used (unreachable, or its description unusable): every case
    /// that depends on it is blocked with exactly `reason`; `hint` says what to check.
    TargetUnusable {
        reason: String,
        hint: String,
    },
    /// Every request the run sent, in the order sent; just before `RunFinished`.
    Wire(Vec<WireEntry>),
    RunFinished(RunSummary),
}
