//! What a case can end as, and the evidence behind it.
//!
//! Outcomes are decided once, by `runner::verdict`, never by reporters: reporters only
//! render a `CaseResult` they receive in an event.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How binding a requirement is (RFC 2119 keywords).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Level {
    #[serde(rename = "MUST")]
    Must,
    #[serde(rename = "SHOULD")]
    Should,
    #[serde(rename = "MAY")]
    May,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::May => "MAY",
        })
    }
}

/// The verdict on one expanded case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Every assertion held (and at least one ran).
    Pass,
    /// A MUST was not met (or a SHOULD under `--strict`, or a skip/blocked under `--require`).
    Fail,
    /// A SHOULD or MAY was not met.
    Warn,
    /// Not applicable to this target; the reason names the discovery fact.
    Skip,
    /// Filtered out by the user.
    Excluded,
    /// The behaviour could not be observed (seam missing, transport loss, zero assertions).
    Blocked,
    /// A defect in the tool or in a scenario file.
    Error,
    /// A failure the `--baseline` file lists as known: reported, not failing the run.
    Xfail,
}

impl Outcome {
    pub const ALL: [Outcome; 8] = [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Warn,
        Outcome::Skip,
        Outcome::Excluded,
        Outcome::Blocked,
        Outcome::Error,
        Outcome::Xfail,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Warn => "warn",
            Outcome::Skip => "skip",
            Outcome::Excluded => "excluded",
            Outcome::Blocked => "blocked",
            Outcome::Error => "error",
            Outcome::Xfail => "xfail",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The requirement a case checks, as cited in the scenario file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requirement {
    /// Where the requirement comes from, e.g. "RFC 0091 §A".
    pub source: String,
    pub level: Level,
    /// The normative sentence, quoted.
    pub text: String,
}

/// One check the judge executed, with what it expected and what it saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssertionResult {
    /// Short name of the check, e.g. "status", "error_code", "error_shape", "schema".
    pub check: String,
    pub expected: String,
    pub actual: String,
    pub passed: bool,
    /// The check's own level when it is weaker than the case's requirement (a SHOULD
    /// inside a MUST case: the witness's wire-form checks). A failure counts at the
    /// weaker of the two; absent, at the case's level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
    /// `witness.bytes`: what became of the part this assertion judges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery: Option<Delivery>,
}

/// What became of one inline part a case sent, as the witness saw it reach the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeliveryOutcome {
    /// The same bytes (length and SHA-256).
    Intact,
    /// Other bytes, recognised as the same picture, sound or document by its content
    /// stamp (re-encoded, scaled, resampled, re-saved).
    Transformed,
    /// Other bytes carrying the metadata stamp that are not recognisably the same
    /// media (undecodable, or a picture without the stamp), or a reference with no
    /// bytes to compare.
    Altered,
    /// Only text carrying the part's stamp arrived (a document's extracted text).
    ConvertedToText,
    /// No trace of the part: dropped, or replaced by a placeholder, a file name or a
    /// description.
    Lost,
}

impl DeliveryOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryOutcome::Intact => "intact",
            DeliveryOutcome::Transformed => "transformed",
            DeliveryOutcome::Altered => "altered",
            DeliveryOutcome::ConvertedToText => "converted-to-text",
            DeliveryOutcome::Lost => "lost",
        }
    }
}

/// A part's delivery: its outcome, what was sent, what arrived and what changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivery {
    pub outcome: DeliveryOutcome,
    /// `image/gif 76 B`.
    pub sent: String,
    /// `image/png 73 B (image_url) at /messages/0/content/1`; absent when lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received: Option<String>,
    /// What a transformation changed: `image/gif 76 B -> image/png 73 B`,
    /// `104x104 -> 52x52`; empty when intact.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
}

impl AssertionResult {
    pub fn new(check: &str, expected: String, actual: String, passed: bool) -> AssertionResult {
        AssertionResult {
            check: check.to_string(),
            expected,
            actual,
            passed,
            level: None,
            delivery: None,
        }
    }

    /// The same assertion, recording what became of the part it judges.
    pub fn with_delivery(mut self, delivery: Delivery) -> AssertionResult {
        self.delivery = Some(delivery);
        self
    }

    /// The same assertion, held to `level` at most.
    pub fn at_level(mut self, level: Level) -> AssertionResult {
        self.level = Some(level);
        self
    }

    /// The level a failure of this assertion counts at in a case requiring `case`:
    /// the weaker of the two (MAY is weaker than SHOULD, SHOULD than MUST).
    pub fn effective_level(&self, case: Level) -> Level {
        self.level.map_or(case, |own| own.max(case))
    }
}

