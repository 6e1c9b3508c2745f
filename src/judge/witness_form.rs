//! The SHOULD half of `witness: reached`, once every part was found: each part in the
//! wire form of its kind, with the MIME type (or audio `format`) it was sent with, in
//! the order it was sent, and the text alongside. The mapping is llm-provider 0015
//! §3.1's, which WIRE.md §3 follows: image -> `image_url` (Anthropic `image`), audio ->
//! `input_audio` with the bytes' `format`, document -> `file` (Anthropic `document`),
//! each data URL (or `media_type`) naming the part's MIME type. On the Responses wire the
//! forms are `input_image`, `input_audio` and `input_file` (OpenAI API reference); on the
//! Gemini wire every medium is `inlineData` (or `fileData`) and its `mimeType` is what
//! tells the kind (Gemini API reference, `Blob`), so there the MIME check does the work.

use super::witness::Matched;
use crate::outcome::{AssertionResult, Level};
use crate::request::sent::{SentMedia, SentPart, SentSource};
use crate::wire::{anthropic, chat, gemini, responses};
use crate::witness::{ModelCall, Part, PartKind, SourceKind};

const CITE: &str = "llm-provider 0015 §3.1, WIRE.md §3";

fn should(check: &str, expected: String, actual: String, passed: bool) -> AssertionResult {
    AssertionResult::new(check, expected, actual, passed).at_level(Level::Should)
}

/// The SHOULD checks of a call in which every sent part was found.
pub fn checks(
    sent: &[SentPart],
    media: &[&SentMedia],
    matched: &Matched,
    calls: &[ModelCall],
    nonce: &str,
) -> Vec<AssertionResult> {
    let mut out = Vec::new();
    for (m, part) in media.iter().zip(&matched.found) {
        let Some(part) = part else { continue };
        out.extend(form(m, part));
        out.extend(mime(m, part));
        out.extend(detail(m, part));
        out.extend(filename(m, part));
    }
    out.extend(order(sent, matched, nonce));
    out.extend(text(sent, calls, nonce));
    out
}

/// The wire forms a kind may take; `None` for kinds 0015 gives no form (video, ...).
pub fn forms(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "image" => &[
            chat::form::IMAGE,
            anthropic::form::IMAGE,
            responses::form::IMAGE,
            gemini::form::INLINE_DATA,
            gemini::form::FILE_DATA,
        ],
        "audio" => &[
            chat::form::AUDIO,
            responses::form::AUDIO,
            gemini::form::INLINE_DATA,
        ],
        // `file` is the OpenAI pack's name for a document part.
        "document" | "file" => &[
            chat::form::FILE,
            anthropic::form::DOCUMENT,
            responses::form::FILE,
            gemini::form::INLINE_DATA,
            gemini::form::FILE_DATA,
        ],
        _ => return None,
    })
}

/// `witness.form`: the part went in a form of its kind. A part that arrived as a URL
/// or file id (no bytes on the wire) is judged only when an image: 0015 gives audio
/// and documents no by-reference form.
fn form(m: &SentMedia, part: &Part) -> Option<AssertionResult> {
    let allowed = forms(&m.kind)?;
    let by_reference = matches!(part.source, Some(SourceKind::Url | SourceKind::FileId));
    if by_reference && m.kind != "image" {
        return None;
    }
    Some(should(
        "witness.form",
        format!("{} as {} ({CITE})", m.kind, allowed.join(" or ")),
        format!("{} arrived as {} at {}", m.kind, part.wire_form, part.at),
        allowed.contains(&part.wire_form.as_str()),
    ))
}

/// The `input_audio.format` 0015 gives a MIME type (`wav`, `mp3`).
pub fn audio_format(mime: &str) -> Option<&'static str> {
    match mmconform_media::canonical_mime(mime).as_str() {
        "audio/wav" => Some("wav"),
        "audio/mpeg" => Some("mp3"),
        _ => None,
    }
}

/// `witness.mime`: the type declared on the wire is the one sent (for `input_audio`,
/// the `format` of that type); for a part a host re-encoded (other bytes, the same
/// content), the type of what it carries. Only inline data: a reference's type is
/// the host's.
fn mime(m: &SentMedia, part: &Part) -> Option<AssertionResult> {
    let SentSource::Data { sha256, .. } = &m.source else {
        return None;
    };
    let transformed = part.sha256.as_ref() != Some(sha256) && part.sniffed.is_some();
    let carried = match transformed {
        true => part.sniffed.clone().unwrap_or_default(),
        false => m.mime.clone(),
    };
    let m = &SentMedia {
        mime: carried,
        ..(*m).clone()
    };
    let declared = part.mime.as_deref().unwrap_or("(none)");
    if part.wire_form == chat::form::AUDIO || part.wire_form == responses::form::AUDIO {
        let format = audio_format(&m.mime)?;
        return Some(should(
            "witness.mime",
            format!("input_audio.format {format} for {} ({CITE})", m.mime),
            format!("format {declared} at {}", part.at),
            declared == format,
        ));
    }
    let passed = part.mime.as_deref().is_some_and(|d| {
        mmconform_media::canonical_mime(d) == mmconform_media::canonical_mime(&m.mime)
    });
    Some(should(
        "witness.mime",
        format!("MIME type {} on the wire ({CITE})", m.mime),
        format!("{declared} at {}", part.at),
        passed,
    ))
}

