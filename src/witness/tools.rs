//! The witness as a model that calls a tool (tool-media cases, `crate::tool_media`).
//!
//! A call whose user text carries a tool-media [`Directive`], and which offers a tool
//! whose name carries [`tool_media::TOOL_NAME`], is answered with a call to that tool
//! (its arguments the directive's case and medium), unless its history already holds
//! a call to it: then the call carries (or should carry) the tool's result, and is
//! answered with text like any other. The decision is made from each request's own
//! history, never from the witness's state, because agents resend and retry: the
//! history guard makes it at most one tool call per conversation, so a host that loops
//! gets text and ends its turn.
//!
//! A host may **defer** the tool: name it in a listing (or declare it with
//! `defer_loading: true`) and give its model a search tool that it runs itself to
//! load it (Claude Code's `ToolSearch`). Then the first answer is a call to that
//! search selecting the tool ([`Way::Search`]), and the tool is called once a later
//! request's history holds the search's result naming it. The search, too, is made
//! at most once per conversation: a host whose search loads nothing gets text.
//!
//! Each wire reads its own request ([`ToolTurn`] from `wire/<name>/tools.rs`) and
//! writes its own call (`wire/<name>/answer.rs`); this file decides.

use crate::tool_media::{self, Directive};
use crate::witness::part::cut;
use serde::{Deserialize, Serialize};

/// The longest tool name kept.
const MAX_TOOL_NAME: usize = 256;

/// What a request says about the tool: whether it declares it (and under which name),
/// whether its user text asks for it, and whether its history already called it; for
/// a deferred tool, the search that loads it and what the history holds of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolTurn {
    /// The tool's name as the host declared it (`mcp__mmconform__mmconform_tool_media`).
    pub declared: Option<String>,
    /// The declaration says the tool is not loaded yet (`defer_loading: true`).
    pub deferred: bool,
    /// The tool's name as a listing of deferred tools gives it (text, no schema).
    pub listed: Option<String>,
    /// The directive in the request's user text.
    pub directive: Option<Directive>,
    /// An assistant turn in the history already called the tool.
    pub called: bool,
    /// A search tool the host runs itself to load deferred tools (`ToolSearch`): its name.
    pub search: Option<String>,
    /// The history already holds a call to that search.
    pub searched: bool,
    /// A search result in the history names the tool (it is loaded from there on).
    pub found: bool,
}

impl ToolTurn {
    /// Notes a declared tool name; the first that names the tool is kept.
    pub fn declare(&mut self, name: &str) {
        self.declare_deferred(name, false);
    }

    /// Notes a declared tool name and whether it is deferred (`defer_loading`).
    pub fn declare_deferred(&mut self, name: &str, deferred: bool) {
        if self.declared.is_none() && tool_media::names_the_tool(name) {
            self.declared = Some(cut(name, MAX_TOOL_NAME));
            self.deferred = deferred;
        } else if is_tool_search(name) && self.search.is_none() {
            self.search = Some(cut(name, MAX_TOOL_NAME));
        }
    }

    /// Notes a text that may list deferred tools, one name a line: a line that is
    /// one tool name alone and names the tool is kept (a sentence that mentions the
    /// tool, like the prompt's, is no listing).
    pub fn read_listing(&mut self, text: &str) {
        if self.listed.is_some() {
            return;
        }
        self.listed = text
            .lines()
            .map(str::trim)
            .find(|line| is_tool_name(line) && tool_media::names_the_tool(line))
            .map(|line| cut(line, MAX_TOOL_NAME));
    }

    /// Notes user text (the first directive found is kept).
    pub fn read_user_text(&mut self, text: &str) {
        if self.directive.is_none() {
            self.directive = Directive::find(text);
        }
    }

    /// Notes a tool call in an assistant turn of the history.
    pub fn saw_call(&mut self, name: &str) {
        self.called |= tool_media::names_the_tool(name);
        self.searched |= is_tool_search(name);
    }

    /// Notes a tool name a search result in the history gives (a `tool_reference`).
    pub fn saw_found(&mut self, name: &str) {
        self.found |= tool_media::names_the_tool(name);
    }

    /// The tool's name as the host gave it, declared or listed.
    fn name(&self) -> Option<&String> {
        self.declared.as_ref().or(self.listed.as_ref())
    }
}

/// A tool a host runs itself to load deferred tools: `ToolSearch`, `tool_search`
/// (case, `_` and `-` aside).
pub fn is_tool_search(name: &str) -> bool {
    let folded: String = name
        .chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    folded == "toolsearch"
}

/// A name as hosts give tools: 1 to 256 of `[A-Za-z0-9_.:-]`.
fn is_tool_name(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_TOOL_NAME
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'))
}

/// How the witness's answer reaches the tool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Way {
    /// A call to the tool itself (a function call, a `tool_use` block).
    #[default]
    Direct,
    /// A call to the host's search tool selecting `tool` (its name as the host gave
    /// it); the tool itself is called in a later request, once the search's result
    /// names it.
    Search { tool: String },
}

impl Way {
    fn is_direct(&self) -> bool {
        *self == Way::Direct
    }
}

/// The tool call the witness answered a call with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallMade {
    /// The call's id (`call_mmconform_<seq>`), which the host's result must echo.
    pub id: String,
    /// The name called, exactly as the host declared it: the tool's, or its search's.
    pub name: String,
    pub case: String,
    pub medium: String,
    #[serde(default, skip_serializing_if = "Way::is_direct")]
    pub way: Way,
}

impl ToolCallMade {
    /// A direct call to the tool `name` (the wires' tests).
    pub fn direct(id: &str, name: &str, case: &str, medium: &str) -> ToolCallMade {
        ToolCallMade {
            id: id.into(),
            name: name.into(),
            case: case.into(),
            medium: medium.into(),
            way: Way::Direct,
        }
    }

    /// The arguments, as the JSON object the tool takes.
    pub fn arguments(&self) -> serde_json::Value {
        serde_json::json!({"case": self.case, "medium": self.medium})
    }

    /// Whether this answer calls the tool (a search only loads it).
    pub fn calls_the_tool(&self) -> bool {
        self.way.is_direct()
    }
}

/// The tool call to answer call `seq` with, or `None` to answer with text. The tool
/// itself when it is loaded (declared and not deferred, or named by a search result
/// in the history, or deferred with no search to load it); else the search selecting
/// it, once per conversation; else text.
pub fn decide(turn: &ToolTurn, seq: u64) -> Option<ToolCallMade> {
    let directive = turn.directive.as_ref()?;
    if turn.called {
        return None;
    }
    let name = turn.name()?;
    let loaded = turn.found || (turn.declared.is_some() && !turn.deferred);
    let (called, way) = match &turn.search {
        _ if loaded => (name.clone(), Way::Direct),
        Some(search) if !turn.searched => (search.clone(), Way::Search { tool: name.clone() }),
        // Searched and not found: the search failed to load it; a declared tool is
        // called by name all the same (it is the host's), a listed one is out of reach.
        Some(_) if turn.declared.is_none() => return None,
        // No search to load it: a deferred tool is called by name (the API loads it).
        _ => (turn.declared.clone()?, Way::Direct),
    };
    Some(ToolCallMade {
        id: format!("call_mmconform_{seq}"),
        name: called,
        case: directive.case.clone(),
        medium: directive.medium.clone(),
        way,
    })
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
