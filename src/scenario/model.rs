//! The typed form of a scenario file, deserialised after it passed
//! `schemas/scenario.schema.json`. The README documents every field.

use super::stream::{EchoAspect, StreamClass};
use crate::outcome::Requirement;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One scenario file: a profile and the cases it contributes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Format version; only 1 exists.
    pub mmconform: u32,
    /// The wire protocol the cases speak (`openwop` or `agui`).
    pub profile: String,
    /// The official conformance profile these cases belong to, e.g.
    /// `openwop-callai-multimodal`; lets `OPENWOP_OPTED_OUT_PROFILES` excuse them.
    #[serde(default)]
    pub conformance_profile: Option<String>,
    pub cases: Vec<CaseSpec>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseSpec {
    pub id: String,
    pub title: String,
    pub requirement: Requirement,
    /// Shown with a failure (templated): what else may explain it, when the declaration
    /// rather than the host may be wrong ("if the model takes images, pass --accepts image/").
    #[serde(default)]
    pub hint: Option<String>,
    /// One case per row: either a map of variable -> values (cartesian product)
    /// or an explicit list of rows.
    #[serde(default)]
    pub expand: Option<Expansion>,
    /// The expansion variables that name an expanded case, in this order (default:
    /// all of them), so a row carrying expectations too (`keyword`, `at`) keeps a
    /// short, stable id such as `case[error,without-message]`.
    #[serde(default)]
    pub id_from: Option<Vec<String>>,
    /// Every predicate must hold for the case to run; otherwise it is skipped
    /// with the failing predicate's reason.
    #[serde(default)]
    pub applies: Vec<Predicate>,
    /// What to send (exactly one of `request` and `validate` is present).
    #[serde(default)]
    pub request: Option<RequestSpec>,
    /// An offline check: a document validated against a schema, no target needed.
    #[serde(default)]
    pub validate: Option<ValidateSpec>,
    pub expect: Expectations,
}

impl CaseSpec {
    /// The endpoint a case talks to; `None` for offline validation cases.
    pub fn endpoint(&self) -> Option<&str> {
        self.request.as_ref().map(|r| r.endpoint.as_str())
    }

    /// The binding rows the case expands to; one empty row when it does not expand.
    pub fn binding_rows(&self) -> Vec<Vec<(String, String)>> {
        self.expand
            .as_ref()
            .map(|e| e.rows())
            .unwrap_or_else(|| vec![Vec::new()])
    }
}

/// An offline case: compile `schema` and, when a document is given, validate it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidateSpec {
    /// A schema name (`ai-envelope`, `envelopes/error`), resolved in `--schemas DIR` first.
    pub schema: String,
    #[serde(default)]
    pub document: Option<DocumentSpec>,
}

/// A JSON document: a fixture file (or inline value) with single-change patches, so a
/// negative differs from its valid original in exactly the way the case names.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentSpec {
    /// Path under `fixtures/` (templated), e.g. `envelopes/{kind}.payload.json`.
    #[serde(default)]
    pub fixture: Option<String>,
    #[serde(default)]
    pub inline: Option<Value>,
    /// JSON pointer -> value to put there (values are templates).
    #[serde(default)]
    pub set: serde_json::Map<String, Value>,
    /// JSON pointers to delete.
    #[serde(default)]
    pub remove: Vec<String>,
}

/// Variable order follows the file (serde_json's map preserves insertion order), so
/// expanded ids read as written: `case[image,image/png]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Expansion {
    /// variable -> values: one case per combination.
    Product(serde_json::Map<String, Value>),
    /// Explicit rows of bindings.
    Rows(Vec<serde_json::Map<String, Value>>),
}

fn text(v: &Value) -> String {
    v.as_str()
        .map(str::to_string)
        .unwrap_or_else(|| v.to_string())
}

impl Expansion {
    /// The variable names an expansion binds, in file order.
    pub fn variables(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        let maps: Vec<&serde_json::Map<String, Value>> = match self {
            Expansion::Product(map) => vec![map],
            Expansion::Rows(rows) => rows.iter().collect(),
        };
        for key in maps.into_iter().flat_map(|m| m.keys()) {
            if !names.contains(key) {
                names.push(key.clone());
            }
        }
        names
    }

    /// How many cases the expansion gives, saturating: a product of a few long lists
    /// can name more cases than memory holds, so this is checked before [`Self::rows`].
    pub fn case_count(&self) -> usize {
        match self {
            Expansion::Rows(rows) => rows.len(),
            Expansion::Product(map) => map.values().fold(1usize, |n, values| {
                n.saturating_mul(values.as_array().map_or(0, Vec::len))
            }),
        }
    }

