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
//! On the Responses wire a host may instead hide the tool behind a client-run
//! `tool_search` (searched for by its token, [`Way::Search`] too) or reach every tool
//! only through code ([`Way::CodeMode`]: a custom tool whose input is JavaScript).
//!
//! Each wire reads its own request ([`ToolTurn`] from `wire/<name>/tools.rs`) and
//! writes its own call (`wire/<name>/answer.rs`); this file decides. Only the wires
//! whose reader notes a search or code mode (Messages: `ToolSearch`; Responses:
//! `tool_search`, `exec`) ever answer with them.

use crate::tool_media::{self, Directive};
use crate::witness::part::cut;
use serde::{Deserialize, Serialize};

/// The longest tool name kept.
const MAX_TOOL_NAME: usize = 256;

/// What a request says about the tool: whether it declares it (and under which name),
/// whether its user text asks for it, and whether its history already called it; for
/// a tool the host defers, the ways it offers to reach it (a search, code mode) and
/// what the history holds of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolTurn {
    /// The tool's name as the host declared it (`mcp__mmconform__mmconform_tool_media`).
    pub declared: Option<String>,
    /// The namespace the declared tool sits in (a Responses `namespace` tool: the call
    /// must name it too).
    pub namespace: Option<String>,
    /// The declaration says the tool is not loaded yet (`defer_loading: true`).
    pub deferred: bool,
    /// The tool's name as a listing of deferred tools gives it (text, no schema).
    pub listed: Option<String>,
    /// The directive in the request's user text.
    pub directive: Option<Directive>,
    /// An assistant turn in the history already called the tool.
    pub called: bool,
    /// A search tool the host runs itself to load deferred tools (Messages
    /// `ToolSearch`, Responses `tool_search` with `execution: "client"`): its name.
    pub search: Option<String>,
    /// The history already holds a call to that search.
    pub searched: bool,
    /// A search result in the history names the tool (it is loaded from there on).
    pub found: bool,
    /// A code-mode tool (a custom tool whose input is JavaScript that calls the other
    /// tools) and the tool's name as its code calls it, when it lists the tool.
    pub code_mode: Option<CodeMode>,
}

/// A code-mode tool that can reach the tool-media tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeMode {
    /// The code-mode tool's own name (`exec`).
    pub name: String,
    /// The tool-media tool's name as the code reaches it, when the listing names it;
    /// else the name an MCP tool of mmconform's server is given there (the code looks
    /// the tool up by its token first, so a deferred tool the listing leaves out is
    /// found all the same).
    pub tool: String,
}

impl ToolTurn {
    /// Notes a declared tool name; the first that names the tool is kept.
    pub fn declare(&mut self, name: &str) {
        self.declare_in(None, name);
    }

