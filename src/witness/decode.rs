//! From a request body to what the witness records of it: parsing within bounds, the
//! shape every wire shares (an object with `messages`), and collecting parts under the
//! per-call limits. The wire modules decode their own messages.

use super::config::Limits;
use super::part::{MAX_NAME, TextBudget, cut};
use super::record::{ModelCall, Part, Problem, ProblemCode, Wire};
use super::tools::ToolTurn;
use super::wire::{anthropic, chat, gemini, responses};
use serde_json::{Map, Value};

/// Most distinct stamps kept for parts past the per-call cap.
const MAX_MORE_STAMPS: usize = 64;

/// A decoded call, before it has a sequence number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// 200 for every call that is a chat/messages request, whatever its problems.
    pub status: u16,
    /// Why the call is refused, when `status` is not 200.
    pub refusal: Option<String>,
    pub stream: bool,
    /// OpenAI `stream_options.include_usage`: the stream ends with a usage chunk.
    pub stream_usage: bool,
    pub model: Option<String>,
    pub messages: usize,
    pub roles: Vec<String>,
    pub parts_total: usize,
    pub parts: Vec<Part>,
    pub more_stamps: Vec<String>,
    pub problems: Vec<Problem>,
    pub problems_dropped: usize,
    /// What the request says about the tool-media tool (`super::tools`).
    pub tools: ToolTurn,
}

impl Decoded {
    /// A call answered 200, with nothing decoded yet.
    fn accepted() -> Decoded {
        Decoded {
            status: 200,
            refusal: None,
            stream: false,
            stream_usage: false,
            model: None,
            messages: 0,
            roles: Vec::new(),
            parts_total: 0,
            parts: Vec::new(),
            more_stamps: Vec::new(),
            problems: Vec::new(),
            problems_dropped: 0,
            tools: ToolTurn::default(),
        }
    }

    /// A call answered with an error: nothing in it was decoded.
    pub fn refused(status: u16, code: ProblemCode, why: impl Into<String>) -> Decoded {
        let why = why.into();
        Decoded {
            status,
            refusal: Some(why.clone()),
            problems: vec![Problem::new(code, why)],
            ..Decoded::accepted()
        }
    }

    /// The record, once numbered.
    pub fn into_call(
        self,
        seq: u64,
        wire: Wire,
        path: &str,
        received_at: String,
        body_bytes: u64,
    ) -> ModelCall {
        let tool_call = super::tools::decide(&self.tools, seq);
        ModelCall {
            seq,
            wire,
            path: cut(path, 256),
            received_at,
            stream: self.stream,
            model: self.model,
            status: self.status,
            body_bytes,
            messages: self.messages,
            roles: self.roles,
            parts_total: self.parts_total,
            parts: self.parts,
            more_stamps: self.more_stamps,
            problems: self.problems,
            problems_dropped: self.problems_dropped,
            tool_call,
        }
    }
}

/// Collects a call's parts, roles and problems under the limits.
pub struct Collector<'a> {
    limits: &'a Limits,
    pub budget: TextBudget,
    out: Decoded,
}

impl<'a> Collector<'a> {
    fn new(limits: &'a Limits) -> Collector<'a> {
        Collector {
            limits,
            budget: TextBudget {
                per_part: limits.max_text_bytes_per_part,
                left: limits.max_text_bytes_per_call,
            },
            out: Decoded::accepted(),
        }
    }

    /// Keeps `part`, or, past the cap, its stamps and problems only.
    pub fn part(&mut self, part: Part) {
        self.out.parts_total += 1;
        if self.out.parts.len() < self.limits.max_parts_per_call {
            self.out.parts.push(part);
            return;
        }
        let content = part.content.and_then(|c| c.stamp);
        for stamp in part.stamps.into_iter().chain(content) {
            let more = &mut self.out.more_stamps;
            if more.len() < MAX_MORE_STAMPS && !more.contains(&stamp) {
                more.push(stamp);
            }
        }
        for problem in part.problems {
            self.problem(problem);
        }
    }

    pub fn problem(&mut self, problem: Problem) {
        if self.out.problems.len() < self.limits.max_problems_per_call {
            self.out.problems.push(problem);
        } else {
            self.out.problems_dropped += 1;
        }
    }

    /// Counts a message and keeps its role (the first `max_parts_per_call` roles).
    /// Counts `/messages/{index}` with its role (`(none)` when it names none): the
    /// role, and where its content is.
    pub fn open_message<'v>(&mut self, index: usize, message: &'v Value) -> (&'v str, String) {
        let role = message
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("(none)");
        self.message(role);
        (role, format!("/messages/{index}/content"))
    }

    pub fn message(&mut self, role: &str) {
        self.out.messages += 1;
        if self.out.roles.len() < self.limits.max_parts_per_call {
            self.out.roles.push(cut(role, 32));
        }
    }
}

