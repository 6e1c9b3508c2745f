//! `expect.witness` (`run --witness`): what was sent against the model calls the
//! witness recorded carrying the case's nonce.
//!
//! - `reached` (MUST): every media part sent is found in a model call (inline data by
//!   its stamp, in its bytes or its content; a `url`/`mediaRef`/`file` part by a media
//!   part in a call carrying the nonce), and inline parts arrive delivered
//!   (`delivery.rs`: intact or transformed, as `expect.delivery` says). A call with none
//!   of it, or no call at all, fails. Then, each a SHOULD (llm-provider 0015 §3.1, WIRE.md
//!   §3; `witness_form.rs`): the wire form fits the kind, the MIME type (or audio
//!   `format`) is the one sent, the parts keep their order, the text arrives.
//! - `withheld` (MUST): no model call carries the case's nonce: a refused or malformed
//!   input never reached the model, whatever the host answered.
//! - `withheld-or-repaired`: a malformed input, judged by `repair.rs`: forwarded as
//!   malformed fails (MUST), repaired into a valid call fails as a SHOULD.
//!
//! Only observed facts are judged: the caller decides whether the witness could see
//! everything (a full call log, an answer at all) before calling these. A Gemini
//! `:countTokens` call is not a model reading its input and is left out of both.

use super::{delivery, witness_form};
use crate::outcome::AssertionResult;
use crate::request::sent::{SentMedia, SentPart, SentSource};
use crate::scenario::model::{DeliveryExpectation, WitnessExpectation};
use crate::witness::{ModelCall, Part, PartKind, SourceKind};

/// How the host answered the case's request, as far as forwarding is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    /// 2xx (and, for a stream, a completed run): the host says it used the input.
    Success,
    /// Anything else: a 4xx/5xx, a run that ended in an error.
    Refused,
}

/// The assertions `expect` makes of `calls` (the calls carrying `nonce`, in order);
/// `want` says which arrivals of an inline part count as delivered.
pub fn judge(
    expect: WitnessExpectation,
    want: DeliveryExpectation,
    sent: &[SentPart],
    calls: &[ModelCall],
    nonce: &str,
    answered: Answered,
) -> Vec<AssertionResult> {
    // A token count carries the input to the provider but no model reads it: it is
    // evidence in the reports, never a call that "reached" (or leaked to) the model.
    let read: Vec<ModelCall>;
    let calls = if calls.iter().all(|c| c.wire.reads()) {
        calls
    } else {
        read = calls.iter().filter(|c| c.wire.reads()).cloned().collect();
        &read
    };
    match expect {
        WitnessExpectation::Reached => reached(sent, calls, nonce, answered, want),
        WitnessExpectation::Withheld => vec![withheld(sent, calls, nonce, answered)],
        WitnessExpectation::WithheldOrRepaired => vec![super::repair::judge(sent, calls, nonce)],
        WitnessExpectation::Delivered => {
            let mut out = reached(sent, calls, nonce, answered, want);
            // The prompt and the media are separate params (`prompt`, `media[]`): the
            // contract sets no order between them, so a runtime that puts its images
            // before the prompt (as Claude Code's content blocks do) breaks nothing.
            out.retain(|a| a.check != "witness.order");
            out.push(prompt_with_media(sent, calls, nonce));
            out
        }
        WitnessExpectation::Prompt => prompt(sent, calls, nonce),
    }
}

/// A text part carrying the nonce: the prompt as the model received it.
fn has_prompt(call: &ModelCall, nonce: &str) -> bool {
    call.parts
        .iter()
        .any(|p| p.kind == PartKind::Text && p.carries(nonce))
}

