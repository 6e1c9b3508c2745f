//! What became of each inline part a case sent (`witness.bytes`), and whether that
//! counts as delivered (`expect.delivery`).
//!
//! - *intact*: a part with the same length and SHA-256.
//! - *transformed*: other bytes the content stamp (`mmconform_media::content`)
//!   recognises as the same picture or sound (re-encoded, scaled, resampled, turned
//!   grey). A PDF's bytes are not decoded: other bytes are altered, even a re-save.
//! - *altered*: other bytes carrying the metadata stamp that are not recognisably the
//!   same media (undecodable, a picture whose stamp is gone), or a reference (url, file
//!   id) where bytes were sent: nothing to compare.
//! - *converted to text*: no media part, but a text carrying the part's stamp (a PDF's
//!   extracted page text, a picture's comment read out).
//! - *lost*: nothing (a placeholder such as `[image]`, a file name or a description is
//!   text without the stamp: lost).
//!
//! A referenced part (url, mediaRef) sent no bytes: the file is the host's, so only
//! its absence can be told, or, for a document, a text beside the prompt in its place
//! (converted to text: the most the witness can see of a host's extraction).
//!
//! Intact always counts; transformed counts unless the case asks for `intact`; a
//! document converted to text counts with `delivery: text`, warns (SHOULD) by default
//! and fails with `intact`; everything else fails (MUST). `docs/decisions.md` records
//! why.

use crate::outcome::{AssertionResult, Delivery, DeliveryOutcome, Level};
use crate::request::sent::{SentMedia, SentSource, size};
use crate::scenario::model::DeliveryExpectation;
use crate::witness::Part;

/// A part whose media never arrived, but whose stamp arrived in text.
pub fn is_converted(part: &Part, nonce: &str) -> bool {
    part.reads_as_text()
        && part
            .stamps
            .iter()
            .any(|s| crate::witness::record::stamp_names(s, nonce))
}

/// Whether a sent part of this kind may count as delivered once converted to text:
/// only a document (its text is what a model reads of it).
pub fn text_may_stand_for(m: &SentMedia) -> bool {
    matches!(m.kind.as_str(), "document" | "file")
}

/// What became of sent part `m`: `found` is the media part it arrived as, `converted`
/// a text carrying its stamp (for a reference, a text in its place). `None` for a part
/// that sent no bytes (a reference), unless it arrived as text.
pub fn classify(
    m: &SentMedia,
    found: Option<&Part>,
    converted: Option<&Part>,
    nonce: &str,
) -> Option<Delivery> {
    let SentSource::Data {
        bytes,
        sha256,
        shape,
        kept,
    } = &m.source
    else {
        // A reference's bytes are the host's: only a text in its place can be told.
        return (found.is_none() && matches!(m.source, SentSource::Reference(_)))
            .then_some(converted)
            .flatten()
            .map(|text| Delivery {
                outcome: DeliveryOutcome::ConvertedToText,
                sent: m.describe(),
                received: Some(format!("text at {}", text.at)),
                changes: vec![format!(
                    "{} -> text (the host's own file, so the text cannot be traced to it)",
                    m.mime
                )],
            });
    };
    let sent = m.describe();
    let Some(part) = found else {
        return Some(match converted {
            Some(text) => Delivery {
                outcome: DeliveryOutcome::ConvertedToText,
                sent,
                received: Some(format!("text at {}", text.at)),
                changes: vec![format!("{} -> text", m.mime)],
            },
            None => Delivery {
                outcome: DeliveryOutcome::Lost,
                sent,
                received: None,
                changes: Vec::new(),
            },
        });
    };
    let received = Some(format!(
        "{} at {}",
        super::witness::describe_part(part),
        part.at
    ));
    let intact = part.bytes == Some(*bytes) && part.sha256.as_deref() == Some(sha256.as_str());
    if intact {
        return Some(Delivery {
            outcome: DeliveryOutcome::Intact,
            sent,
            received,
            changes: Vec::new(),
        });
    }
    let Some(arrived_bytes) = part.bytes else {
        return Some(Delivery {
            outcome: DeliveryOutcome::Altered,
            sent,
            received,
            changes: vec![format!("{} -> no bytes on the wire", m.mime)],
        });
    };
    let arrived_type = part
        .sniffed
        .clone()
        .or_else(|| part.mime.clone())
        .unwrap_or_else(|| "unknown type".into());
    let mut changes = vec![format!(
        "{} {} -> {arrived_type} {}",
        m.mime,
        size(*bytes),
        size(arrived_bytes)
    )];
    let cut = kept.as_ref().is_some_and(|kept| {
        arrived_bytes < *bytes
            && part.sha256.as_deref()
                == Some(crate::digest::sha256_hex(&kept.0[..arrived_bytes as usize]).as_str())
    });
    let outcome = if cut {
        // A prefix of the file sent: cut short, whatever a lenient decoder makes of it.
        changes.push("cut short: the start of the file sent".into());
        DeliveryOutcome::Altered
    } else if part.content_carries(nonce) {
        let content = part.content.as_ref().map(|c| c.shape());
        if let (Some(before), Some(after)) = (shape, content)
            && *before != after
        {
            changes.push(format!("{before} -> {after}"));
        }
        changes.push(if part.content.as_ref().is_some_and(|c| c.rate.is_some()) {
            "same sound".into()
        } else {
            "same picture".into()
        });
        DeliveryOutcome::Transformed
    } else {
        changes.push(match part.content.as_ref() {
            Some(c) if c.unread.is_some() => {
                format!("not decodable ({})", c.unread.as_deref().unwrap_or(""))
            }
            Some(_) => "its content carries no stamp of the case".into(),
            None => "not recognisable as the file sent".into(),
        });
        DeliveryOutcome::Altered
    };
    Some(Delivery {
        outcome,
        sent,
        received,
        changes,
    })
}

