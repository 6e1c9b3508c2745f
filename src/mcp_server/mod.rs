//! `mmconform mcp-server`: the MCP server a tool-media case hands the agent under test,
//! on the official Rust SDK (`rmcp`). One tool, [`TOOL_NAME`], whose arguments name the
//! case and the medium (the model, the witness, fills them in from the prompt's
//! directive); it answers with the medium stamped with the case's nonce
//! (`crate::tool_media::medium`).
//!
//! What real clients need of it (learned running agent CLIs against it): requests
//! before `initialize` (`server/discover`) answered -32601; the client's protocol
//! version echoed when it is one the SDK knows; `resources/list` and `prompts/list`
//! answered with empty lists; no `outputSchema` (not every result carries
//! `structuredContent`); newline-delimited JSON on stdout only. Every message in and
//! out is logged (`crate::tool_media::log`) when `--log` names a file, so a run can
//! tell "the tool was never called" from "the medium was lost".
//!
//! [`stdio`] is the form an agent starts; [`http`] the streamable-HTTP form on
//! loopback for agents that take a URL.

pub mod http;
pub mod stdio;

use crate::tool_media::{self, Block, Medium, TOOL_NAME, log};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ResourceContents, ServerCapabilities, ServerConfig,
    Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How the server is run (from `mmconform mcp-server`'s arguments).
#[derive(Debug, Clone)]
pub struct Options {
    /// The request log; `None`: nothing is logged.
    pub log: Option<PathBuf>,
    /// Where linked files are written.
    pub files: PathBuf,
}

/// The one tool's handler.
#[derive(Debug, Clone)]
pub struct ToolMedia {
    options: Arc<Options>,
}

impl ToolMedia {
    pub fn new(options: Options) -> ToolMedia {
        ToolMedia {
            options: Arc::new(options),
        }
    }

    /// Appends `entry` to the log, if there is one; a log that cannot be written is
    /// said on stderr (never stdout, which is the protocol's).
    pub fn log(&self, entry: &log::Entry) {
        if let Some(path) = &self.options.log
            && let Err(e) = log::append(path, entry)
        {
            eprintln!(
                "mmconform mcp-server: cannot write the log {}: {e}",
                path.display()
            );
        }
    }

    fn answer(&self, arguments: Option<&serde_json::Map<String, Value>>) -> CallToolResult {
        let field = |name: &str| {
            arguments
                .and_then(|a| a.get(name))
                .and_then(Value::as_str)
                .unwrap_or("")
        };
        let (case, medium) = (field("case"), field("medium"));
        if !tool_media::is_word(case) {
            return refusal(format!(
                "`case` must be the case's nonce (1 to 64 of A-Z a-z 0-9 _ -), got {case:?}"
            ));
        }
        let medium = match Medium::parse(medium) {
            Ok(m) => m,
            Err(why) => return refusal(why),
        };
        let produced = medium.produce(case, &self.options.files);
        if let Some((name, bytes)) = &produced.file
            && let Err(e) = write_new(&self.options.files, name, bytes)
        {
            return refusal(format!("cannot write the linked file: {e}"));
        }
        let mut result =
            CallToolResult::success(produced.blocks.into_iter().map(content).collect());
        result.structured_content = produced.structured;
        result
    }
}

/// A tool-level error the model reads (`isError: true`).
fn refusal(why: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(why)])
}

/// A block in MCP's spelling.
fn content(block: Block) -> ContentBlock {
    match block {
        Block::Text(text) => ContentBlock::text(text),
        Block::Image { mime, bytes } => ContentBlock::image(STANDARD.encode(bytes), mime),
        Block::Audio { mime, bytes } => ContentBlock::audio(STANDARD.encode(bytes), mime),
        Block::Blob { uri, mime, bytes } => {
            let mut blob = ResourceContents::blob(STANDARD.encode(bytes), uri);
            if let ResourceContents::BlobResourceContents { mime_type, .. } = &mut blob {
                *mime_type = Some(mime);
            }
            ContentBlock::resource(blob)
        }
        Block::Resource { uri, mime, text } => {
            let mut resource = ResourceContents::text(text, uri);
            if let ResourceContents::TextResourceContents { mime_type, .. } = &mut resource {
                *mime_type = Some(mime);
            }
            ContentBlock::resource(resource)
        }
        Block::Link { uri, name, mime } => {
            let mut link = rmcp::model::Resource::new(uri, name);
            link.mime_type = Some(mime);
            ContentBlock::resource_link(link)
        }
    }
}

