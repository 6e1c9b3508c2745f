//! What an AG-UI agent is declared to accept. AG-UI has no discovery endpoint, so the
//! user states it (`--accepts image/,audio/wav` or `--claims FILE`), and the declaration
//! drives applicability exactly as a discovery document does for openwop.
//!
//! A capability is a list of MIME prefixes, as AgentRuntime's
//! `mediaCapabilities.acceptsInbound` has it (docs/wire.md, "Declarations"): `image/` accepts every image
//! type; a full type (`audio/wav`) accepts exactly that type, parameters ignored.

use super::{PART_KINDS, SOURCE_KINDS, kind_of_mime};
use crate::config::Claims;
use crate::protocol::declared_media::{parse_prefixes, parse_sources, prefix_accepts, split_kinds};
use mmconform_media as media;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::Path;

/// Names available under `agui.` in predicates and placeholders (checked by `lint`).
pub const FACT_NAMES: [&str; 10] = [
    "accepts",
    "kinds",
    "undeclaredKinds",
    "sources",
    "acceptedMimes",
    "undeclaredMimes",
    "firstAcceptedMime",
    "firstAcceptedKind",
    "echo",
    "declaredBy",
];

/// The declared capabilities of one agent, as recorded in every report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    /// MIME prefixes (`image/`) and full types (`audio/wav`), lower case, in the order given.
    pub accepts: Vec<String>,
    /// Source kinds the agent takes: `data`, `url`, `file`.
    pub sources: Vec<String>,
    /// The agent emits an `mmconform.echo` CUSTOM event (README, "The echo event").
    pub echo: bool,
    /// Part kinds with at least one accepted MIME prefix, in AG-UI's order.
    pub kinds: Vec<String>,
    /// Part kinds with none: parts of these kinds must not complete silently.
    pub undeclared_kinds: Vec<String>,
    /// Where the declaration came from: `--accepts`, `claims FILE`, `reference agent`.
    pub declared_by: String,
}

/// The claim file's shape (`--claims FILE`, YAML or JSON).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimFile {
    accepts: Vec<String>,
    #[serde(default = "default_sources")]
    sources: Vec<String>,
    #[serde(default)]
    echo: bool,
}

fn default_sources() -> Vec<String> {
    vec!["data".to_string()]
}

impl Declaration {
    /// Builds a declaration from already-split lists; every problem is a usage error.
    pub fn new(
        accepts: &[String],
        sources: &[String],
        echo: bool,
        declared_by: &str,
    ) -> Result<Declaration, String> {
        let prefixes = parse_prefixes(accepts)?;
        if prefixes.is_empty() {
            return Err("the declaration accepts nothing: name at least one MIME prefix".into());
        }
        let source_list = parse_sources(sources, &SOURCE_KINDS)?;
        if source_list.is_empty() {
            return Err("the declaration names no source kind (data, url, file)".into());
        }
        let (kinds, undeclared_kinds) = split_kinds(&PART_KINDS, &prefixes, kind_of_mime);
        Ok(Declaration {
            accepts: prefixes,
            sources: source_list,
            echo,
            kinds,
            undeclared_kinds,
            declared_by: declared_by.to_string(),
        })
    }

    /// The declaration a run's claims make: an embedded agent's own, `--claims FILE` or
    /// `--accepts` (exactly one; the CLI refuses two).
    pub fn from_claims(claims: &Claims) -> Result<Declaration, String> {
        match (&claims.embedded, &claims.file) {
            (Some(e), _) => Declaration::new(&e.accepts, &e.sources, e.echo, &e.by),
            (None, Some(path)) => Declaration::from_claims_file(path),
            (None, None) if !claims.accepts.is_empty() => {
                Declaration::from_flag(&claims.accepts).map_err(|e| format!("--accepts: {e}"))
            }
            (None, None) => Err(
                "AG-UI has no discovery endpoint: declare what the agent accepts with \
                 --accepts image/,audio/wav (MIME prefixes) or --claims FILE"
                    .into(),
            ),
        }
    }

    /// `--accepts image/,audio/wav`: data sources only, no echo claimed.
    pub fn from_flag(list: &[String]) -> Result<Declaration, String> {
        Declaration::new(list, &default_sources(), false, "--accepts")
    }

    /// Reads a claim file (`.json` as JSON, anything else as YAML).
    pub fn from_claims_file(path: &Path) -> Result<Declaration, String> {
        let shown = path.display();
        let claims: ClaimFile = crate::protocol::claims_file::read(path)?;
        Declaration::new(
            &claims.accepts,
            &claims.sources,
            claims.echo,
            &format!("claims {shown}"),
        )
        .map_err(|e| format!("{shown}: {e}"))
    }

    /// Whether a MIME type is accepted by some declared prefix.
    pub fn accepts_mime(&self, mime: &str) -> bool {
        self.accepts.iter().any(|p| prefix_accepts(p, mime))
    }

