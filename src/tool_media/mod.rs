//! Media from tools: what the tool-media cases share, whichever agent profile runs them
//! and whichever side looks (`docs/guide/tool-media.md`).
//!
//! The tester is both ends of an agent's tool call. It is the MCP server the agent is
//! given (`mmconform mcp-server`, `crate::mcp_server`), whose one tool, named
//! [`TOOL_NAME`], returns a medium stamped with the case's nonce; and it is the agent's
//! model (the witness), which asks for that tool when a prompt carries the case's
//! [`Directive`], and records where the medium landed in the call that carries the
//! tool's result. Nothing here speaks MCP or a model wire: this module names the tool,
//! the directive, the media ([`medium`]), the server's request log ([`log`]) and how a
//! run hands an agent the server ([`setup`]). What became of a medium is judged in
//! `crate::judge::tool_media`.
//!
//! Three nonces keep the parts apart (a label or the prompt is never taken for the
//! medium): the prompt carries the case's nonce, the medium [`medium_nonce`], the
//! tool's own text [`label_nonce`].

pub mod log;
pub mod medium;
pub mod setup;

pub use medium::{Block, Medium};

/// The tool's name, and the token the witness looks for in every name a host declares
/// (`mcp__mmconform__mmconform_tool_media`, `mcp_mmconform_mmconform_tool_media`, or the
/// bare name in a namespace): letters and underscores only, which every host keeps.
pub const TOOL_NAME: &str = "mmconform_tool_media";

/// Where a case's evidence keeps the MCP server's request log (the judge reads it
/// back with [`from_evidence`]).
pub const EVIDENCE_KEY: &str = "mcp_server";

/// The server's log as a case's evidence: its summary and its entries.
pub fn evidence(log: &log::ServerLog) -> serde_json::Value {
    serde_json::json!({"summary": log.summary(), "entries": log.entries, "unread": log.unread})
}

/// The server's log from a case's evidence (what [`evidence`] wrote); an empty log
/// when there is none.
pub fn from_evidence(record: &serde_json::Value) -> log::ServerLog {
    let Some(kept) = record.get(EVIDENCE_KEY) else {
        return log::ServerLog {
            missing: Some("no MCP server was given to the agent".into()),
            ..log::ServerLog::default()
        };
    };
    log::ServerLog {
        entries: serde_json::from_value(kept["entries"].clone()).unwrap_or_default(),
        unread: kept["unread"].as_u64().unwrap_or(0) as usize,
        missing: None,
    }
}

/// The server's name in the agent's configuration (`mcpServers`).
pub const SERVER_NAME: &str = "mmconform";

/// The nonce a case's medium is stamped with, told apart from the case's: for a case
/// nonce of the run form `<run>-c<N>` it is `<run>-p<N>` (a part tag, which content
/// stamps carry, so a re-encoded or resized medium still names it); for any other
/// case nonce `<case>m` (metadata stamps only; not a `-` suffix, which would name the case).
pub fn medium_nonce(case: &str) -> String {
    match case.rsplit_once("-c") {
        Some((run, index))
            if run.len() == 16
                && run.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
                && !index.is_empty()
                && index.bytes().all(|b| b.is_ascii_digit()) =>
        {
            format!("{run}-p{index}")
        }
        _ => format!("{case}m"),
    }
}

/// The nonce the tool's own text (its label, structured content) carries.
pub fn label_nonce(case: &str) -> String {
    format!("{case}-t")
}

/// The label every result starts with: it names the case without the medium's nonce,
/// so its arrival says the result was handed over, never that the medium was.
pub fn label(case: &str) -> String {
    format!("mmconform tool result {}", label_nonce(case))
}

/// The text a tool-media case adds to its prompt: what a person reading the agent's
/// transcript understands, and the directive the witness acts on.
pub fn prompt(case: &str, medium: Medium) -> String {
    format!(
        "Call the tool {TOOL_NAME} with the case and medium below, then say what it returned. {}",
        Directive::text(case, medium.name())
    )
}

/// What a tool-media prompt asks the model (the witness) to do: call the tool for this
/// case and this medium. Written into the prompt as
/// `[mmconform tool-media case=<nonce> medium=<name>]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    pub case: String,
    pub medium: String,
}

const OPEN: &str = "[mmconform tool-media ";

impl Directive {
    /// The directive as a prompt carries it.
    pub fn text(case: &str, medium: &str) -> String {
        format!("{OPEN}case={case} medium={medium}]")
    }

    /// The first directive in `text`, if any; a case or medium that is not a short word
    /// of `[A-Za-z0-9_-]` is no directive (it becomes a file name and a stamp).
    pub fn find(text: &str) -> Option<Directive> {
        text.match_indices(OPEN).find_map(|(at, _)| {
            let rest = &text[at + OPEN.len()..];
            let inner = &rest[..rest.find(']')?];
            let mut case = None;
            let mut medium = None;
            for word in inner.split_whitespace() {
                match word.split_once('=') {
                    Some(("case", v)) if is_word(v) => case = Some(v.to_string()),
                    Some(("medium", v)) if is_word(v) => medium = Some(v.to_string()),
                    _ => return None,
                }
            }
            Some(Directive {
                case: case?,
                medium: medium?,
            })
        })
    }
}

/// A case nonce or medium name: 1 to 64 of `[A-Za-z0-9_-]`.
pub fn is_word(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// True when a declared tool name is this tool's (the token anywhere in it).
pub fn names_the_tool(name: &str) -> bool {
    name.contains(TOOL_NAME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directive_reads_back_and_refuses_what_is_not_a_word() {
        let text = format!("Please. {} thanks", Directive::text("ab12-c3", "png"));
        assert_eq!(
            Directive::find(&text),
            Some(Directive {
                case: "ab12-c3".into(),
                medium: "png".into()
            })
        );
        assert_eq!(
            Directive::find("[mmconform tool-media case=../x medium=png]"),
            None
        );
        assert_eq!(Directive::find("[mmconform tool-media case=a]"), None);
        assert_eq!(
            Directive::find("[mmconform tool-media case=a medium=png"),
            None
        );
        assert_eq!(
            Directive::find("[mmconform tool-media case=a medium=b extra=c]"),
            None
        );
        assert!(names_the_tool("mcp__mmconform__mmconform_tool_media"));
        assert!(!names_the_tool("mmconform_tool"));
    }

    #[test]
    fn the_three_nonces_name_the_case_but_not_each_other() {
        use crate::witness::record::{stamp_names, text_names};
        for case in ["0123456789abcdef-c3", "ab12-c3"] {
            assert!(!stamp_names(&medium_nonce(case), case), "{case}");
            assert!(!text_names(&medium_nonce(case), case), "{case}");
            assert!(!stamp_names(&label_nonce(case), &medium_nonce(case)));
            assert!(text_names(&label(case), case));
            assert!(!text_names(&label(case), &medium_nonce(case)));
        }
        assert_eq!(medium_nonce("0123456789abcdef-c3"), "0123456789abcdef-p3");
        assert_eq!(medium_nonce("ab12-c3"), "ab12-c3m");
    }
}