/// Writes `name` (a nonce-derived word, checked by the caller) in `folder`, never
/// following a link another process left there.
fn write_new(folder: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let path = folder.join(name);
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
    {
        Ok(mut file) => file.write_all(bytes),
        // Called again for the same case: the file is the same.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && !path.is_symlink() => Ok(()),
        Err(e) => Err(e),
    }
}

/// The tool as `tools/list` describes it: no `outputSchema`, since not every result
/// carries `structuredContent`; annotated read-only and closed-world.
pub fn tool() -> Tool {
    let names: Vec<&str> = Medium::ALL.iter().map(|m| m.name()).collect();
    let schema = json!({
        "type": "object",
        "properties": {
            "case": {"type": "string", "description": "The case named in the prompt (case=...)."},
            "medium": {"type": "string", "enum": names, "description": "The medium named in the prompt (medium=...)."}
        },
        "required": ["case", "medium"],
        "additionalProperties": false
    });
    let serde_json::Value::Object(schema) = schema else {
        unreachable!("a JSON object literal")
    };
    Tool::new(
        TOOL_NAME,
        "Returns a test medium (an image, a sound, a document, a link or text) for an mmconform case. Call it with the case and medium the prompt names, then describe what it returned.",
        schema,
    )
    // Honest hints (it changes nothing the agent's user sees: a resource link's file is
    // written in the server's own temporary folder), which let an agent whose policy
    // asks before a tool with side effects run this one without asking.
    .with_annotations(
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
}

impl ServerHandler for ToolMedia {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("mmconform", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![tool()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != TOOL_NAME {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {:?}: this server has {TOOL_NAME}",
                    request.name
                ),
                None,
            ));
        }
        Ok(self.answer(request.arguments.as_ref()).into())
    }
}

/// The log entry of one message received: its method, id and, for `tools/call`, the
/// case and medium its arguments name (each cut short).
pub fn received(message: &Value) -> log::Entry {
    let mut entry = log::Entry::now("in");
    entry.method = message
        .get("method")
        .and_then(Value::as_str)
        .map(|m| cut(m, 80));
    entry.id = message.get("id").map(|id| cut(&id.to_string(), 80));
    if entry.method.as_deref() == Some("tools/call") {
        let arg = |name: &str| {
            message
                .pointer(&format!("/params/arguments/{name}"))
                .and_then(Value::as_str)
                .map(|v| cut(v, 80))
        };
        entry.case = arg("case");
        entry.medium = arg("medium");
    }
    if entry.method.as_deref() == Some("initialize") {
        entry.note = message
            .pointer("/params/protocolVersion")
            .and_then(Value::as_str)
            .map(|v| format!("protocolVersion {}", cut(v, 40)));
    }
    entry
}

/// The log entry of one message sent: its id, and an error's code.
pub fn sent(message: &Value) -> log::Entry {
    let mut entry = log::Entry::now("out");
    entry.id = message.get("id").map(|id| cut(&id.to_string(), 80));
    entry.note = match (
        message.get("error"),
        message.pointer("/result/protocolVersion"),
    ) {
        (Some(error), _) => Some(format!(
            "error {}",
            error.get("code").unwrap_or(&Value::Null)
        )),
        (None, Some(Value::String(v))) => Some(format!("protocolVersion {}", cut(v, 40))),
        _ => None,
    };
    if let Some(Value::Bool(true)) = message.pointer("/result/isError") {
        entry.note = Some("tool error".into());
    }
    entry
}

fn cut(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

#[cfg(test)]
mod tests;