    /// The MIME types mmconform can generate that the declaration accepts.
    pub fn accepted_mimes(&self) -> Vec<&'static str> {
        media::supported_mimes()
            .iter()
            .copied()
            .filter(|m| self.accepts_mime(m))
            .collect()
    }

    /// Generated MIME types of a declared kind that no prefix accepts (`audio/mpeg`
    /// when only `audio/wav` is declared).
    pub fn undeclared_mimes(&self) -> Vec<&'static str> {
        media::supported_mimes()
            .iter()
            .copied()
            .filter(|m| !self.accepts_mime(m) && self.kinds.iter().any(|k| k == kind_of_mime(m)))
            .collect()
    }

    /// The facts scenario predicates see under `agui.`. `firstAcceptedMime` (and its
    /// kind) is the part malformed cases build on, so that a refusal can only be about
    /// the malformation, never about the MIME type; null when nothing generated fits.
    pub fn facts(&self) -> Value {
        let first = self.accepted_mimes().first().copied();
        json!({
            "accepts": self.accepts,
            "kinds": self.kinds,
            "undeclaredKinds": self.undeclared_kinds,
            "sources": self.sources,
            "acceptedMimes": self.accepted_mimes(),
            "undeclaredMimes": self.undeclared_mimes(),
            "firstAcceptedMime": first,
            "firstAcceptedKind": first.map(kind_of_mime),
            "echo": self.echo,
            "declaredBy": self.declared_by,
        })
    }

    /// One line for terminals and JUnit: `image/, audio/wav; sources data, url; echo`.
    pub fn summary(&self) -> String {
        format!(
            "accepts {}; sources {}; echo {}",
            self.accepts.join(", "),
            self.sources.join(", "),
            if self.echo { "claimed" } else { "not claimed" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(s: &str) -> Vec<String> {
        s.split(',').map(str::to_string).collect()
    }

    #[test]
    fn kinds_and_mimes_follow_the_prefixes() {
        let d = Declaration::from_flag(&list("image/,audio/wav,application/pdf")).unwrap();
        assert_eq!(d.kinds, ["image", "audio", "document"]);
        assert_eq!(d.undeclared_kinds, ["video"]);
        assert_eq!(d.sources, ["data"]);
        assert_eq!(
            d.accepted_mimes(),
            [
                "image/png",
                "image/jpeg",
                "image/webp",
                "audio/wav",
                "application/pdf",
                "image/gif"
            ]
        );
        assert_eq!(d.undeclared_mimes(), ["audio/mpeg"]);
        let facts = d.facts();
        assert_eq!(facts["undeclaredKinds"], json!(["video"]));
        assert_eq!(facts["declaredBy"], "--accepts");
        assert_eq!(facts["firstAcceptedMime"], "image/png");
        assert_eq!(facts["firstAcceptedKind"], "image");
        for name in FACT_NAMES {
            assert!(facts.get(name).is_some(), "{name}");
        }
    }

    #[test]
    fn an_embedded_agent_declares_itself() {
        let claims = Claims {
            embedded: Some(crate::config::EmbeddedClaims {
                accepts: list("image/,audio/wav,application/pdf"),
                sources: list("data,url,file"),
                echo: true,
                detail: false,
                streaming: false,
                by: "reference agent".into(),
            }),
            ..Claims::default()
        };
        let d = Declaration::from_claims(&claims).unwrap();
        assert_eq!(d.declared_by, "reference agent");
        assert_eq!(d.sources, SOURCE_KINDS);
        assert!(d.echo);
        assert_eq!(
            d.summary(),
            "accepts image/, audio/wav, application/pdf; sources data, url, file; echo claimed"
        );
    }

    #[test]
    fn bad_declarations_are_usage_errors() {
        assert!(
            Declaration::from_flag(&[])
                .unwrap_err()
                .contains("accepts nothing")
        );
        let err = Declaration::new(&list("image/"), &list("data,blob"), false, "x").unwrap_err();
        assert!(err.contains("unknown source kind `blob`"), "{err}");
    }

    #[test]
    fn claim_files_in_yaml_and_json_with_positions() {
        let dir = tempfile::tempdir().unwrap();
        let yaml = dir.path().join("claims.yaml");
        std::fs::write(
            &yaml,
            "accepts: [image/, video/]\nsources: [data, url]\necho: true\n",
        )
        .unwrap();
        let d = Declaration::from_claims_file(&yaml).unwrap();
        assert_eq!(d.kinds, ["image", "video"]);
        assert_eq!(d.sources, ["data", "url"]);
        assert!(d.echo);
        assert!(d.declared_by.starts_with("claims "));
        let json_file = dir.path().join("claims.json");
        std::fs::write(&json_file, r#"{"accepts": ["audio/"]}"#).unwrap();
        let d = Declaration::from_claims_file(&json_file).unwrap();
        assert_eq!(
            (d.sources.as_slice(), d.echo),
            (["data".to_string()].as_slice(), false)
        );
        let bad = dir.path().join("bad.yaml");
        std::fs::write(&bad, "accepts: [image/]\naccept: [audio/]\n").unwrap();
        let err = Declaration::from_claims_file(&bad).unwrap_err();
        assert!(err.contains("bad.yaml:2:"), "{err}");
        assert!(err.contains("accept"), "{err}");
    }
}