/// The body of a call to `wire`, decoded. Never fails: what cannot be read is a
/// refused call with its problem.
pub fn decode(wire: Wire, body: &[u8], limits: &Limits) -> Decoded {
    let value = match mmconform_json::bounded::parse_with_limit(body, limits.max_json_values) {
        Ok(value) => value,
        Err(problem) => {
            return Decoded::refused(400, ProblemCode::MalformedJson, problem.to_string());
        }
    };
    let Some(object) = value.as_object() else {
        return Decoded::refused(400, ProblemCode::BadShape, "the body is not a JSON object");
    };
    let mut collector = Collector::new(limits);
    let read = match wire {
        Wire::OpenaiChat | Wire::AnthropicMessages => messages(wire, object, &mut collector),
        Wire::OpenaiResponses => responses::decode::decode(object, &mut collector),
        Wire::Gemini | Wire::GeminiCountTokens => gemini::decode::decode(object, &mut collector),
        Wire::Unknown => Ok(()),
    };
    if let Err(why) = read {
        return Decoded::refused(400, ProblemCode::BadShape, why);
    }
    let mut out = collector.out;
    out.tools = match wire {
        Wire::OpenaiChat => chat::tools::read(object),
        Wire::AnthropicMessages => anthropic::tools::read(object),
        Wire::OpenaiResponses => responses::tools::read(object),
        Wire::Gemini => gemini::tools::read(object),
        _ => Default::default(),
    };
    read_options(object, &mut out);
    out
}

/// The wires whose request is a `messages` list: Chat Completions and Messages.
fn messages(wire: Wire, object: &Map<String, Value>, c: &mut Collector) -> Result<(), String> {
    let Some(messages) = object.get("messages").and_then(Value::as_array) else {
        return Err("the body has no `messages` list".into());
    };
    if messages.is_empty() {
        c.problem(Problem::new(
            ProblemCode::EmptyMessages,
            "`messages` is an empty list",
        ));
    }
    match wire {
        Wire::AnthropicMessages => anthropic::decode::decode(object, messages, c),
        _ => chat::decode::decode(messages, c),
    }
    Ok(())
}

/// The call's model and streaming options.
fn read_options(object: &Map<String, Value>, out: &mut Decoded) {
    out.model = object
        .get("model")
        .and_then(Value::as_str)
        .map(|m| cut(m, MAX_NAME));
    out.stream = object.get("stream") == Some(&Value::Bool(true));
    out.stream_usage = object
        .get("stream_options")
        .and_then(|o| o.get("include_usage"))
        == Some(&Value::Bool(true));
}

/// Roles whose string content must not be empty (0015 §3: user content is a
/// non-empty string; system and developer prompts are text-only and likewise).
pub fn needs_text(role: &str) -> bool {
    matches!(role, "user" | "system" | "developer")
}

/// Shared between wires: media are for user messages only (0015 §3, v1).
pub fn check_role(part: &mut Part) {
    if part.kind.is_media() && part.role != "user" {
        let message = format!(
            "{}: a {} part on a `{}` message (media belong on user messages)",
            part.at,
            part.kind.as_str(),
            part.role
        );
        part.problem(ProblemCode::MediaOnNonUser, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(decoded: &Decoded) -> Vec<ProblemCode> {
        decoded.problems.iter().map(|p| p.code).collect()
    }

    #[test]
    fn unreadable_bodies_are_refused_with_their_problem() {
        let limits = Limits::default();
        for (body, code) in [
            (&b"{not json"[..], ProblemCode::MalformedJson),
            (b"", ProblemCode::MalformedJson),
            (b"\xff\xfe", ProblemCode::MalformedJson),
            (b"[1,2]", ProblemCode::BadShape),
            (b"{\"messages\": \"hi\"}", ProblemCode::BadShape),
        ] {
            let d = decode(Wire::OpenaiChat, body, &limits);
            assert_eq!(d.status, 400, "{body:?}");
            assert_eq!(codes(&d), [code], "{body:?}");
            assert!(d.refusal.is_some());
        }
        let tight = Limits {
            max_json_values: 3,
            ..Limits::default()
        };
        let d = decode(Wire::OpenaiChat, br#"{"messages": [1, 2, 3]}"#, &tight);
        assert_eq!(codes(&d), [ProblemCode::MalformedJson]);
        assert!(d.refusal.unwrap().contains("more than"));
    }

    #[test]
    fn empty_messages_are_a_problem_not_a_refusal() {
        let body = br#"{"model": "m", "stream": true, "stream_options": {"include_usage": true}, "messages": []}"#;
        let d = decode(Wire::OpenaiChat, body, &Limits::default());
        assert_eq!(d.status, 200);
        assert_eq!(codes(&d), [ProblemCode::EmptyMessages]);
        assert_eq!(d.model.as_deref(), Some("m"));
        assert!(d.stream && d.stream_usage);
    }

    #[test]
    fn parts_past_the_cap_are_counted_with_their_stamps_and_problems() {
        let limits = Limits {
            max_parts_per_call: 2,
            max_problems_per_call: 1,
            ..Limits::default()
        };
        let mut parts: Vec<Value> = (0..5)
            .map(|i| serde_json::json!({"type": "text", "text": format!("mmconform-nonce:t{i}")}))
            .collect();
        parts.push(serde_json::json!({"type": "text", "text": ""}));
        parts.push(serde_json::json!({"type": "text", "text": ""}));
        let body = serde_json::json!({"messages": [{"role": "user", "content": parts}]});
        let d = decode(Wire::OpenaiChat, body.to_string().as_bytes(), &limits);
        assert_eq!(d.parts_total, 7);
        assert_eq!(d.parts.len(), 2);
        assert_eq!(d.more_stamps, ["t2", "t3", "t4"]);
        assert_eq!(codes(&d), [ProblemCode::EmptyText]);
        assert_eq!(d.problems_dropped, 1);
    }
}
