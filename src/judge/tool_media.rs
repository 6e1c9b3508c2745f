//! What became of a tool's medium on its way to the model, judged from three sides: the
//! model calls the witness recorded, the tool call it answered with, and the MCP
//! server's request log (`docs/decisions.md`, "Media from tools").
//!
//! - The agent never called its model, its model was never offered the tool, or the
//!   agent never called the server's tool: **blocked** (nothing about the medium was
//!   observed; "the tool was never called" is never "the medium was lost").
//! - No model call after the tool call carried the conversation on: **turn broken**
//!   (MUST).
//! - The medium reached the model: **intact** (same bytes) or **transformed** (the same
//!   picture or sound by its content stamp, re-encoded or resized; a pass, named).
//! - Only text carrying the medium's stamp arrived, or a note standing for the medium
//!   (`[audio: audio/wav]`, "saved to <path>"): **converted to text** (SHOULD: a
//!   warning naming what arrived).
//! - Nothing carrying or standing for the medium arrived: **dropped with a notice** when
//!   the tool's result says so in words (SHOULD), else **dropped silently** (MUST: the
//!   model answers about a tool output it never saw), including a note that claims
//!   the medium was provided.
//!
//! Bytes are compared exactly as a prompt's media are (`crate::judge::delivery`).

use super::delivery;
use crate::outcome::{AssertionResult, Delivery, DeliveryOutcome, Level};
use crate::request::sent::{Kept, SentMedia, SentSource};
use crate::tool_media::log::ServerLog;
use crate::tool_media::medium::Medium;
use crate::tool_media::{label_nonce, medium_nonce};
use crate::witness::{ModelCall, Part, PartKind};
use mmconform_media as media;

/// The assertion's name in reports.
pub const CHECK: &str = "tool.delivery";

/// Words by which a host says, in the text it hands its model, that it did not pass a
/// medium on: an honest notice, not a claim of delivery.
const NOTICE_WORDS: [&str; 12] = [
    "omitted",
    "not supported",
    "unsupported",
    "stripped",
    "removed",
    "dropped",
    "cannot",
    "can't",
    "could not",
    "unable",
    "not shown",
    "not included",
];

/// Words by which a note claims the medium was handed over: with no medium in the
/// call, a claim the model is misled by (named in the verdict; still a silent drop).
const CLAIM_WORDS: [&str; 2] = ["provided the following", "attached"];

/// How a note that stands for the medium begins or says where it went: the model is
/// told what the medium was, or where to find it, in text (issue 34's "a note, a
/// path"). Checked after the notice and the claim words, so "[Image: provided the
/// following image data]" stays a claim.
const NOTE_MARKS: [&str; 12] = [
    "[image",
    "[audio",
    "[file",
    "[pdf",
    "[document",
    "[resource",
    "[binary",
    "[attachment",
    "saved to ",
    "written to ",
    "stored at ",
    "available at ",
];

/// What became of the medium.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolOutcome {
    Intact,
    Transformed,
    ConvertedToText,
    DroppedWithNotice,
    DroppedSilently,
    TurnBroken,
}

impl ToolOutcome {
    /// Whether the outcome passes, and the level a failure counts at.
    fn level(self) -> (bool, Level) {
        match self {
            ToolOutcome::Intact | ToolOutcome::Transformed => (true, Level::Must),
            ToolOutcome::ConvertedToText | ToolOutcome::DroppedWithNotice => (false, Level::Should),
            ToolOutcome::DroppedSilently | ToolOutcome::TurnBroken => (false, Level::Must),
        }
    }
}

/// The judgement: an assertion, or why nothing could be judged.
#[derive(Debug, Clone, PartialEq)]
pub enum Judged {
    Assertion(ToolOutcome, AssertionResult),
    Blocked(String),
}

