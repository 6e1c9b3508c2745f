//! Judging a recorded call against the wire rules llm-provider 0015 fixes for the
//! OpenAI wire (§3.1, §8.1.1) and WIRE.md §3 (audio, files), as assertions, and their
//! counterparts on the Responses wire (the OpenAI API reference's input items) and the
//! Gemini wire (the Gemini API reference's `Part` and `Blob`); each rule's `expected`
//! names the source for each wire it applies to.
//!
//! Each rule is one assertion with what it expects and what the call showed; a rule
//! runs only on calls it applies to (no `detail` rule on a call without images), so a
//! text-only call is judged on fewer rules. The decoders name the problems
//! ([`ProblemCode`]); a rule fails when the call has one of its codes. Part order is
//! judged here, from the stamps: `media export` stamps file N with `<nonce>-pN`, so
//! within one message the N must not go down.

use super::record::{ModelCall, Part, PartKind, ProblemCode};
use crate::outcome::AssertionResult;
use crate::wire::{chat, responses};

/// One wire rule.
pub struct Rule {
    /// The assertion's `check` name, stable.
    pub check: &'static str,
    /// What a conforming call shows, as the assertion's `expected`.
    pub expected: &'static str,
    /// The problems that break it.
    pub codes: &'static [ProblemCode],
    /// Whether a call's kept parts give the rule something to judge.
    applies: fn(&ModelCall) -> bool,
}

use ProblemCode as P;

pub const RULES: [Rule; 10] = [
    Rule {
        check: "request",
        expected: "a JSON model request of its wire: Chat Completions or Messages with a \
                   `messages` list, Responses with `input`, Gemini with a `contents` list",
        codes: &[
            P::MalformedJson,
            P::BodyTooLarge,
            P::BodyUnreadable,
            P::BadShape,
            P::UnsupportedEndpoint,
        ],
        applies: |_| true,
    },
    Rule {
        check: "content-not-empty",
        expected: "non-empty `messages` (`input`, `contents`), and no message with missing \
                   or empty content",
        codes: &[P::EmptyMessages, P::EmptyContent, P::MissingContent],
        applies: |call| call.status == 200,
    },
    Rule {
        check: "text-not-empty",
        expected: "no empty text block (0015 §3.1.1)",
        codes: &[P::EmptyText],
        applies: |call| any_part(call, |p| p.kind == PartKind::Text),
    },
    Rule {
        check: "part-types",
        expected: "every part of a type the wire defines, with that type's fields",
        codes: &[P::UnknownPartType, P::BadPart],
        applies: |call| !call.parts.is_empty(),
    },
    Rule {
        check: "data-url",
        expected: "inline media as data:<mime>;base64,<base64> (0015 §8.1.1; Responses \
                   image_url and file_data alike), Gemini inlineData as bare base64 with a \
                   mimeType (Gemini API reference, Blob); URLs http(s) (Gemini fileData also gs)",
        codes: &[
            P::DataUrlWithoutMime,
            P::DataUrlNotBase64,
            P::InvalidBase64,
            P::BadUrl,
        ],
        applies: |call| any_part(call, |p| p.kind.is_media()),
    },
    Rule {
        check: "detail",
        expected: "image_url.detail absent unless set, and then low, high or auto (0015 \
                   §3.1.2); input_image.detail low, high, auto or original (OpenAI API \
                   reference, Responses input_image)",
        codes: &[P::BadDetail],
        applies: |call| {
            any_part(call, |p| {
                p.wire_form == chat::form::IMAGE || p.wire_form == responses::form::IMAGE
            })
        },
    },
    Rule {
        check: "media-on-user",
        expected: "media parts on user messages only (0015 §3)",
        codes: &[P::MediaOnNonUser],
        applies: |call| any_part(call, |p| p.kind.is_media()),
    },
    Rule {
        check: "media-matches-bytes",
        expected: "the declared MIME type and the part's kind match the bytes' signature",
        codes: &[P::MimeMismatch, P::KindMismatch],
        applies: |call| any_part(call, |p| p.kind.is_media() && p.bytes.is_some()),
    },
    Rule {
        check: "audio-format",
        expected: "input_audio.format names what the bytes are (wav, mp3), on Chat \
                   Completions and Responses alike",
        codes: &[P::AudioFormatMismatch],
        applies: |call| {
            any_part(call, |p| {
                p.wire_form == chat::form::AUDIO || p.wire_form == responses::form::AUDIO
            })
        },
    },
    Rule {
        check: "file-fields",
        expected: "a file part carries file_data (a data URL) and a filename (Chat file; \
                   Responses input_file given by file_data)",
        codes: &[P::FileIncomplete],
        applies: |call| {
            any_part(call, |p| {
                p.wire_form == chat::form::FILE || p.wire_form == responses::form::FILE
            })
        },
    },
];