    /// Every binding row, in a stable order (a product varies the last variable fastest).
    pub fn rows(&self) -> Vec<Vec<(String, String)>> {
        match self {
            Expansion::Rows(rows) => rows
                .iter()
                .map(|r| r.iter().map(|(k, v)| (k.clone(), text(v))).collect())
                .collect(),
            Expansion::Product(map) => {
                let mut rows: Vec<Vec<(String, String)>> = vec![Vec::new()];
                for (name, values) in map {
                    let values: Vec<String> = values
                        .as_array()
                        .map(|a| a.iter().map(text).collect())
                        .unwrap_or_default();
                    rows = rows
                        .into_iter()
                        .flat_map(|row| {
                            values.iter().map(move |v| {
                                let mut next = row.clone();
                                next.push((name.clone(), v.clone()));
                                next
                            })
                        })
                        .collect();
                }
                rows
            }
        }
    }
}

/// A condition over the evaluation context (`discovery`, profile facts, `run`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Predicate {
    All {
        all: Vec<Predicate>,
        #[serde(default)]
        reason: Option<String>,
    },
    Any {
        any: Vec<Predicate>,
        #[serde(default)]
        reason: Option<String>,
    },
    Not {
        not: Box<Predicate>,
        #[serde(default)]
        reason: Option<String>,
    },
    Atom(Box<PathCheck>),
}

/// A check of one value found at `path` (dotted, or a JSON pointer starting with `/`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathCheck {
    pub path: String,
    #[serde(default)]
    pub exists: Option<bool>,
    #[serde(default)]
    pub contains: Option<Value>,
    #[serde(default)]
    pub not_contains: Option<Value>,
    #[serde(default)]
    pub equals: Option<Value>,
    #[serde(default)]
    pub one_of: Option<Vec<Value>>,
    #[serde(default)]
    pub at_least: Option<f64>,
    /// Human reason shown when the check does not hold (templated).
    #[serde(default)]
    pub reason: Option<String>,
    /// The fact is an optional capability (RFC 0108's self-hosted provider): a host that
    /// does not offer it is outside the requirement, so `--require` keeps the skip.
    #[serde(default)]
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestSpec {
    /// A profile endpoint name, e.g. `discovery`, `ai-call` or `agui-run`.
    pub endpoint: String,
    /// Send the configured credentials (default true); false checks that auth is enforced.
    #[serde(default = "default_true")]
    pub auth: bool,
    /// JSON body template; strings may hold `{placeholders}`, objects `{$media: {...}}`.
    #[serde(default)]
    pub body: Option<Value>,
    /// agentruntime: a text-only `execute` runs first, and this one carries its
    /// `sessionId` (a resumed session).
    #[serde(default)]
    pub resume: bool,
    /// agentruntime: SIGTERM once the run is under way (its first event line arrived).
    #[serde(default)]
    pub abort: bool,
}

fn default_true() -> bool {
    true
}

/// What a response must show. Each present field is one assertion. Unknown keys are
/// the scenario schema's to refuse (it runs first); a key no field names is one a
/// protocol owns, kept in `protocol_keys`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Expectations {
    #[serde(default)]
    pub status: Option<StatusExpectation>,
    #[serde(default)]
    pub json_body: Option<bool>,
    #[serde(default)]
    pub error_code: Option<ErrorCodeExpectation>,
    #[serde(default)]
    pub error_shape: Option<ErrorShapeExpectation>,
    /// A capability refusal: a 404 (which says the route or model does not exist) is
    /// a failure named as such.
    #[serde(default)]
    pub capability_refusal: Option<bool>,
    /// Predicates over the response body (`path` is relative to the body).
    #[serde(default)]
    pub body: Vec<Predicate>,
    #[serde(default)]
    pub schema: Option<SchemaExpectation>,
    /// Preferred answers that only add a note when not met.
    #[serde(default)]
    pub prefer: Option<Preference>,
    /// Offline cases: the schema compiles.
    #[serde(default)]
    pub compiles: Option<bool>,
    /// Offline cases: the document is valid (true) or invalid (false).
    #[serde(default)]
    pub valid: Option<bool>,
    /// Offline cases: a failing keyword that must be among the errors (templated).
    #[serde(default)]
    pub keyword: Option<String>,
    /// Offline cases: an instance path (JSON pointer) that must be among the errors (templated).
    #[serde(default)]
    pub at: Option<String>,
    /// AG-UI: which outcome buckets the answer may (not) fall in, and the stream rules.
    #[serde(default)]
    pub stream: Option<StreamExpectation>,
    /// AG-UI: compare an echoing agent's `mmconform.echo` event with what was sent.
    #[serde(default)]
    pub echo: Option<EchoExpectation>,
    /// `run --witness`: whether what was sent must reach the model or never reach it.
    #[serde(default)]
    pub witness: Option<WitnessExpectation>,
    /// `run --witness`, with `witness: reached` or `delivered`: which forms of a part's
    /// arrival count as delivered (default: intact or transformed).
    #[serde(default)]
    pub delivery: Option<DeliveryExpectation>,
    /// The keys one protocol owns (each protocol's `Description::expect_keys`: the
    /// bridge's `run`, an ACP agent's answers, a door's `usage`, a self-hosted
    /// provider), as written: the protocol of the file reads its own
    /// ([`Expectations::protocol_key`]), the registry's lint refuses them in another
    /// protocol's file, and the scenario schema checks their shape (so no key lands
    /// here that the schema does not know).
    #[serde(flatten)]
    pub protocol_keys: BTreeMap<String, Value>,
}

