//! The reference agents' tool loop, as real agent hosts run one: start the MCP servers
//! the agent was given (stdio, with `rmcp`'s client), declare their tools to the model
//! as `mcp__<server>__<tool>`, and while the model answers with tool calls, call the
//! tools and hand the results back: the result's text in the `tool` message, its media
//! (images, sounds, embedded blobs) in a user message after it, since a Chat
//! Completions `tool` message carries text only. Bounded: [`MAX_ROUNDS`] model calls.
//!
//! A [`ToolFault`] breaks one rule of what a host does with a tool's media.

use crate::openai_wire::{self, Body, Media, WirePart};
use crate::upstream::{MODEL, Upstream};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{Value, json};

/// Most model calls in one turn.
pub const MAX_ROUNDS: usize = 4;
/// Most tools' servers started for one turn.
const MAX_SERVERS: usize = 4;
/// The long edge [`ToolFault::ResizesLargeImages`] scales larger pictures down to.
pub const RESIZED_EDGE: u32 = 2000;

/// What a faulty host does to a tool's media (each breaks one rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolFault {
    /// Images are left out of what the model gets.
    DropsImages,
    /// Images are left out when the result also has `structuredContent`.
    DropsImagesWithStructured,
    /// An image is replaced by a note claiming it was provided.
    ClaimsImage,
    /// Audio is replaced by a short note.
    AudioAsNote,
    /// Embedded resource blobs are left out.
    DropsBlobs,
    /// Nothing of the result reaches the model but an empty `tool` message.
    DropsResults,
    /// Images over [`RESIZED_EDGE`] pixels on their long edge are scaled down to it,
    /// as hosts do before a model's size limit: a faithful transformation (the same
    /// picture), not a fault.
    ResizesLargeImages,
}

/// One started server and its tools.
struct Server {
    name: String,
    client: RunningService<RoleClient, ()>,
    tools: Vec<rmcp::model::Tool>,
}

/// The servers of one turn.
pub struct Tools {
    servers: Vec<Server>,
    /// Servers that could not be started, and why (said in the turn's text).
    pub failures: Vec<String>,
}

impl Tools {
    /// Whether `specs` names any server.
    pub fn given(specs: &Value) -> bool {
        !listed(specs).is_empty()
    }

    /// Starts the stdio servers in `specs`: a list `[{name, command, args, env: [{name,
    /// value}]}]` (ACP's `mcpServers`) or a map `{name: {command, args, env: {k: v}}}`
    /// (the agent CLIs' `mcpServers`); others are noted in `failures`.
    pub async fn start(specs: &Value) -> Tools {
        let mut tools = Tools {
            servers: Vec::new(),
            failures: Vec::new(),
        };
        for spec in listed(specs).into_iter().take(MAX_SERVERS) {
            match start_one(&spec).await {
                Ok(server) => tools.servers.push(server),
                Err(why) => tools.failures.push(why),
            }
        }
        tools
    }

    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// The Chat Completions `tools` array.
    pub fn declarations(&self) -> Vec<Value> {
        self.servers
            .iter()
            .flat_map(|s| {
                s.tools.iter().map(|t| {
                    json!({"type": "function", "function": {
                        "name": format!("mcp__{}__{}", s.name, t.name),
                        "description": t.description.as_deref().unwrap_or(""),
                        "parameters": Value::Object((*t.input_schema).clone()),
                    }})
                })
            })
            .collect()
    }