/// Judges case `case` (its nonce), whose tool returned `medium`, from the model calls
/// recorded for the run (any order) and the server's log.
pub fn judge(medium: Medium, case: &str, calls: &[ModelCall], log: &ServerLog) -> Judged {
    // A token count (Gemini's `:countTokens`) is no model reading anything.
    let mut ours: Vec<&ModelCall> = calls
        .iter()
        .filter(|c| c.wire.reads() && c.carries(case))
        .collect();
    ours.sort_by_key(|c| c.seq);
    if ours.is_empty() {
        return Judged::Blocked("the agent never called its model with the case's prompt".into());
    }
    let calls_the_tool = |c: &&&ModelCall| c.tool_call.as_ref().is_some_and(|t| t.calls_the_tool());
    let Some(asked) = ours.iter().find(calls_the_tool) else {
        if let Some(searched) = ours.iter().find(|c| c.tool_call.is_some()) {
            return Judged::Blocked(format!(
                "the tool was never loaded: the model searched for the tool with the agent's own search \
                 (call {}), and no later model call showed the search's result naming it \
                 ({} model call(s); server log: {})",
                searched.seq,
                ours.len(),
                log.summary()
            ));
        }
        return Judged::Blocked(format!(
            "the model was never offered the tool: none of the {} model call(s) declared a \
             tool whose name carries `{}`, or listed it behind a tool search (was the agent \
             given the MCP server?; server log: {})",
            ours.len(),
            crate::tool_media::TOOL_NAME,
            log.summary()
        ));
    };
    if log.calls_for(case).next().is_none() {
        return Judged::Blocked(format!(
            "the model asked for the tool (call {}), but the agent never called the MCP \
             server's tool for this case (server log: {}){}",
            asked.seq,
            log.summary(),
            told_instead(asked, &ours)
                .map(|t| format!("; the model was told instead: {t:?}"))
                .unwrap_or_default()
        ));
    }
    let later: Vec<&ModelCall> = ours.iter().copied().filter(|c| c.seq > asked.seq).collect();
    let expected = format!("{} reaches the model", medium.describe());
    if later.is_empty() {
        let actual = format!(
            "turn broken: no model call after the tool call (call {}) carried the conversation on",
            asked.seq
        );
        return assertion(ToolOutcome::TurnBroken, expected, actual, None);
    }
    let (outcome, actual, delivery) = follow(medium, case, &later);
    assertion(outcome, expected, actual, delivery)
}

/// What the agent handed its model in place of the tool's result, when it never
/// called the tool (a refusal, a permission error): the text of the last message of
/// the conversation's next call, the first later call with more messages than the one
/// that asked (side calls an agent makes meanwhile, a title or a classifier, start
/// afresh). A hint for the reason, never a verdict.
fn told_instead(asked: &ModelCall, ours: &[&ModelCall]) -> Option<String> {
    let next = ours
        .iter()
        .find(|c| c.seq > asked.seq && c.messages > asked.messages)?;
    let last = next.parts.iter().filter_map(|p| p.message).max()?;
    let text: Vec<&str> = next
        .parts
        .iter()
        .filter(|p| p.message == Some(last) && p.kind == PartKind::Text)
        .filter_map(|p| p.text.as_deref())
        .collect();
    (!text.is_empty()).then(|| cut(&text.join(" "), 200))
}

fn assertion(
    outcome: ToolOutcome,
    expected: String,
    actual: String,
    delivery: Option<Delivery>,
) -> Judged {
    let (passed, level) = outcome.level();
    let mut result = AssertionResult::new(CHECK, expected, actual, passed);
    if level != Level::Must {
        result = result.at_level(level);
    }
    if let Some(delivery) = delivery {
        result = result.with_delivery(delivery);
    }
    Judged::Assertion(outcome, result)
}

/// Where the medium went in the calls after the tool call (the last one that carries
/// it counts: a host may add it in a later turn).
fn follow(
    medium: Medium,
    case: &str,
    later: &[&ModelCall],
) -> (ToolOutcome, String, Option<Delivery>) {
    let nonce = medium_nonce(case);
    let parts: Vec<&Part> = later.iter().flat_map(|c| c.parts.iter()).collect();
    let found = parts
        .iter()
        .rev()
        .copied()
        .find(|p| p.kind.is_media() && p.carries(&nonce));
    let as_text = parts
        .iter()
        .rev()
        .copied()
        .find(|p| p.kind == PartKind::Text && p.carries(&nonce));
    let sent = medium.sent(case);
    if let Some(bytes) = &sent.bytes {
        let m = sent_media(sent.kind, sent.mime, bytes);
        let delivery = delivery::classify(&m, found, as_text, &nonce);
        if let Some(d) = delivery {
            return match d.outcome {
                DeliveryOutcome::Intact => (ToolOutcome::Intact, delivery::describe(&d), Some(d)),
                DeliveryOutcome::Transformed => {
                    (ToolOutcome::Transformed, delivery::describe(&d), Some(d))
                }
                DeliveryOutcome::ConvertedToText => {
                    // The text itself says what the host made of the medium (a
                    // note, a path, base64 as characters): quoted, cut short.
                    let text = as_text.and_then(|p| p.text.as_deref()).unwrap_or("");
                    let actual = format!("{}: {:?}", delivery::describe(&d), cut(text, 200));
                    (ToolOutcome::ConvertedToText, actual, Some(d))
                }
                DeliveryOutcome::Altered => (
                    ToolOutcome::DroppedSilently,
                    format!("altered past recognition: {}", delivery::describe(&d)),
                    Some(d),
                ),
                DeliveryOutcome::Lost => {
                    let (outcome, actual) = dropped(case, &parts);
                    (outcome, actual, Some(d))
                }
            };
        }
    }
    // Text and links: the medium is its text (a link's URI names the file).
    match (found, as_text) {
        (Some(part), _) | (None, Some(part)) => (
            ToolOutcome::Intact,
            format!("intact: its text reached the model at {}", part.at),
            None,
        ),
        (None, None) => {
            let (outcome, actual) = dropped(case, &parts);
            (outcome, actual, None)
        }
    }
}

