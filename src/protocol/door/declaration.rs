//! What an OpenAI-compatible endpoint's model is declared to take. Chat Completions has
//! no capability discovery (`GET /models` names models, not what they accept), so the
//! user states it (`--accepts image/,audio/wav` or `--claims FILE`), and with no
//! declaration the model is text-only: every media kind must be refused, which is the
//! case users hit most (an image sent to a text model).
//!
//! MIME prefixes work as in every declaration (`protocol::declared_media`: `image/`
//! accepts every image type, a full type only itself); a prefix's kind is the Chat Completions part it travels in:
//! `image/*` -> `image_url`, `audio/*` -> `input_audio`, anything else -> `file`.

use super::{KINDS, SOURCE_KINDS, kind_of_mime};
use crate::config::Claims;
use crate::protocol::declared_media::{parse_prefixes, parse_sources, prefix_accepts, split_kinds};
use mmconform_media as media;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::Path;

/// Names available under `openai.` in predicates and placeholders (checked by `lint`).
pub const FACT_NAMES: [&str; 13] = [
    "model",
    "accepts",
    "kinds",
    "undeclaredKinds",
    "sources",
    "detail",
    "streaming",
    "acceptedMimes",
    "undeclaredMimes",
    "firstAcceptedMime",
    "firstAcceptedKind",
    "firstMime",
    "declaredBy",
];

/// The declared capabilities of one model, as recorded in every report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    /// MIME prefixes (`image/`) and full types (`audio/wav`), lower case; empty: text only.
    pub accepts: Vec<String>,
    /// How media may be given: `data` (data URL or base64), `http` (an http(s) URL the
    /// server fetches), `file_id` (a file uploaded before).
    pub sources: Vec<String>,
    /// `image_url.detail` is honoured (a server that does not honour it must still
    /// ignore it without error).
    pub detail: bool,
    /// `stream: true` is offered.
    pub streaming: bool,
    /// Part kinds with at least one accepted MIME prefix: `image`, `audio`, `file`.
    pub kinds: Vec<String>,
    /// Part kinds with none: parts of these kinds must be refused.
    pub undeclared_kinds: Vec<String>,
    /// `no declaration (text-only)`, `--accepts`, `claims FILE`, `reference server`.
    pub declared_by: String,
}

/// The claim file's shape for `--profile openai` (YAML or JSON); `accepts` empty or
/// absent declares a text-only model.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimFile {
    #[serde(default)]
    accepts: Vec<String>,
    #[serde(default = "default_sources")]
    sources: Vec<String>,
    #[serde(default)]
    detail: bool,
    #[serde(default = "yes")]
    streaming: bool,
}

fn default_sources() -> Vec<String> {
    vec!["data".to_string()]
}

fn yes() -> bool {
    true
}

impl Declaration {
    /// Builds a declaration; every problem is a usage error.
    pub fn new(
        accepts: &[String],
        sources: &[String],
        detail: bool,
        streaming: bool,
        declared_by: &str,
    ) -> Result<Declaration, String> {
        let prefixes = parse_prefixes(accepts)?;
        let mut source_list = parse_sources(sources, &SOURCE_KINDS)?;
        if source_list.is_empty() {
            source_list = default_sources();
        }
        let (kinds, undeclared_kinds) = split_kinds(&KINDS, &prefixes, kind_of_mime);
        Ok(Declaration {
            accepts: prefixes,
            sources: source_list,
            detail,
            streaming,
            kinds,
            undeclared_kinds,
            declared_by: declared_by.to_string(),
        })
    }

    /// No declaration: a text-only model that streams.
    pub fn text_only() -> Declaration {
        // Cannot fail: no prefixes, known sources.
        Declaration::new(&[], &[], false, true, "no declaration (text-only)")
            .unwrap_or_else(|_| unreachable!("an empty declaration is valid"))
    }

    /// The declaration a run's claims make: an embedded server's own, `--claims FILE`,
    /// `--accepts`, or none (text-only).
    pub fn from_claims(claims: &Claims) -> Result<Declaration, String> {
        match (&claims.embedded, &claims.file) {
            (Some(e), _) => Declaration::new(&e.accepts, &e.sources, e.detail, e.streaming, &e.by),
            (None, Some(path)) => Declaration::from_claims_file(path),
            (None, None) if !claims.accepts.is_empty() => Declaration::new(
                &claims.accepts,
                &default_sources(),
                false,
                true,
                "--accepts",
            )
            .map_err(|e| format!("--accepts: {e}")),
            (None, None) => Ok(Declaration::text_only()),
        }
    }

    /// Reads a claim file (`.json` as JSON, anything else as YAML).
    pub fn from_claims_file(path: &Path) -> Result<Declaration, String> {
        let shown = path.display();
        let claims: ClaimFile = crate::protocol::claims_file::read(path)?;
        Declaration::new(
            &claims.accepts,
            &claims.sources,
            claims.detail,
            claims.streaming,
            &format!("claims {shown}"),
        )
        .map_err(|e| format!("{shown}: {e}"))
    }

    pub fn accepts_mime(&self, mime: &str) -> bool {
        self.accepts.iter().any(|p| prefix_accepts(p, mime))
    }