    /// Calls the tool the model named; `Err`: the text the model gets instead.
    async fn call(&self, name: &str, arguments: &str) -> Result<Value, String> {
        let (server, tool) = self
            .servers
            .iter()
            .find_map(|s| {
                let rest = name.strip_prefix(&format!("mcp__{}__", s.name))?;
                Some((s, rest.to_string()))
            })
            .ok_or_else(|| format!("no tool named {name}"))?;
        let arguments = match serde_json::from_str::<Value>(arguments) {
            Ok(Value::Object(map)) => map,
            Ok(_) | Err(_) if arguments.trim().is_empty() => Default::default(),
            _ => return Err(format!("the arguments are not a JSON object: {arguments}")),
        };
        let params = CallToolRequestParams::new(tool).with_arguments(arguments);
        let result = server
            .client
            .call_tool(params)
            .await
            .map_err(|e| format!("the tool failed: {e}"))?;
        serde_json::to_value(result).map_err(|e| e.to_string())
    }

    /// Ends every server.
    pub async fn close(self) {
        for server in self.servers {
            let _ = server.client.cancel().await;
        }
    }
}

/// The servers of either spelling, as list entries (a map's `env` object becomes
/// `[{name, value}]`).
fn listed(specs: &Value) -> Vec<Value> {
    match specs {
        Value::Array(list) => list.clone(),
        Value::Object(map) => map
            .iter()
            .map(|(name, server)| {
                let mut entry = server.clone();
                if let Some(obj) = entry.as_object_mut() {
                    obj.insert("name".into(), json!(name));
                    if let Some(Value::Object(env)) = obj.get("env").cloned() {
                        let pairs: Vec<Value> = env
                            .iter()
                            .map(|(k, v)| json!({"name": k, "value": v}))
                            .collect();
                        obj.insert("env".into(), Value::Array(pairs));
                    }
                }
                entry
            })
            .collect(),
        _ => Vec::new(),
    }
}

async fn start_one(spec: &Value) -> Result<Server, String> {
    let name = spec.get("name").and_then(Value::as_str).unwrap_or("server");
    let Some(command) = spec.get("command").and_then(Value::as_str) else {
        return Err(format!(
            "MCP server {name}: only stdio servers (with `command`) are started"
        ));
    };
    let mut process = tokio::process::Command::new(command);
    for arg in spec
        .get("args")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        process.arg(arg.as_str().unwrap_or_default());
    }
    for pair in spec
        .get("env")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let (Some(k), Some(v)) = (
            pair.get("name").and_then(Value::as_str),
            pair.get("value").and_then(Value::as_str),
        ) {
            process.env(k, v);
        }
    }
    let (transport, _stderr) = TokioChildProcess::builder(process)
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("MCP server {name} did not start: {e}"))?;
    let client = ()
        .serve(transport)
        .await
        .map_err(|e| format!("MCP server {name} did not initialize: {e}"))?;
    let tools = client
        .list_all_tools()
        .await
        .map_err(|e| format!("MCP server {name} did not list its tools: {e}"))?;
    Ok(Server {
        name: name.to_string(),
        client,
        tools,
    })
}