impl Expectations {
    /// The protocol-owned key `key`, read as the protocol's type; `Ok(None)` when the
    /// case does not have it. `Err` says why the value is not one (lint reports it
    /// where it stands).
    pub fn protocol_key<T: serde::de::DeserializeOwned>(
        &self,
        key: &str,
    ) -> Result<Option<T>, String> {
        self.protocol_keys
            .get(key)
            .map(|value| {
                serde_json::from_value(value.clone()).map_err(|e| format!("`expect.{key}`: {e}"))
            })
            .transpose()
    }
}

/// `expect.witness`: judged on the model calls the witness recorded for the case
/// (`judge::witness`); not evaluated in a run without `--witness`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WitnessExpectation {
    /// Every part sent arrives in a model call: media by their stamp, bytes intact and
    /// in the wire form of their kind; text parts by the case's nonce.
    Reached,
    /// No model call carries the case's nonce: the input is refused (or malformed) and
    /// the host never hands it to its model.
    Withheld,
    /// A malformed input: withheld passes; forwarded as malformed (the witness finds a
    /// problem in the call) fails as `withheld` does; repaired into a valid call and
    /// forwarded fails as a SHOULD, naming what changed (`judge::repair`).
    #[serde(rename = "withheld-or-repaired")]
    WithheldOrRepaired,
    /// `reached`, and the prompt (the text carrying the nonce) arrives in the same
    /// model call as the media, as a MUST (agentruntime: a runtime hands its CLI both);
    /// the order of prompt and media is not judged (the contract sets none).
    Delivered,
    /// The prompt reaches the model; media arriving too is noted, not required
    /// (agentruntime: media of an undeclared type).
    Prompt,
}

/// `expect.delivery`: how an inline part sent may arrive and still count as
/// delivered (`judge::delivery`). A placeholder, a file name or a description is never
/// a delivery, whatever this says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeliveryExpectation {
    /// The same bytes (length and SHA-256): for a protocol that promises to forward
    /// bytes unchanged.
    Intact,
    /// The same bytes, or the same picture or sound re-encoded, scaled or resampled
    /// (recognised by its content stamp); a document reduced to its text is a SHOULD
    /// failure, a picture or sound reduced to text a MUST one.
    #[default]
    Transformed,
    /// As `transformed`, and a document reduced to its text counts as delivered too.
    Text,
}

impl DeliveryExpectation {
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryExpectation::Intact => "intact",
            DeliveryExpectation::Transformed => "transformed",
            DeliveryExpectation::Text => "text",
        }
    }
}

impl WitnessExpectation {
    /// Whether the expectation is met only by a model call (so a case waits for one).
    pub fn expects_a_call(self) -> bool {
        !matches!(
            self,
            WitnessExpectation::Withheld | WitnessExpectation::WithheldOrRepaired
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            WitnessExpectation::Reached => "reached",
            WitnessExpectation::Withheld => "withheld",
            WitnessExpectation::WithheldOrRepaired => "withheld-or-repaired",
            WitnessExpectation::Delivered => "delivered",
            WitnessExpectation::Prompt => "prompt",
        }
    }
}

/// `expect.stream`: each present field is one assertion.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamExpectation {
    /// The answer's bucket is one of these.
    #[serde(default)]
    pub classification: Option<OneOrMany<StreamClass>>,
    /// The answer's bucket is none of these.
    #[serde(default)]
    pub not: Vec<StreamClass>,
    /// Whatever stream was read obeys the ordering rules.
    #[serde(default)]
    pub ordering: bool,
}

/// `expect.echo`: runs only on a completed stream.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EchoExpectation {
    /// What to compare, one assertion each (default: all four).
    #[serde(default = "all_echo_aspects")]
    pub compare: Vec<EchoAspect>,
    /// Whether a completed run without an echo fails; default: the declaration's `echo`.
    #[serde(default)]
    pub required: Option<bool>,
}