/// Nothing carrying the medium arrived: an honest notice beside the tool's label, a
/// note standing for the medium (converted to text), or a silent drop (the label alone,
/// the structured content in the content's place, or a note claiming the medium was
/// there).
fn dropped(case: &str, parts: &[&Part]) -> (ToolOutcome, String) {
    let label = label_nonce(case);
    let Some(labelled) = parts.iter().find(|p| p.carries(&label)) else {
        return (
            ToolOutcome::DroppedSilently,
            "dropped silently: the tool's result (its label and its medium) never reached the model"
                .into(),
        );
    };
    let label_line = crate::tool_media::label(case);
    let has_label_line = |p: &&Part| p.text.as_deref().is_some_and(|t| t.contains(&label_line));
    if !parts.iter().any(has_label_line) && labelled.text.as_deref().is_some_and(is_structured) {
        return (
            ToolOutcome::DroppedSilently,
            format!(
                "dropped silently: the tool's structuredContent arrived at {} in place of its \
                 content (the text and the medium beside it), and nothing told the model",
                labelled.at
            ),
        );
    }
    let beside = parts
        .iter()
        .filter(|p| p.message == labelled.message && p.kind == PartKind::Text)
        .filter_map(|p| p.text.as_deref());
    let (mut notice, mut claim, mut note) = (None, None, None);
    for text in beside {
        let lower = text.to_lowercase();
        let found = |words: &[&str]| {
            let word = words.iter().find(|w| lower.contains(*w))?;
            Some(format!("{word:?} in {:?}", cut(text, 200)))
        };
        if let Some(found) = found(&NOTICE_WORDS) {
            notice = Some(found);
            break;
        }
        claim = claim.or_else(|| found(&CLAIM_WORDS));
        note = note.or_else(|| found(&NOTE_MARKS));
    }
    match (notice, claim, note) {
        (Some(notice), _, _) => (
            ToolOutcome::DroppedWithNotice,
            format!("dropped with a notice: the tool's text arrived without its medium ({notice})"),
        ),
        (None, None, Some(note)) => (
            ToolOutcome::ConvertedToText,
            format!(
                "converted to text: the tool's text arrived at {} with a note standing for its \
                 medium ({note}), and no medium",
                labelled.at
            ),
        ),
        (None, Some(claim), _) => (
            ToolOutcome::DroppedSilently,
            format!(
                "dropped silently: the tool's text arrived at {} without its medium, with a note \
                 claiming it was provided ({claim})",
                labelled.at
            ),
        ),
        (None, None, None) => (
            ToolOutcome::DroppedSilently,
            format!(
                "dropped silently: the tool's text arrived at {} without its medium, and nothing \
                 told the model",
                labelled.at
            ),
        ),
    }
}

/// Whether a text holds a JSON object (after a host's preamble, such as "Output:"):
/// the serialized structured content, where the tool's label would be a plain line.
fn is_structured(text: &str) -> bool {
    text.find('{').is_some_and(|at| {
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text[at..].trim_end())
            .is_ok()
    })
}

fn sent_media(kind: &str, mime: &str, bytes: &[u8]) -> SentMedia {
    SentMedia {
        kind: kind.into(),
        mime: mime.into(),
        source: SentSource::Data {
            bytes: bytes.len() as u64,
            sha256: crate::digest::sha256_hex(bytes),
            shape: media::content::read(bytes, &media::content::Bounds::default())
                .ok()
                .map(|c| c.shape()),
            kept: Some(Kept(bytes.into())),
        },
        detail: None,
        filename: None,
        omitted: Vec::new(),
    }
}

fn cut(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

#[cfg(test)]
#[path = "tool_media_tests.rs"]
mod tests;