/// One turn: `messages` (Chat JSON) to the model, tools called while it asks, its
/// final text returned. `Err`: the model could not be reached or answered an error.
pub async fn converse(
    upstream: &Upstream,
    mut messages: Vec<Value>,
    tools: &Tools,
    fault: Option<ToolFault>,
) -> Result<String, String> {
    for _ in 0..MAX_ROUNDS {
        let body = json!({"model": MODEL, "messages": messages, "stream": false,
            "tools": tools.declarations()});
        let relayed = upstream.relay(&body).await.map_err(|e| e.0)?;
        if !(200..300).contains(&relayed.status) {
            return Err(format!("the model answered {}", relayed.status));
        }
        let message = relayed
            .body
            .pointer("/choices/0/message")
            .cloned()
            .unwrap_or(Value::Null);
        let calls: Vec<Value> = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if calls.is_empty() {
            return Ok(upstream.reply_text(&relayed.body));
        }
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": calls}));
        let mut media = Vec::new();
        for call in &calls {
            let id = call.get("id").cloned().unwrap_or(Value::Null);
            let name = call
                .pointer("/function/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            let arguments = call
                .pointer("/function/arguments")
                .and_then(Value::as_str)
                .unwrap_or("");
            let (text, mut found) = match tools.call(name, arguments).await {
                Ok(result) => hand_over(&result, fault),
                Err(why) => (vec![json!({"type": "text", "text": why})], Vec::new()),
            };
            messages.push(json!({"role": "tool", "tool_call_id": id, "content": text}));
            media.append(&mut found);
        }
        if !media.is_empty() {
            let mut content = vec![json!({"type": "text", "text": "The media the tool returned:"})];
            content.extend(media);
            messages.push(json!({"role": "user", "content": content}));
        }
    }
    Ok("the model kept calling tools; the turn ends here".into())
}

/// A tool result as the model gets it: text parts for the `tool` message, media parts
/// for the user message after it.
pub fn hand_over(result: &Value, fault: Option<ToolFault>) -> (Vec<Value>, Vec<Value>) {
    let mut text = Vec::new();
    let mut media = Vec::new();
    if fault == Some(ToolFault::DropsResults) {
        return (vec![json!({"type": "text", "text": ""})], media);
    }
    let structured = result
        .get("structuredContent")
        .is_some_and(|s| !s.is_null());
    let say = |t: &str| json!({"type": "text", "text": t});
    for block in result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let field = |name: &str| block.get(name).and_then(Value::as_str).unwrap_or("");
        match field("type") {
            "text" => text.push(say(field("text"))),
            "image" => match fault {
                Some(ToolFault::DropsImages) => {}
                Some(ToolFault::DropsImagesWithStructured) if structured => {}
                Some(ToolFault::ClaimsImage) => {
                    text.push(say("[Image: provided the following image data]"));
                }
                Some(ToolFault::ResizesLargeImages) => {
                    media.push(resized(field("mimeType"), field("data")));
                }
                _ => media.push(part("image", field("mimeType"), field("data"))),
            },
            "audio" => match fault {
                Some(ToolFault::AudioAsNote) => {
                    text.push(say(&format!("[audio: {}]", field("mimeType"))))
                }
                _ => media.push(part("audio", field("mimeType"), field("data"))),
            },
            "resource" => {
                let resource = block.get("resource").cloned().unwrap_or(Value::Null);
                let get = |name: &str| resource.get(name).and_then(Value::as_str);
                match (get("text"), get("blob")) {
                    (Some(t), _) => text.push(say(&format!(
                        "(resource {})\n{t}",
                        get("uri").unwrap_or("")
                    ))),
                    (None, Some(_)) if fault == Some(ToolFault::DropsBlobs) => {}
                    (None, Some(blob)) => {
                        let mime = get("mimeType").unwrap_or("application/octet-stream");
                        media.push(part("document", mime, blob));
                    }
                    (None, None) => {}
                }
            }
            "resource_link" => text.push(say(&format!("(linked resource: {})", field("uri")))),
            other => text.push(say(&format!("(a {other} block)"))),
        }
    }
    (text, media)
}

/// An image part, scaled down to [`RESIZED_EDGE`] when it is larger; a picture that
/// fits or does not decode goes on as it came.
fn resized(mime: &str, data: &str) -> Value {
    let fitted = STANDARD
        .decode(data)
        .ok()
        .and_then(|bytes| mmconform_media::transform::fit_image(&bytes, RESIZED_EDGE).ok())
        .flatten();
    match fitted {
        Some(bytes) => part("image", mime, &STANDARD.encode(bytes)),
        None => part("image", mime, data),
    }
}