fn all_echo_aspects() -> Vec<EchoAspect> {
    EchoAspect::ALL.to_vec()
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<T: Clone> OneOrMany<T> {
    pub fn to_vec(&self) -> Vec<T> {
        match self {
            OneOrMany::One(t) => vec![t.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum StatusExpectation {
    One(StatusPattern),
    Any(Vec<StatusPattern>),
}

/// `200`, or a class written `2xx`/`4xx`/`5xx`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum StatusPattern {
    Code(u16),
    Class(String),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ErrorCodeExpectation {
    Equals(String),
    Rule(ErrorCodeRule),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorCodeRule {
    #[serde(default)]
    pub absent: Option<bool>,
    #[serde(default)]
    pub present: Option<bool>,
    #[serde(default)]
    pub equals: Option<String>,
    #[serde(default)]
    pub not: Option<String>,
    #[serde(default)]
    pub one_of: Option<Vec<String>>,
}

/// `expect.error_shape`: the error envelope an answer must have, as the wires
/// describe them (`crate::wire::ErrorEnvelope`).
pub type ErrorShapeExpectation = crate::wire::ErrorEnvelope;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaExpectation {
    /// Name of a schema shipped in `schemas/` (without `.schema.json`), e.g. `error-envelope`.
    #[serde(default, rename = "ref")]
    pub reference: Option<String>,
    #[serde(default)]
    pub inline: Option<Value>,
    /// Where in the body the instance lives (dotted path or JSON pointer); the body itself when absent.
    #[serde(default)]
    pub at: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preference {
    #[serde(default)]
    pub status: Option<u16>,
    #[serde(default)]
    pub error_code: Option<String>,
    /// Note text when the preference is not met (templated).
    #[serde(default)]
    pub note: Option<String>,
}

/// The `$media` placeholder inside a request body.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MediaSpec {
    /// Content-part type: `image`, `audio`, `document`, or anything (`video`, made-up).
    #[serde(rename = "type")]
    pub part_type: String,
    #[serde(default)]
    pub mime: Option<String>,
    /// Where the bytes come from; several sources produce a part with several (a shape error).
    #[serde(default)]
    pub source: Option<MediaSources>,
    /// Exact decoded size in bytes (integer or a placeholder resolving to one).
    #[serde(default)]
    pub size: Option<Value>,
    /// Added to `size` (e.g. 1 for "one byte over the limit").
    #[serde(default)]
    pub size_plus: Option<i64>,
    /// Fields to leave out of the part, e.g. `[mimeType]`.
    #[serde(default)]
    pub omit: Vec<String>,
    /// Literal overrides for the source fields.
    #[serde(default)]
    pub data: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default, rename = "mediaRef")]
    pub media_ref: Option<String>,
    /// AG-UI: the file id of a `file` source (default: `--media-ref KIND=ID`).
    #[serde(default)]
    pub file: Option<String>,
    /// AG-UI: the seed proposal's legacy `{type: binary, mimeType, data|url|id}` part.
    #[serde(default)]
    pub legacy: bool,
    /// OpenAI: `image_url.detail` (absent on the wire when not given).
    #[serde(default)]
    pub detail: Option<String>,
    /// OpenAI: `input_audio.format` (default: from the MIME type, `wav` or `mp3`).
    #[serde(default)]
    pub format: Option<String>,
    /// OpenAI: `file.filename` (default: `<kind>.<ext>`).
    #[serde(default)]
    pub filename: Option<String>,
    /// OpenAI: the MIME type the part states when it is not the bytes' own (`mime`
    /// says what is generated), for "the label disagrees with the bytes".
    #[serde(default)]
    pub stated_mime: Option<String>,
    /// OpenAI: `image_url` given as a bare string instead of `{url}`.
    #[serde(default)]
    pub bare: bool,
    /// agentruntime: how the attachment carries its bytes (`filePath`, `base64`, `both`;
    /// default `base64`).
    #[serde(default)]
    pub attach: Option<String>,
    /// The generated file's base64 with a character outside the alphabet inserted
    /// between groups (`request::base64_noise`): a strict decoder refuses it.
    #[serde(default)]
    pub base64_noise: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum MediaSources {
    One(MediaSource),
    Many(Vec<MediaSource>),
}

impl MediaSources {
    pub fn to_vec(&self) -> Vec<MediaSource> {
        match self {
            MediaSources::One(s) => vec![*s],
            MediaSources::Many(v) => v.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum MediaSource {
    #[serde(rename = "data")]
    Data,
    #[serde(rename = "url")]
    Url,
    #[serde(rename = "mediaRef")]
    MediaRef,
    /// AG-UI 1.0's `{type: file, value}` source (a provider file id).
    #[serde(rename = "file")]
    File,
}