/// One HTTP exchange, already redacted, as shown in `-v`, JUnit `<system-out>` and the JSON report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exchange {
    pub request: RecordedRequest,
    /// Absent when the transport failed before any response arrived.
    pub response: Option<RecordedResponse>,
    /// A `curl` line that replays the request; the token appears as `$TOKEN`.
    pub curl: String,
    /// Times the request was sent again (no answer, or 429/503 with `Retry-After`); a
    /// case with a retried exchange counts as flaky.
    #[serde(default)]
    pub retries: u32,
    /// Remarks on the exchange: retries, redirects not followed.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The request's number in the run's request list (`requests` in the JSON report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// True when this exchange was not sent for the case: it is the run's one discovery
    /// request, cited by every case judged on its answer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// The body as sent, with long base64 media elided for readability.
    pub body: Option<String>,
    /// What was really sent, when there was a body: its length and SHA-256, and
    /// whether `body` above elides part of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent: Option<SentBody>,
}

/// The body as it went on the wire, named by size and digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentBody {
    pub bytes: usize,
    pub sha256: String,
    /// The recorded body shortens long strings (inline media).
    pub elided: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// True when the body was cut at the read cap.
    #[serde(default)]
    pub truncated: bool,
}

/// The baseline entry that excused a failure (see `baseline`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpectedFailure {
    /// The entry's `case` as written (a case id or one expanded id).
    pub entry: String,
    pub reason: String,
    pub expires: Option<String>,
}

/// Everything known about one expanded case once it has been decided.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// Stable id including the expansion, e.g. `openwop.rfc0091.accept-inline[image]`.
    pub id: String,
    /// Id of the case before expansion.
    pub case_id: String,
    pub title: String,
    pub requirement: Requirement,
    /// The scenario file the case came from (`builtin:` prefix for compiled-in files).
    pub scenario_file: String,
    /// Expansion bindings, e.g. {"modality": "image"}.
    pub bindings: Vec<(String, String)>,
    pub outcome: Outcome,
    /// Why the case was skipped, excluded, blocked or errored, or a one-line failure summary.
    pub reason: Option<String>,
    /// Remarks that do not change the outcome (e.g. "413 preferred, host answered 400").
    pub notes: Vec<String>,
    pub assertions: Vec<AssertionResult>,
    /// The discovery facts the applicability decision was based on.
    pub decided_on: Vec<String>,
    pub duration_ms: u64,
    pub exchanges: Vec<Exchange>,
    /// Set when the case failed and a `--baseline` entry lists it (outcome `xfail`).
    #[serde(default)]
    pub expected_failure: Option<ExpectedFailure>,
    /// How the protocol classified the answer, when it does (an AG-UI stream: bucket,
    /// events, terminal event, echo). Kept under `stream` in the JSON report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<ProtocolEvidence>,
    /// With a witness (`run --witness`), the model calls carrying the case's nonce, as
    /// the witness recorded them (the case's `expect.witness` is judged on them, as
    /// `witness.*` assertions). `None`: no witness, or the case sent no request; `Some`
    /// and empty: none arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_calls: Option<Vec<ProtocolEvidence>>,
    /// True for an offline case that checks mmconform's own schema files (a document
    /// validated against a schema, no target involved): its outcome says nothing about
    /// the host, so summaries count it apart (`RunSummary::self_checks`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub self_check: bool,
    /// The systematic cause this case shares with others, when it has one (the same
    /// status from the same endpoint, the same probe failure, an authentication answer,
    /// a program that dies before its first line): set by the runner when it records
    /// the case, so reporters can say the cause once for every case it decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
}

/// Why a case could not be observed, or failed, when the reason is not the case's own
/// but the run's: `what` is the same text for every case it decided (the grouping
/// key), `fix` what the user can do about it, when that is known.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cause {
    pub what: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// Evidence only a protocol understands (how it read an answer; what a target was
/// declared to accept), opaque to the core and the reporters: the record goes verbatim
/// into the JSON report, and the protocol's rendering of it ([`EvidenceView`]) is what
/// terminals and JUnit show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProtocolEvidence {
    pub record: serde_json::Value,
    /// Not in the JSON report: derived from the record by the protocol that made it.
    #[serde(skip)]
    pub view: EvidenceView,
}

/// How reporters show protocol-specific evidence without knowing the protocol.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EvidenceView {
    /// One line: `completed: RUN_FINISHED after 6 events`.
    pub summary: String,
    /// Name/value pairs for JUnit properties (`stream.classification`, ...).
    pub properties: Vec<(String, String)>,
    /// Detail lines for `-v` and JUnit `<system-out>` (`stream: ...`, `events: ...`).
    pub lines: Vec<String>,
}

impl CaseResult {
    pub fn assertions_failed(&self) -> impl Iterator<Item = &AssertionResult> {
        self.assertions.iter().filter(|a| !a.passed)
    }
}
