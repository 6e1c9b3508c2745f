//! `witness: withheld-or-repaired`: what a gateway did with a malformed input, judged
//! as it really differs (issue 24, item 3).
//!
//! - Nothing reached the model: the input was withheld (pass).
//! - A call carrying the case's input reached the model and the witness found a
//!   problem in it (the wire's own rules, `witness::rules`): the malformation was
//!   forwarded *as malformed*, garbage reached the model: `witness.withheld` fails
//!   at the case's level (a MUST in the packs).
//! - A call reached the model and it is a valid call of its wire: the gateway
//!   *repaired* the input (added the missing MIME type, turned a bare string into the
//!   object form, removed an empty text part, dropped the part it could not read)
//!   and forwarded that. It should have been refused with 400, so this fails
//!   `witness.repaired` as a SHOULD, saying what changed: each media part sent is
//!   named as dropped or as the form it arrived in, and a filename the gateway
//!   invented is named.
//!
//! A part that was left out is always reported as dropped, never as forwarded.

use super::witness::{describe_call, describe_part};
use crate::outcome::{AssertionResult, Level};
use crate::request::sent::{SentMedia, SentPart};
use crate::witness::{ModelCall, Part, PartKind, Problem};

/// The assertion `withheld-or-repaired` makes of `calls` (those carrying `nonce`,
/// read by a model: token counts already left out).
pub fn judge(sent: &[SentPart], calls: &[ModelCall], nonce: &str) -> AssertionResult {
    let expected = "a malformed input is refused, never forwarded as malformed; \
                    repaired into a valid call it should still have been refused"
        .to_string();
    let Some(first) = calls.first() else {
        return AssertionResult::new(
            "witness.withheld",
            expected,
            "no model call carried the case's nonce".into(),
            true,
        );
    };
    if let Some((call, problems)) = calls.iter().find_map(|c| {
        let problems: Vec<&Problem> = c.all_problems().collect();
        (!problems.is_empty()).then_some((c, problems))
    }) {
        let named: Vec<String> = problems
            .iter()
            .take(3)
            .map(|p| format!("{:?}: {}", p.code, p.message))
            .collect();
        return AssertionResult::new(
            "witness.withheld",
            expected,
            format!(
                "forwarded as malformed: call {} ({}) carries {}; {}",
                call.seq,
                call.wire.as_str(),
                named.join("; "),
                changes(sent, call, nonce).join("; ")
            ),
            false,
        );
    }
    AssertionResult::new(
        "witness.repaired",
        expected,
        format!(
            "repaired into a valid {} call and forwarded (call {}): {}",
            first.wire.as_str(),
            first.seq,
            changes(sent, first, nonce).join("; ")
        ),
        false,
    )
    .at_level(Level::Should)
}

/// What the gateway changed, part by part: each media part sent, dropped or as it
/// arrived; a filename it invented; and what the model received in the end.
pub fn changes(sent: &[SentPart], call: &ModelCall, nonce: &str) -> Vec<String> {
    let mut used = vec![false; call.parts.len()];
    let mut out = Vec::new();
    for m in sent.iter().filter_map(|p| match p {
        SentPart::Media(m) => Some(m),
        SentPart::Text => None,
    }) {
        match arrival(m, call, nonce, &mut used) {
            None => out.push(format!("dropped the {} part ({})", m.kind, m.describe())),
            Some(part) => {
                out.push(format!(
                    "the {} part ({}) arrived as {} at {}",
                    m.kind,
                    m.describe(),
                    describe_part(part),
                    part.at
                ));
                out.extend(added_mime(m, part));
                out.extend(invented_filename(m, part));
            }
        }
    }
    out.push(format!("the model received: {}", describe_call(call)));
    out
}

/// The part a sent media part arrived as, each part used once: one stamped with the
/// case's nonce (of the same kind first); else, for bytes that carry no stamp (literal
/// or re-encoded data, a reference), an unstamped part of the same kind or type.
fn arrival<'a>(
    m: &SentMedia,
    call: &'a ModelCall,
    nonce: &str,
    used: &mut [bool],
) -> Option<&'a Part> {
    let media = |p: &Part| p.kind.is_media() || p.kind == PartKind::Unknown;
    let same_kind = |p: &Part| {
        p.kind.as_str() == m.kind
            || (m.kind == "file" && p.kind == PartKind::Document)
            || (p.kind == PartKind::Unknown && p.wire_form == m.kind)
    };
    let stamped = |p: &Part| media(p) && p.carries(nonce);
    let fits: [&dyn Fn(&Part) -> bool; 3] = [
        &|p: &Part| stamped(p) && same_kind(p),
        &|p: &Part| stamped(p),
        &|p: &Part| media(p) && p.stamps.is_empty() && same_kind(p),
    ];
    let at = fits
        .iter()
        .find_map(|fit| (0..call.parts.len()).find(|&i| !used[i] && fit(&call.parts[i])))?;
    used[at] = true;
    Some(&call.parts[at])
}

/// A filename on a part that was sent without one (`omit: [filename]`): the gateway
/// made it up. `None` when one was sent or none arrived.
pub fn invented_filename(m: &SentMedia, part: &Part) -> Option<String> {
    if m.filename.is_some() || !m.omitted.iter().any(|f| f == "filename") {
        return None;
    }
    let name = part.filename.as_deref()?;
    Some(format!(
        "a filename \"{name}\" the gateway invented (none was sent) at {}",
        part.at
    ))
}

/// A MIME type on a part that was sent without one (`omit: [mimeType]`).
fn added_mime(m: &SentMedia, part: &Part) -> Option<String> {
    if !m.omitted.iter().any(|f| f == "mimeType") {
        return None;
    }
    let mime = part.mime.as_deref()?;
    Some(format!(
        "added the MIME type {mime} (none was sent) at {}",
        part.at
    ))
}

#[cfg(test)]
#[path = "repair_tests.rs"]
mod tests;