/// `witness.prompt` (MUST, `delivered`): the call that carried the media carried the
/// prompt too: a runtime that hands its CLI the media but loses the prompt (a flag that
/// swallows it) answers a question nobody asked.
fn prompt_with_media(sent: &[SentPart], calls: &[ModelCall], nonce: &str) -> AssertionResult {
    let media = media_sent(sent);
    let expected = "the prompt arrives in the same model call as the media".to_string();
    let Some(matched) = best_match(&media, calls, nonce) else {
        return AssertionResult::new(
            "witness.prompt",
            expected,
            "no model call carried the case".into(),
            false,
        );
    };
    let passed = has_prompt(matched.call, nonce);
    let actual = if passed {
        format!("call {} carried the prompt", matched.call.seq)
    } else {
        format!(
            "call {} carried no text with the case's nonce: the model received {}",
            matched.call.seq,
            describe_call(matched.call)
        )
    };
    AssertionResult::new("witness.prompt", expected, actual, passed)
}

/// `witness.prompt` (MUST, `prompt`): some call carried the prompt. Media that arrived
/// too are reported in a second, informational assertion that always holds.
fn prompt(sent: &[SentPart], calls: &[ModelCall], nonce: &str) -> Vec<AssertionResult> {
    let expected = "the prompt reaches the model".to_string();
    let carrying = calls.iter().find(|c| has_prompt(c, nonce));
    let actual = match (carrying, calls.first()) {
        (Some(call), _) => format!("call {} carried the prompt", call.seq),
        (None, Some(call)) => format!(
            "no call carried the prompt; call {} received {}",
            call.seq,
            describe_call(call)
        ),
        (None, None) => "no model call carried the case's nonce".into(),
    };
    let mut out = vec![AssertionResult::new(
        "witness.prompt",
        expected,
        actual,
        carrying.is_some(),
    )];
    let media = media_sent(sent);
    if !media.is_empty() {
        let arrived = best_match(&media, calls, nonce)
            .map(|m| m.found.iter().flatten().count())
            .unwrap_or(0);
        out.push(AssertionResult::new(
            "witness.media-noted",
            format!(
                "noted: whether the {} attachment(s) reached the model anyway",
                media.len()
            ),
            format!("{arrived} of {} reached the model", media.len()),
            true,
        ));
    }
    out
}

/// `image/png 1,234 B, audio/wav 4,044 B` (or `text` when only text was sent).
pub fn describe_sent(sent: &[SentPart]) -> String {
    let media: Vec<String> = media_sent(sent).iter().map(|m| m.describe()).collect();
    if media.is_empty() {
        "text".into()
    } else {
        media.join(", ")
    }
}

pub(super) fn media_sent(sent: &[SentPart]) -> Vec<&SentMedia> {
    sent.iter()
        .filter_map(|p| match p {
            SentPart::Media(m) => Some(m),
            SentPart::Text => None,
        })
        .collect()
}

/// `text, image/png 1,233 B (image_url)`, `text only`, `no parts`.
pub fn describe_call(call: &ModelCall) -> String {
    if call.parts.is_empty() {
        return "no parts".into();
    }
    if call.parts.iter().all(|p| p.kind == PartKind::Text) {
        return "text only".into();
    }
    call.parts
        .iter()
        .map(describe_part)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One part as it reached the model: `image/png 1,234 B (image_url)`, `text`,
/// `image/png url (image_url)`.
pub fn describe_part(part: &Part) -> String {
    let what = match part.kind {
        PartKind::Text => return "text".into(),
        PartKind::Unknown => return format!("unknown ({})", part.wire_form),
        kind => part
            .mime
            .clone()
            .or_else(|| part.sniffed.clone())
            .unwrap_or_else(|| kind.as_str().to_string()),
    };
    let size = match (part.source, part.bytes) {
        (Some(SourceKind::Url), _) => "url".to_string(),
        (Some(SourceKind::FileId), _) => "file_id".to_string(),
        (_, Some(bytes)) => crate::request::sent::size(bytes),
        (_, None) => "undecoded".to_string(),
    };
    format!("{what} {size} ({})", part.wire_form)
}

/// Which received part each sent media part was found as, in one call.
pub struct Matched<'a> {
    pub call: &'a ModelCall,
    /// Per sent media part (in order), the media part it arrived as.
    pub found: Vec<Option<&'a Part>>,
    /// Per sent media part not found as media, a text carrying its stamp instead.
    pub converted: Vec<Option<&'a Part>>,
}