/// `witness.detail`: an image's `detail` arrives as it was set, and is absent when it
/// was not (0015 §3.1: absent on the wire unless set). Judged on `image_url` and
/// Responses `input_image` parts: the other wires carry no detail. A detail not set may
/// arrive as `auto` on `input_image`, the value the Responses API takes it to be.
fn detail(m: &SentMedia, part: &Part) -> Option<AssertionResult> {
    let responses = part.wire_form == responses::form::IMAGE;
    if m.kind != "image" || !(part.wire_form == "image_url" || responses) {
        return None;
    }
    let shown = |d: Option<&str>| d.map_or("absent".to_string(), |d| format!("\"{d}\""));
    let passed = part.detail == m.detail
        || (responses && m.detail.is_none() && part.detail.as_deref() == Some("auto"));
    Some(should(
        "witness.detail",
        format!(
            "{}.detail {} ({CITE})",
            if responses {
                "input_image"
            } else {
                "image_url"
            },
            shown(m.detail.as_deref())
        ),
        format!("detail {} at {}", shown(part.detail.as_deref()), part.at),
        passed,
    ))
}

/// `witness.filename`: a file sent with a filename keeps it on the way, and a file sent
/// without one (`omit: [filename]`) gets none invented (issue 24: an invented name is
/// reported). Chat's `file` form requires a filename (the witness's rules), so there a
/// gateway must name it and the name is not held against it.
fn filename(m: &SentMedia, part: &Part) -> Option<AssertionResult> {
    // Gemini's Blob and FileData have no file name to keep.
    if part.kind != PartKind::Document || part.wire_form.starts_with("gemini.") {
        return None;
    }
    let arrived = part.filename.as_deref().unwrap_or("(none)");
    let Some(sent) = m.filename.as_deref() else {
        let invented = super::repair::invented_filename(m, part)?;
        if part.wire_form == "file" {
            return None;
        }
        return Some(should(
            "witness.filename",
            format!("no filename, as sent ({CITE})"),
            invented,
            false,
        ));
    };
    Some(should(
        "witness.filename",
        format!("filename \"{sent}\" as sent ({CITE})"),
        format!("filename \"{arrived}\" at {}", part.at),
        arrived == sent,
    ))
}

/// `witness.order`: the parts of the call that carry the case (its media and texts)
/// come in the order they were sent. Judged when at least two of them are there.
fn order(sent: &[SentPart], matched: &Matched, nonce: &str) -> Option<AssertionResult> {
    let media_at: Vec<usize> = (0..sent.len())
        .filter(|&i| matches!(sent[i], SentPart::Media(_)))
        .collect();
    let text_at: Vec<usize> = (0..sent.len())
        .filter(|&i| sent[i] == SentPart::Text)
        .collect();
    let mut texts = text_at.iter();
    let mut positions: Vec<(usize, String)> = Vec::new();
    for part in &matched.call.parts {
        let media = matched
            .found
            .iter()
            .position(|f| f.is_some_and(|f| std::ptr::eq(f, part)));
        let at = match media {
            Some(i) => media_at.get(i).copied(),
            None if part.kind == PartKind::Text && part.carries(nonce) => texts.next().copied(),
            None => None,
        };
        if let Some(at) = at {
            positions.push((at, part.kind.as_str().to_string()));
        }
    }
    if positions.len() < 2 {
        return None;
    }
    let kinds = |mut list: Vec<(usize, String)>| {
        list.sort_by_key(|(at, _)| *at);
        list.into_iter()
            .map(|(_, k)| k)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let arrived: Vec<String> = positions.iter().map(|(_, k)| k.clone()).collect();
    let in_order = positions.windows(2).all(|w| w[0].0 < w[1].0);
    Some(should(
        "witness.order",
        format!("parts in the order sent: {}", kinds(positions.clone())),
        format!("the model received them as: {}", arrived.join(", ")),
        in_order,
    ))
}

/// `witness.text`: a text naming the case's nonce was sent, and one reached the model.
fn text(sent: &[SentPart], calls: &[ModelCall], nonce: &str) -> Option<AssertionResult> {
    if !sent.contains(&SentPart::Text) {
        return None;
    }
    let found = calls.iter().find_map(|c| {
        c.parts
            .iter()
            .find(|p| p.kind == PartKind::Text && p.carries(nonce))
            .map(|p| format!("text at {} (call {})", p.at, c.seq))
    });
    Some(should(
        "witness.text",
        "the text parts sent reach the model".into(),
        found
            .clone()
            .unwrap_or_else(|| "no text part carrying the case's nonce reached the model".into()),
        found.is_some(),
    ))
}