    /// Notes a tool name declared inside `namespace` (or at the top, `None`).
    pub fn declare_in(&mut self, namespace: Option<&str>, name: &str) {
        self.declare_deferred(name, false);
        if self.declared.as_deref() == Some(name) && self.namespace.is_none() {
            self.namespace = namespace.map(|n| cut(n, MAX_TOOL_NAME));
        }
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

    /// Notes a custom tool `name` described by `listing`: a code-mode tool when the
    /// listing names the tool, or says its code reaches the tools through the `tools`
    /// global and lists them in `ALL_TOOLS` (deferred tools may be left out of it).
    pub fn offer_code_mode(&mut self, name: &str, listing: &str) {
        if self.code_mode.is_some() {
            return;
        }
        let tool = name_in(listing).or_else(|| {
            (listing.contains("tools.") && listing.contains(ALL_TOOLS)).then(|| {
                format!(
                    "mcp__{}__{}",
                    tool_media::SERVER_NAME,
                    tool_media::TOOL_NAME
                )
            })
        });
        if let Some(tool) = tool {
            self.code_mode = Some(CodeMode {
                name: crate::witness::part::cut(name, 256),
                tool,
            });
        }
    }

    /// The tool's name as the host gave it, declared or listed.
    fn name(&self) -> Option<&String> {
        self.declared.as_ref().or(self.listed.as_ref())
    }
}

/// The global a code-mode tool's code finds the tools' names in.
const ALL_TOOLS: &str = "ALL_TOOLS";

/// The first identifier in `text` that carries the tool's token, as written there.
fn name_in(text: &str) -> Option<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|word| tool_media::names_the_tool(word) && word.len() <= 256)
        .map(str::to_string)
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
    /// A call to the host's search tool for `tool` (its name as the host listed it, or
    /// the token when the host names it nowhere yet); the tool itself is called in a
    /// later request, once the search's result declares or names it.
    Search { tool: String },
    /// A call to the code-mode tool whose code calls the tool (`tool` is its name there).
    CodeMode { tool: String },
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
    /// The name called, exactly as the host declared it: the tool's, or (a search, code
    /// mode) the tool that reaches it.
    pub name: String,
    pub case: String,
    pub medium: String,
    /// The namespace the tool was declared in, which the call names too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
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
            namespace: None,
            way: Way::Direct,
        }
    }

    /// The arguments, as the JSON object the tool takes.
    pub fn arguments(&self) -> serde_json::Value {
        serde_json::json!({"case": self.case, "medium": self.medium})
    }

    /// Whether this answer calls the tool (a search only looks for it).
    pub fn calls_the_tool(&self) -> bool {
        !matches!(self.way, Way::Search { .. })
    }

    /// A search's arguments: the tool's token as the query, and no `limit` (the host's
    /// default, several tools), so a ranking that puts another tool first still
    /// returns this one.
    pub fn search_arguments(&self) -> serde_json::Value {
        serde_json::json!({"query": tool_media::TOOL_NAME})
    }

    /// Code mode's input: JavaScript that finds the tool by its token (in `ALL_TOOLS`,
    /// else by its expected name), calls it with the arguments, and hands every block of
    /// its result on with the helpers the host gives code (`image`, `audio` for those
    /// blocks, `text` for the rest and for `structuredContent`), as a model that wants
    /// the model after it to see the result would. Where the tool is not there (a side
    /// call of the host's, such as Codex's title generation, quotes the prompt and gets
    /// the same answer) the code says so in a text instead of failing.
    pub fn code(&self) -> Option<String> {
        let Way::CodeMode { tool } = &self.way else {
            return None;
        };
        let token = serde_json::Value::from(tool_media::TOOL_NAME);
        let fallback = serde_json::Value::from(tool.as_str());
        Some(format!(
            r#"const names = typeof ALL_TOOLS === "undefined" ? [] : ALL_TOOLS.map((t) => t.name);
const name = names.find((n) => n.includes({token})) ?? {fallback};
if (typeof tools[name] !== "function") {{
  text("mmconform: no tool " + name + " here");
}} else {{
  const result = await tools[name]({arguments});
  const blocks = typeof result === "string" ? [{{ type: "text", text: result }}] : (result?.content ?? []);
  for (const block of blocks) {{
    if (block.type === "image" && typeof image === "function") image(block);
    else if (block.type === "audio" && typeof audio === "function") audio(block);
    else if (block.type === "text") text(block.text);
    else text(JSON.stringify(block));
  }}
  if (result && result.structuredContent !== undefined) text(JSON.stringify(result.structuredContent));
}}
"#,
            arguments = self.arguments()
        ))
    }
}

/// The tool call to answer call `seq` with, or `None` to answer with text. The tool
/// itself when it is loaded (declared and not deferred, or named by a search result in
/// the history); else code mode when it lists the tool; else the host's search, once
/// per conversation; else a deferred tool by name (no search loads it: the API does);
/// else text.
pub fn decide(turn: &ToolTurn, seq: u64) -> Option<ToolCallMade> {
    let directive = turn.directive.as_ref()?;
    if turn.called {
        return None;
    }
    let loaded = turn.found || (turn.declared.is_some() && !turn.deferred);
    let (name, namespace, way) = match (turn.name(), &turn.code_mode, &turn.search) {
        (Some(name), _, _) if loaded => (name.clone(), turn.namespace.clone(), Way::Direct),
        (_, Some(code), _) => {
            let tool = code.tool.clone();
            (code.name.clone(), None, Way::CodeMode { tool })
        }
        (listed, _, Some(search)) if !turn.searched => {
            let tool = listed.map_or_else(|| tool_media::TOOL_NAME.to_string(), Clone::clone);
            (search.clone(), None, Way::Search { tool })
        }
        // Searched and not found, or no search: a declared tool is called by name all
        // the same (it is the host's); a tool only listed is out of reach.
        _ => (turn.declared.clone()?, turn.namespace.clone(), Way::Direct),
    };
    Some(ToolCallMade {
        id: format!("call_mmconform_{seq}"),
        name,
        case: directive.case.clone(),
        medium: directive.medium.clone(),
        namespace,
        way,
    })
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