impl Matched<'_> {
    /// Sent parts that arrived in any form (media, or text standing for it).
    fn arrived(&self) -> usize {
        self.found
            .iter()
            .zip(&self.converted)
            .filter(|(f, c)| f.is_some() || c.is_some())
            .count()
    }
}

/// One way a received part may fit a sent one, in order of preference.
type Fits<'a> = Box<dyn Fn(&Part) -> bool + 'a>;

/// Finds each sent media part in `call`: inline data by a media part stamped with the
/// nonce, in its bytes or its content (the same digest first, then the same type, then
/// any), else by a text carrying its stamp (converted); a reference by any media part
/// of the call (the host resolves it to bytes of its own). Each media part is used once.
fn match_call<'a>(media: &[&SentMedia], call: &'a ModelCall, nonce: &str) -> Matched<'a> {
    let mut used = vec![false; call.parts.len()];
    let mut found = Vec::new();
    let mut converted = Vec::new();
    for m in media {
        let stamped = |p: &Part| !p.reads_as_text() && p.carries(nonce);
        let any_media = |p: &Part| p.kind.is_media();
        let candidates: Vec<Fits> = match &m.source {
            SentSource::Data { sha256, .. } => vec![
                // The same bytes, whatever the form (a plain-text document may arrive as
                // Anthropic's text source, its bytes those sent).
                Box::new(move |p: &Part| {
                    p.kind != PartKind::Text
                        && p.carries(nonce)
                        && p.sha256.as_deref() == Some(sha256)
                }),
                Box::new(move |p: &Part| stamped(p) && same_type(p, &m.mime)),
                Box::new(stamped),
            ],
            SentSource::Reference(_) => vec![
                Box::new(move |p: &Part| any_media(p) && p.kind.as_str() == m.kind),
                Box::new(any_media),
            ],
            // Nothing sent that the model could recognise as this part.
            SentSource::LiteralData | SentSource::Malformed => Vec::new(),
        };
        let hit = candidates
            .iter()
            .find_map(|fits| (0..call.parts.len()).find(|&i| !used[i] && fits(&call.parts[i])));
        if let Some(i) = hit {
            used[i] = true;
        }
        found.push(hit.map(|i| &call.parts[i]));
        converted.push(match (&m.source, hit) {
            (SentSource::Data { .. }, None) => {
                call.parts.iter().find(|p| delivery::is_converted(p, nonce))
            }
            (SentSource::Reference(_), None) if delivery::text_may_stand_for(m) => {
                text_in_place_of_reference(call, nonce)
            }
            _ => None,
        });
    }
    Matched {
        call,
        found,
        converted,
    }
}

/// A text beside the case's prompt, in the prompt's own message, that is not the
/// prompt: what a host that extracts a referenced document's text puts in its place.
/// Its content is the host's blob, so it cannot carry the case's stamp; this is the
/// most the witness can see of it (judged as converted, never as intact).
fn text_in_place_of_reference<'a>(call: &'a ModelCall, nonce: &str) -> Option<&'a Part> {
    let prompt = call
        .parts
        .iter()
        .find(|p| p.reads_as_text() && p.carries(nonce))?;
    call.parts.iter().find(|p| {
        p.reads_as_text() && p.message == prompt.message && p.at != prompt.at && !p.carries(nonce)
    })
}

fn same_type(part: &Part, mime: &str) -> bool {
    let sent = mmconform_media::canonical_mime(mime);
    [&part.mime, &part.sniffed]
        .into_iter()
        .flatten()
        .any(|m| mmconform_media::canonical_mime(m) == sent)
}