/// Whether `outcome` counts as delivered for part `m` under `want`, and the level a
/// failure counts at (`None`: the case's own).
fn accepted(
    m: &SentMedia,
    outcome: DeliveryOutcome,
    want: DeliveryExpectation,
) -> (bool, Option<Level>) {
    use DeliveryExpectation as W;
    use DeliveryOutcome as O;
    match (outcome, want) {
        (O::Intact, _) => (true, None),
        (O::Transformed, W::Transformed | W::Text) => (true, None),
        (O::ConvertedToText, W::Text) if text_may_stand_for(m) => (true, None),
        (O::ConvertedToText, W::Transformed) if text_may_stand_for(m) => {
            (false, Some(Level::Should))
        }
        _ => (false, None),
    }
}

/// `witness.bytes` for sent part `m`, from its [`classify`]d delivery.
pub fn check(m: &SentMedia, delivery: Delivery, want: DeliveryExpectation) -> AssertionResult {
    let (passed, level) = accepted(m, delivery.outcome, want);
    let expected = match (want, &m.source) {
        (DeliveryExpectation::Intact, SentSource::Data { sha256, .. }) => format!(
            "{} intact, sha256 {} (expect.delivery: intact)",
            delivery.sent,
            sha256.get(..12).unwrap_or(sha256)
        ),
        (DeliveryExpectation::Text, _) => format!(
            "{} delivered: intact, transformed{}",
            delivery.sent,
            if text_may_stand_for(m) {
                " or as its text"
            } else {
                ""
            }
        ),
        _ => format!("{} delivered: intact or transformed", delivery.sent),
    };
    let actual = describe(&delivery);
    let out = AssertionResult::new("witness.bytes", expected, actual, passed);
    let out = match level {
        Some(level) => out.at_level(level),
        None => out,
    };
    out.with_delivery(delivery)
}

/// `transformed: image/gif 76 B -> image/png 73 B, 104x104 -> 52x52, same picture`.
pub fn describe(delivery: &Delivery) -> String {
    let outcome = delivery.outcome.as_str().replace('-', " ");
    match (&delivery.received, delivery.changes.is_empty()) {
        (None, _) => format!("{outcome}: nothing carrying its stamp reached the model"),
        (Some(received), true) => format!("{outcome}: the model received {received}"),
        (Some(received), false) => format!(
            "{outcome}: {} (the model received {received})",
            delivery.changes.join(", ")
        ),
    }
}

/// The note `witness.reached` adds for parts that arrived other than intact.
pub fn notes(deliveries: &[Delivery]) -> Vec<String> {
    deliveries
        .iter()
        .filter(|d| d.outcome != DeliveryOutcome::Intact)
        .map(|d| {
            format!(
                "{}: {}",
                d.outcome.as_str().replace('-', " "),
                d.changes.join(", ")
            )
        })
        .collect()
}

#[cfg(test)]
#[path = "delivery_tests.rs"]
mod tests;