/// A media part in the Chat shape; base64 that does not decode goes on as it came.
fn part(kind: &str, mime: &str, data: &str) -> Value {
    let body = match STANDARD.decode(data) {
        Ok(bytes) => Body::bytes(&bytes),
        Err(_) => Body::Base64(data.to_string()),
    };
    openai_wire::part(
        &WirePart::Media(Media {
            kind: kind.into(),
            mime: mime.into(),
            body,
        }),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result() -> Value {
        json!({"content": [
            {"type": "text", "text": "label"},
            {"type": "image", "mimeType": "image/png", "data": STANDARD.encode(b"png")},
            {"type": "audio", "mimeType": "audio/wav", "data": STANDARD.encode(b"wav")},
            {"type": "resource", "resource": {"uri": "x://a.pdf", "mimeType": "application/pdf", "blob": STANDARD.encode(b"pdf")}},
            {"type": "resource_link", "uri": "file:///tmp/a.png", "name": "a.png"},
        ], "structuredContent": {"a": 1}})
    }

    #[test]
    fn text_goes_in_the_tool_message_and_media_after_it() {
        let (text, media) = hand_over(&result(), None);
        assert_eq!(text.len(), 2);
        assert!(
            text[1]["text"]
                .as_str()
                .unwrap()
                .contains("file:///tmp/a.png")
        );
        let kinds: Vec<&str> = media.iter().map(|m| m["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["image_url", "input_audio", "file"]);
    }

    #[test]
    fn a_large_image_is_resized_and_a_small_one_left_alone() {
        let small = mmconform_media::generate("image/png", "5eed0123456789ab-p1");
        let large = mmconform_media::transform::stretch_image(&small, 2080, 520).unwrap();
        let result = json!({"content": [
            {"type": "image", "mimeType": "image/png", "data": STANDARD.encode(&small)},
            {"type": "image", "mimeType": "image/png", "data": STANDARD.encode(&large)},
        ]});
        let (_, media) = hand_over(&result, Some(ToolFault::ResizesLargeImages));
        let bytes: Vec<Vec<u8>> = media
            .iter()
            .map(|m| {
                let url = m["image_url"]["url"].as_str().unwrap();
                STANDARD.decode(url.split_once(",").unwrap().1).unwrap()
            })
            .collect();
        assert_eq!(bytes[0], small);
        let read = mmconform_media::content::read(&bytes[1], &Default::default()).unwrap();
        assert_eq!(
            read,
            mmconform_media::content::Content::Image {
                width: RESIZED_EDGE,
                height: RESIZED_EDGE / 4,
                nonce: Some("5eed0123456789ab-p1".into())
            }
        );
    }

    #[test]
    fn servers_are_read_from_a_list_or_a_map() {
        let map = json!({"m": {"command": "/bin/x", "args": ["a"], "env": {"K": "v"}}});
        let listed = listed(&map);
        assert_eq!(listed[0]["name"], "m");
        assert_eq!(listed[0]["env"], json!([{"name": "K", "value": "v"}]));
        assert!(Tools::given(&json!([{"name": "a", "command": "b"}])));
        assert!(!Tools::given(&json!([])) && !Tools::given(&Value::Null));
    }

    #[test]
    fn each_fault_breaks_its_one_rule() {
        let kinds = |fault| {
            let (text, media) = hand_over(&result(), Some(fault));
            let media: Vec<String> = media
                .iter()
                .map(|m| m["type"].as_str().unwrap().to_string())
                .collect();
            (text.len(), media)
        };
        assert_eq!(kinds(ToolFault::DropsImages).1, ["input_audio", "file"]);
        assert_eq!(
            kinds(ToolFault::DropsImagesWithStructured).1,
            ["input_audio", "file"]
        );
        assert_eq!(
            kinds(ToolFault::ClaimsImage),
            (3, vec!["input_audio".into(), "file".into()])
        );
        assert_eq!(
            kinds(ToolFault::AudioAsNote),
            (3, vec!["image_url".into(), "file".into()])
        );
        assert_eq!(kinds(ToolFault::DropsBlobs).1, ["image_url", "input_audio"]);
        assert_eq!(kinds(ToolFault::DropsResults), (1, vec![]));
        let mut plain = result();
        plain["structuredContent"] = Value::Null;
        assert_eq!(
            hand_over(&plain, Some(ToolFault::DropsImagesWithStructured))
                .1
                .len(),
            3
        );
    }
}