/// The call that carried the most of what was sent (the first of equals).
pub(super) fn best_match<'a>(
    media: &[&SentMedia],
    calls: &'a [ModelCall],
    nonce: &str,
) -> Option<Matched<'a>> {
    calls
        .iter()
        .map(|c| match_call(media, c, nonce))
        .fold(None, |best: Option<Matched>, m| {
            let count = |m: &Matched| (m.found.iter().flatten().count(), m.arrived());
            match best {
                Some(b) if count(&b) >= count(&m) => Some(b),
                _ => Some(m),
            }
        })
}

fn reached(
    sent: &[SentPart],
    calls: &[ModelCall],
    nonce: &str,
    answered: Answered,
    want: DeliveryExpectation,
) -> Vec<AssertionResult> {
    let media = media_sent(sent);
    let what = describe_sent(sent);
    let expected = format!("what was sent ({what}) reaches the model");
    let Some(matched) = best_match(&media, calls, nonce) else {
        let actual = match answered {
            Answered::Success => {
                format!("a 2xx with no model call at all: sent {what}; the model received nothing")
            }
            Answered::Refused => format!("the host refused and made no model call: sent {what}"),
        };
        return vec![AssertionResult::new(
            "witness.reached",
            expected,
            actual,
            false,
        )];
    };
    let received = format!(
        "the model received: {} (call {})",
        describe_call(matched.call),
        matched.call.seq
    );
    let deliveries: Vec<_> = media
        .iter()
        .zip(matched.found.iter().zip(&matched.converted))
        .map(|(m, (found, converted))| delivery::classify(m, *found, *converted, nonce))
        .collect();
    // A picture or sound that arrived only as text did not reach the model; a
    // document's text may stand for it (judged by `witness.bytes`).
    let missing: Vec<String> = media
        .iter()
        .zip(matched.found.iter().zip(&matched.converted))
        .filter(|(m, (found, converted))| {
            found.is_none() && (converted.is_none() || !delivery::text_may_stand_for(m))
        })
        .map(|(m, (_, converted))| match converted {
            Some(text) => format!("{} (converted to text at {})", m.describe(), text.at),
            None => format!("{} (lost)", m.describe()),
        })
        .collect();
    if !missing.is_empty() {
        let actual = format!("sent {}; {received}", missing.join(", "));
        return vec![AssertionResult::new(
            "witness.reached",
            expected,
            actual,
            false,
        )];
    }
    let notes = delivery::notes(&deliveries.iter().flatten().cloned().collect::<Vec<_>>());
    let actual = match notes.is_empty() {
        true => received,
        false => format!("{received}; {}", notes.join("; ")),
    };
    let mut out = vec![AssertionResult::new(
        "witness.reached",
        expected,
        actual,
        true,
    )];
    for (m, d) in media.iter().zip(deliveries) {
        if let Some(d) = d {
            out.push(delivery::check(m, d, want));
        }
    }
    out.extend(witness_form::checks(sent, &media, &matched, calls, nonce));
    out
}

/// `witness.withheld`: no call carried the nonce. A call that did is described part by
/// part: a media part left out is named as dropped, never as forwarded.
fn withheld(
    sent: &[SentPart],
    calls: &[ModelCall],
    nonce: &str,
    answered: Answered,
) -> AssertionResult {
    let expected = "no model call carries the case's input".to_string();
    let Some(call) = calls.first() else {
        return AssertionResult::new(
            "witness.withheld",
            expected,
            "no model call carried the case's nonce".into(),
            true,
        );
    };
    let saw = format!(
        "{} (call {})",
        super::repair::changes(sent, call, nonce).join("; "),
        call.seq
    );
    let actual = match answered {
        Answered::Success => format!("answered with success and forwarded to the model: {saw}"),
        Answered::Refused => format!("refused, but the model saw it: {saw}"),
    };
    AssertionResult::new("witness.withheld", expected, actual, false)
}

#[cfg(test)]
#[path = "witness_tests.rs"]
mod tests;
