//! What the agent is declared to accept: the card's `defaultInputModes` (a request
//! cannot name a skill, so the defaults are what a message is judged against; skills
//! that widen or narrow them are reported), or `--accepts`, which overrides the card
//! and says so. Modes are media types (proto `AgentCard.default_input_modes`: "Defined
//! as media types"); a mode that is not one (`text`, `file`) is a finding, and is read
//! by its evident meaning so that an agent doing what its card means is not failed
//! for how it spelled it (docs/decisions.md, "A2A input modes").

use super::card::Card;
use serde::Serialize;
use serde_json::{Value, json};

/// The declaration the run is planned on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Declaration {
    /// What it accepts besides text: media-type prefixes (`image/`, `audio/wav`), or
    /// `*` for any type.
    pub accepts: Vec<String>,
    /// `card defaultInputModes`, `--accepts`, or `none (the card has no defaultInputModes)`.
    #[serde(rename = "declaredBy")]
    pub declared_by: String,
    /// The modes that are not media types, as written.
    #[serde(rename = "notMediaTypes")]
    pub not_media_types: Vec<String>,
    /// Skills whose `inputModes` differ from the defaults: `id: widens (video/mp4)`.
    pub skills: Vec<String>,
}

/// A mode read as a prefix: `image/*` and `image/` are `image/`, `*/*` is `*`, a full
/// type is itself (parameters dropped); `Err` when it is not a media type, with the
/// prefix it evidently means, if any.
fn prefix(mode: &str) -> Result<String, Option<String>> {
    let essence = mode
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let token = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(c, '!' | '#' | '$' | '&' | '^' | '_' | '.' | '+' | '-')
            })
    };
    match essence.split_once('/') {
        Some(("*", "*" | "")) => Ok("*".into()),
        Some((top, "*" | "")) if token(top) => Ok(format!("{top}/")),
        Some((top, sub)) if token(top) && token(sub) => Ok(essence.clone()),
        _ => Err(match essence.as_str() {
            "text" => Some("text/plain".into()),
            "image" | "images" => Some("image/".into()),
            "audio" => Some("audio/".into()),
            "video" => Some("video/".into()),
            "file" | "files" | "binary" => Some("*".into()),
            "json" | "data" => Some("application/json".into()),
            "pdf" => Some("application/pdf".into()),
            _ => None,
        }),
    }
}

/// Whether a mode is a media type or range (`image/png`, `image/*`), as the card's
/// modes are defined to be.
pub fn is_media_type(mode: &str) -> bool {
    prefix(mode).is_ok()
}

/// Whether `prefix` accepts `mime`.
pub fn prefix_accepts(prefix: &str, mime: &str) -> bool {
    let essence = mmconform_media::mime_essence(mime);
    prefix == "*"
        || match prefix.strip_suffix('/') {
            Some(top) => essence.starts_with(&format!("{top}/")),
            None => essence == prefix,
        }
}

/// Reads a list of modes: the prefixes, in order, each once, and the modes that are
/// not media types.
fn read_modes(modes: &[String]) -> (Vec<String>, Vec<String>) {
    let mut accepts = Vec::new();
    let mut not_media_types = Vec::new();
    for mode in modes.iter().filter(|m| !m.trim().is_empty()) {
        let read = match prefix(mode) {
            Ok(p) => Some(p),
            Err(meant) => {
                not_media_types.push(mode.clone());
                meant
            }
        };
        if let Some(p) = read
            && !accepts.contains(&p)
        {
            accepts.push(p);
        }
    }
    (accepts, not_media_types)
}

impl Declaration {
    /// The card's declaration.
    pub fn from_card(card: &Card) -> Declaration {
        let (accepts, not_media_types, declared_by) = match &card.input_modes {
            Some(modes) => {
                let (a, n) = read_modes(modes);
                (a, n, "card defaultInputModes".to_string())
            }
            None => (
                Vec::new(),
                Vec::new(),
                "none (the card has no defaultInputModes)".to_string(),
            ),
        };
        let skills = card
            .skills
            .iter()
            .filter_map(|skill| {
                let modes = skill.input_modes.as_ref()?;
                let (own, _) = read_modes(modes);
                // Text is every agent's: a skill that does not repeat text/plain narrows nothing.
                let media = |p: &&String| p.as_str() != "text/plain";
                let wider: Vec<&String> = own
                    .iter()
                    .filter(media)
                    .filter(|p| !accepts.contains(p))
                    .collect();
                let narrower: Vec<&String> = accepts
                    .iter()
                    .filter(media)
                    .filter(|p| !own.contains(p))
                    .collect();
                let list =
                    |l: &[&String]| l.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
                match (wider.is_empty(), narrower.is_empty()) {
                    (true, true) => None,
                    (false, true) => Some(format!(
                        "{}: widens the defaults ({})",
                        skill.id,
                        list(&wider)
                    )),
                    (true, false) => Some(format!(
                        "{}: narrows the defaults (leaves out {})",
                        skill.id,
                        list(&narrower)
                    )),
                    (false, false) => Some(format!(
                        "{}: adds {} and leaves out {}",
                        skill.id,
                        list(&wider),
                        list(&narrower)
                    )),
                }
            })
            .collect();
        Declaration {
            accepts,
            declared_by,
            not_media_types,
            skills,
        }
    }