/// The check name of the part-order rule.
pub const PART_ORDER: &str = "part-order";

fn any_part(call: &ModelCall, pred: impl Fn(&Part) -> bool) -> bool {
    call.parts.iter().any(pred)
}

/// Problem messages shown in one assertion; the rest are counted.
const SHOWN: usize = 3;

/// Every rule that applies to `call`, judged.
pub fn judge(call: &ModelCall) -> Vec<AssertionResult> {
    let mut out: Vec<AssertionResult> = RULES
        .iter()
        .filter_map(|rule| judge_rule(rule, call))
        .collect();
    out.extend(part_order(call));
    out
}

fn judge_rule(rule: &Rule, call: &ModelCall) -> Option<AssertionResult> {
    let broken: Vec<&str> = call
        .all_problems()
        .filter(|p| rule.codes.contains(&p.code))
        .map(|p| p.message.as_str())
        .collect();
    // A problem counts even from a part past the cap, where `applies` cannot see it.
    if broken.is_empty() && !(rule.applies)(call) {
        return None;
    }
    let actual = if broken.is_empty() {
        format!("held over {} part(s)", call.parts_total)
    } else {
        shown(&broken)
    };
    Some(AssertionResult::new(
        rule.check,
        rule.expected.to_string(),
        actual,
        broken.is_empty(),
    ))
}

fn shown(messages: &[&str]) -> String {
    let mut text = messages[..messages.len().min(SHOWN)].join("; ");
    if messages.len() > SHOWN {
        text.push_str(&format!(" (and {} more)", messages.len() - SHOWN));
    }
    text
}

/// `(base, n)` of a stamp `<base>-p<n>`.
pub fn indexed(stamp: &str) -> Option<(&str, u64)> {
    let (base, n) = stamp.rsplit_once("-p")?;
    if base.is_empty() || n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((base, n.parse().ok()?))
}

/// Within each message, indexed stamps of one base must not go down in body order.
/// Applies only where a message holds two or more of them.
fn part_order(call: &ModelCall) -> Option<AssertionResult> {
    let mut seen: Vec<(Option<usize>, &str, u64, &Part)> = Vec::new();
    let mut compared = 0usize;
    let mut broken: Vec<String> = Vec::new();
    for part in &call.parts {
        for (base, n) in part.stamps.iter().filter_map(|s| indexed(s)) {
            let earlier = seen
                .iter()
                .filter(|(m, b, _, _)| *m == part.message && *b == base)
                .max_by_key(|(_, _, n, _)| *n);
            if let Some((_, _, before, at)) = earlier {
                compared += 1;
                if *before > n {
                    broken.push(format!(
                        "{base}-p{n} at {} comes after {base}-p{before} at {}",
                        part.at, at.at
                    ));
                }
            }
            seen.push((part.message, base, n, part));
        }
    }
    if compared == 0 {
        return None;
    }
    let actual = if broken.is_empty() {
        format!("{} stamped part(s) in the order sent", seen.len())
    } else {
        let refs: Vec<&str> = broken.iter().map(String::as_str).collect();
        shown(&refs)
    };
    Some(AssertionResult::new(
        PART_ORDER,
        "stamped parts in the order sent: <nonce>-p0 before -p1 within a message (0015 §3.1.4)"
            .into(),
        actual,
        broken.is_empty(),
    ))
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