    /// The generated MIME types the declaration accepts (video has no Chat Completions part).
    pub fn accepted_mimes(&self) -> Vec<&'static str> {
        generated().filter(|m| self.accepts_mime(m)).collect()
    }

    /// Generated MIME types of a declared kind that no prefix accepts.
    pub fn undeclared_mimes(&self) -> Vec<&'static str> {
        generated()
            .filter(|m| !self.accepts_mime(m) && self.kinds.iter().any(|k| k == kind_of_mime(m)))
            .collect()
    }

    /// The first accepted generated MIME type of each declared kind
    /// (`{image: image/png, audio: audio/wav}`): what a case about one kind builds on.
    fn first_mime_per_kind(&self) -> Value {
        let mut out = serde_json::Map::new();
        for mime in self.accepted_mimes() {
            out.entry(kind_of_mime(mime)).or_insert_with(|| json!(mime));
        }
        Value::Object(out)
    }

    /// The facts scenario predicates see under `openai.`.
    pub fn facts(&self, model: Option<&str>) -> Value {
        let first = self.accepted_mimes().first().copied();
        json!({
            "model": model,
            "accepts": self.accepts,
            "kinds": self.kinds,
            "undeclaredKinds": self.undeclared_kinds,
            "sources": self.sources,
            "detail": self.detail,
            "streaming": self.streaming,
            "acceptedMimes": self.accepted_mimes(),
            "undeclaredMimes": self.undeclared_mimes(),
            "firstAcceptedMime": first,
            "firstAcceptedKind": first.map(kind_of_mime),
            "firstMime": self.first_mime_per_kind(),
            "declaredBy": self.declared_by,
        })
    }

    /// One line for terminals and JUnit.
    pub fn summary(&self) -> String {
        let accepts = if self.accepts.is_empty() {
            "text only".to_string()
        } else {
            format!("accepts {}", self.accepts.join(", "))
        };
        format!(
            "{accepts}; sources {}; detail {}; streaming {}",
            self.sources.join(", "),
            if self.detail {
                "honoured"
            } else {
                "not claimed"
            },
            if self.streaming {
                "offered"
            } else {
                "not offered"
            },
        )
    }
}

/// The generated MIME types a Chat Completions part can carry.
fn generated() -> impl Iterator<Item = &'static str> {
    media::supported_mimes()
        .iter()
        .copied()
        .filter(|m| !m.starts_with("video/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(s: &str) -> Vec<String> {
        s.split(',').map(str::to_string).collect()
    }

    #[test]
    fn no_declaration_is_a_text_only_model() {
        let d = Declaration::from_claims(&Claims::default()).unwrap();
        assert!(d.kinds.is_empty());
        assert_eq!(d.undeclared_kinds, ["image", "audio", "file"]);
        assert_eq!(d.declared_by, "no declaration (text-only)");
        let facts = d.facts(Some("m"));
        assert_eq!(facts["firstAcceptedMime"], Value::Null);
        assert_eq!(facts["model"], "m");
        for name in FACT_NAMES {
            assert!(facts.get(name).is_some(), "{name}");
        }
        assert!(d.summary().starts_with("text only;"), "{}", d.summary());
    }

    #[test]
    fn kinds_follow_the_prefixes() {
        let claims = Claims {
            accepts: list("image/png,audio/,application/pdf"),
            ..Claims::default()
        };
        let d = Declaration::from_claims(&claims).unwrap();
        assert_eq!(d.kinds, ["image", "audio", "file"]);
        assert!(d.undeclared_kinds.is_empty());
        assert_eq!(
            d.accepted_mimes(),
            ["image/png", "audio/wav", "audio/mpeg", "application/pdf"]
        );
        assert_eq!(
            d.undeclared_mimes(),
            ["image/jpeg", "image/webp", "image/gif"]
        );
        assert_eq!(
            d.facts(None)["firstMime"],
            json!({"image": "image/png", "audio": "audio/wav", "file": "application/pdf"})
        );
        assert!(d.streaming && !d.detail);
    }

    #[test]
    fn claim_files_name_sources_detail_and_streaming() {
        let dir = tempfile::tempdir().unwrap();
        let yaml = dir.path().join("claims.yaml");
        std::fs::write(
            &yaml,
            "accepts: [image/]\nsources: [data, http]\ndetail: true\nstreaming: false\n",
        )
        .unwrap();
        let d = Declaration::from_claims_file(&yaml).unwrap();
        assert_eq!(
            (d.kinds.as_slice(), d.detail, d.streaming),
            (["image".to_string()].as_slice(), true, false)
        );
        assert_eq!(d.sources, ["data", "http"]);
        let empty = dir.path().join("text.json");
        std::fs::write(&empty, "{}").unwrap();
        assert!(
            Declaration::from_claims_file(&empty)
                .unwrap()
                .kinds
                .is_empty()
        );
        let bad = dir.path().join("bad.yaml");
        std::fs::write(&bad, "accepts: [image/]\nsources: [url]\n").unwrap();
        let err = Declaration::from_claims_file(&bad).unwrap_err();
        assert!(err.contains("unknown source kind `url`"), "{err}");
    }
}
