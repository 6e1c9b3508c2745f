//! The witness as a model that calls a tool (tool-media cases, `crate::tool_media`).
//!
//! A call whose user text carries a tool-media [`Directive`], and which declares a tool
//! whose name carries [`tool_media::TOOL_NAME`], is answered with a call to that tool
//! (its arguments the directive's case and medium), unless its history already holds
//! a call to it: then the call carries (or should carry) the tool's result, and is
//! answered with text like any other. The decision is made from each request's own
//! history, never from the witness's state, because agents resend and retry: the
//! history guard makes it at most one tool call per conversation, so a host that loops
//! gets text and ends its turn.
//!
//! Each wire reads its own request ([`ToolTurn`] from `wire/<name>/tools.rs`) and
//! writes its own call (`wire/<name>/answer.rs`); this file decides.

use crate::tool_media::{self, Directive};
use serde::{Deserialize, Serialize};

/// What a request says about the tool: whether it declares it (and under which name),
/// whether its user text asks for it, and whether its history already called it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolTurn {
    /// The tool's name as the host declared it (`mcp__mmconform__mmconform_tool_media`).
    pub declared: Option<String>,
    /// The directive in the request's user text.
    pub directive: Option<Directive>,
    /// An assistant turn in the history already called the tool.
    pub called: bool,
}

impl ToolTurn {
    /// Notes a declared tool name; the first that names the tool is kept.
    pub fn declare(&mut self, name: &str) {
        if self.declared.is_none() && tool_media::names_the_tool(name) {
            self.declared = Some(crate::witness::part::cut(name, 256));
        }
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
    }
}

/// The tool call the witness answered a call with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallMade {
    /// The call's id (`call_mmconform_<seq>`), which the host's result must echo.
    pub id: String,
    /// The tool's name, exactly as the host declared it.
    pub name: String,
    pub case: String,
    pub medium: String,
}

impl ToolCallMade {
    /// The arguments, as the JSON object the tool takes.
    pub fn arguments(&self) -> serde_json::Value {
        serde_json::json!({"case": self.case, "medium": self.medium})
    }
}

/// The tool call to answer call `seq` with, or `None` to answer with text.
pub fn decide(turn: &ToolTurn, seq: u64) -> Option<ToolCallMade> {
    let name = turn.declared.as_ref()?;
    let directive = turn.directive.as_ref()?;
    if turn.called {
        return None;
    }
    Some(ToolCallMade {
        id: format!("call_mmconform_{seq}"),
        name: name.clone(),
        case: directive.case.clone(),
        medium: directive.medium.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn() -> ToolTurn {
        let mut turn = ToolTurn::default();
        turn.declare("Read");
        turn.declare("mcp__mmconform__mmconform_tool_media");
        turn.read_user_text(&Directive::text("0123456789abcdef-c2", "png"));
        turn
    }

    #[test]
    fn the_tool_is_called_once_when_declared_and_asked_for() {
        let call = decide(&turn(), 7).expect("a tool call");
        assert_eq!(call.id, "call_mmconform_7");
        assert_eq!(call.name, "mcp__mmconform__mmconform_tool_media");
        assert_eq!(
            call.arguments(),
            serde_json::json!({"case": "0123456789abcdef-c2", "medium": "png"})
        );
        let mut again = turn();
        again.saw_call("mcp__mmconform__mmconform_tool_media");
        assert_eq!(decide(&again, 8), None, "the history already called it");
    }

    #[test]
    fn no_call_without_the_tool_or_the_directive() {
        let mut undeclared = turn();
        undeclared.declared = None;
        assert_eq!(decide(&undeclared, 1), None);
        let mut unasked = turn();
        unasked.directive = None;
        assert_eq!(decide(&unasked, 1), None);
        let mut other = ToolTurn::default();
        other.saw_call("Read");
        assert!(!other.called);
    }
}