    /// `--accepts`, overriding the card. `Err` names an entry that is not a media type.
    pub fn from_flag(list: &[String], card: Option<&Card>) -> Result<Declaration, String> {
        let (accepts, not_media_types) = read_modes(list);
        if let Some(bad) = not_media_types.first() {
            return Err(format!(
                "--accepts: `{bad}` is not a media type (write image/ or image/* for every image type, or a full type such as audio/wav)"
            ));
        }
        let skills = card
            .map(|c| Declaration::from_card(c).skills)
            .unwrap_or_default();
        Ok(Declaration {
            accepts,
            declared_by: "--accepts".into(),
            not_media_types,
            skills,
        })
    }

    /// No declaration: there is no card to read one from.
    pub fn none() -> Declaration {
        Declaration {
            accepts: Vec::new(),
            declared_by: "none (no agent card)".into(),
            not_media_types: Vec::new(),
            skills: Vec::new(),
        }
    }

    pub fn accepts_mime(&self, mime: &str) -> bool {
        self.accepts.iter().any(|p| prefix_accepts(p, mime))
    }

    /// The planning facts it gives (`a2a.acceptedMimes`, `a2a.firstMime.image`, ...),
    /// over the types mmconform generates.
    pub fn facts(&self) -> Value {
        let generated = mmconform_media::supported_mimes();
        let (accepted, undeclared): (Vec<&str>, Vec<&str>) =
            generated.iter().partition(|m| self.accepts_mime(m));
        let mut first = serde_json::Map::new();
        for mime in &accepted {
            first.entry(kind_of(mime)).or_insert(json!(mime));
        }
        let described = |mime: &str| json!({"mime": mime, "kind": kind_of(mime)});
        // A generated type of another kind than the first accepted one: bytes that
        // contradict a part's stated type.
        let other_kind = accepted.first().and_then(|first| {
            generated
                .iter()
                .find(|m| kind_of(m) != kind_of(first) && kind_of(m) != "video")
        });
        json!({
            "firstAccepted": accepted.first().map(|m| described(m)),
            "firstUndeclared": undeclared.first().map(|m| described(m)),
            "otherKindMime": other_kind,
            "accepts": self.accepts,
            "acceptedMimes": accepted,
            "undeclaredMimes": undeclared,
            "firstMime": first,
            "declaredBy": self.declared_by,
            "modesAreMediaTypes": self.not_media_types.is_empty(),
        })
    }
}

/// The part kind of a generated type: image, audio, video, or document.
pub fn kind_of(mime: &str) -> &'static str {
    match mime.split('/').next().unwrap_or("") {
        "image" => "image",
        "audio" => "audio",
        "video" => "video",
        _ => "document",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::a2a::card::{CardVersion, Skill};
    use crate::protocol::a2a::security::Security;

    fn card(modes: Option<&[&str]>, skills: Vec<Skill>) -> Card {
        Card {
            version: CardVersion::V1,
            interfaces: Vec::new(),
            unspoken: Vec::new(),
            input_modes: modes.map(|m| m.iter().map(|s| s.to_string()).collect()),
            skills,
            streaming: false,
            security: Security::default(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn media_types_and_ranges_are_prefixes_and_words_are_findings_read_by_meaning() {
        let d = Declaration::from_card(&card(
            Some(&[
                "text/plain",
                "image/*",
                "audio/wav;rate=8000",
                "file",
                "gibberish",
            ]),
            Vec::new(),
        ));
        assert_eq!(d.accepts, ["text/plain", "image/", "audio/wav", "*"]);
        assert_eq!(d.not_media_types, ["file", "gibberish"]);
        assert!(d.accepts_mime("video/mp4"));
        let facts =
            Declaration::from_card(&card(Some(&["image/png", "application/pdf"]), Vec::new()))
                .facts();
        assert_eq!(
            facts["acceptedMimes"],
            json!(["image/png", "application/pdf"])
        );
        assert_eq!(facts["firstMime"]["document"], "application/pdf");
        assert!(
            facts["undeclaredMimes"]
                .as_array()
                .unwrap()
                .contains(&json!("audio/wav"))
        );
        assert_eq!(facts["modesAreMediaTypes"], true);
    }

    #[test]
    fn skills_that_widen_or_narrow_are_reported_and_a_missing_list_accepts_nothing() {
        let skills = vec![
            Skill {
                id: "w".into(),
                input_modes: Some(vec!["image/*".into(), "video/mp4".into()]),
            },
            Skill {
                id: "n".into(),
                input_modes: Some(vec![]),
            },
            Skill {
                id: "same".into(),
                input_modes: Some(vec!["image/".into()]),
            },
            Skill {
                id: "d".into(),
                input_modes: None,
            },
        ];
        let d = Declaration::from_card(&card(Some(&["image/*"]), skills));
        assert_eq!(
            d.skills,
            [
                "w: widens the defaults (video/mp4)",
                "n: narrows the defaults (leaves out image/)"
            ]
        );
        let none = Declaration::from_card(&card(None, Vec::new()));
        assert!(none.accepts.is_empty() && none.declared_by.starts_with("none"));
        assert!(Declaration::from_flag(&["image".into()], None).is_err());
        assert_eq!(
            Declaration::from_flag(&["image/".into()], None)
                .unwrap()
                .declared_by,
            "--accepts"
        );
    }
}
