//! mmconform as an ACP client on one agent process: JSON-RPC 2.0 requests written as
//! lines on its stdin, and its stdout read until the response to ours, meanwhile
//! collecting `session/update` notifications and answering the agent's own requests as
//! a client without file-system or terminal capabilities would (a cancelled
//! permission, method-not-found), each recorded. Every wait is bounded: `--timeout` for
//! an answer, the line caps for output, the run's stop. Every frame is parsed within the
//! same bound as an HTTP body (`mmconform_json::bounded`), and only what is judged is kept: the
//! response, a count of the updates, the first lines that were no frame.

use crate::process::{Line, Peer, ReadEnd};
use crate::stop::Stop;
use agent_client_protocol_schema::v1::ErrorCode;
use mmconform_json::bounded::{self, JsonProblem};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Lines kept per exchange for the report; the rest are counted.
const KEPT_FRAMES: usize = 200;
/// Lines that were no frame, and the agent's requests, kept per exchange; the rest are
/// counted.
const KEPT_GARBAGE: usize = 20;
const KEPT_REQUESTS: usize = 50;

/// One request's exchange: what came back, and everything the agent said meanwhile.
#[derive(Debug, Clone, Default)]
pub struct Exchange {
    pub method: String,
    /// The response frame to our request (`result` or `error`).
    pub response: Option<Value>,
    /// How many `session/update` notifications came (their content is not judged).
    pub updates: usize,
    /// The agent's requests and the answers we gave (`method`, `answer`): the first
    /// [`KEPT_REQUESTS`].
    pub agent_requests: Vec<(String, Value)>,
    /// Lines that were not a JSON-RPC frame (clipped): the first [`KEPT_GARBAGE`].
    pub garbage: Vec<String>,
    /// Garbage lines and agent requests past those kept.
    pub not_kept: usize,
    /// Frames in and out, clipped, for the report.
    pub frames: Vec<String>,
    /// Why no response came (timeout, stdout closed, a bound, the run's stop).
    pub unanswered: Option<Unanswered>,
    pub elapsed: Duration,
}

/// Why a request got no response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unanswered {
    /// Nothing within `--timeout`.
    Timeout(Duration),
    /// The agent closed stdout (exited, crashed) or a bound ended the reading.
    Ended(String),
    /// The run must stop (`--deadline`, Ctrl-C): blocked, never a verdict.
    Stopped(String),
    /// A frame too large in JSON values to read (memory bound): whether it was the
    /// response cannot be known, so blocked, never a verdict.
    Unread(String),
}

impl Unanswered {
    pub fn describe(&self) -> String {
        match self {
            Unanswered::Timeout(t) => format!("no response within {}s", t.as_secs_f32()),
            Unanswered::Ended(why) => format!("no response: {why}"),
            Unanswered::Stopped(why) => format!("the run stopped ({why})"),
            Unanswered::Unread(why) => why.clone(),
        }
    }
}

impl Exchange {
    /// The response's `result`, when it is one.
    pub fn result(&self) -> Option<&Value> {
        self.response.as_ref().and_then(|r| r.get("result"))
    }

    /// The response's `error`, when it is one.
    pub fn error(&self) -> Option<&Value> {
        self.response.as_ref().and_then(|r| r.get("error"))
    }
}

/// The client's side of one agent process.
pub struct Connection {
    pub peer: Peer,
    next_id: u64,
}

/// When to send `session/cancel` during a prompt (a cancellation case).
#[derive(Debug, Clone)]
pub struct CancelWhen {
    pub session_id: String,
    /// After this long without the turn ending (or at its first update, earlier).
    pub after: Duration,
}

impl Connection {
    pub fn new(peer: Peer) -> Connection {
        Connection { peer, next_id: 0 }
    }

    /// Sends a notification (no answer expected).
    pub fn notify(&self, method: &str, params: Value) -> bool {
        self.peer.send(frame(
            &json!({"jsonrpc": "2.0", "method": method, "params": params}),
        ))
    }

    /// Sends `method` and reads until its response, within `timeout`.
    pub async fn request(
        &mut self,
        method: &str,
        params: Value,
        timeout: Duration,
        stop: &Stop,
        cancel: Option<CancelWhen>,
    ) -> Exchange {
        self.next_id += 1;
        let id = self.next_id;
        let started = Instant::now();
        let out = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut ex = Exchange {
            method: method.into(),
            ..Exchange::default()
        };
        keep(&mut ex, format!("-> {}", clip(&out.to_string())));
        self.peer.send(frame(&out));
        let deadline = tokio::time::Instant::now() + timeout;
        let mut cancel_at = cancel
            .as_ref()
            .map(|c| tokio::time::Instant::now() + c.after);
        loop {
            let wake = cancel_at.map_or(deadline, |c| c.min(deadline));
            tokio::select! {
                next = self.peer.next_line() => match next {
                    Ok(line) => {
                        if self.take(&mut ex, id, &line) {
                            break;
                        }
                        if ex.updates > 0 && cancel_at.is_some() {
                            cancel_at = Some(tokio::time::Instant::now());
                        }
                    }
                    Err(end) => {
                        ex.unanswered = Some(Unanswered::Ended(ended(&end)));
                        break;
                    }
                },
                _ = tokio::time::sleep_until(wake) => {
                    if let (Some(c), Some(at)) = (&cancel, cancel_at)
                        && at <= tokio::time::Instant::now()
                    {
                        keep(&mut ex, "-> session/cancel".into());
                        self.notify("session/cancel", json!({"sessionId": c.session_id}));
                        cancel_at = None;
                        continue;
                    }
                    ex.unanswered = Some(Unanswered::Timeout(timeout));
                    break;
                }
                reason = stop.wait() => {
                    ex.unanswered = Some(Unanswered::Stopped(format!("{reason:?}")));
                    break;
                }
            }
        }
        ex.elapsed = started.elapsed();
        ex
    }

    /// Reads one line into the exchange; true when it is our response, or when the
    /// exchange cannot go on (a frame too large to read).
    fn take(&mut self, ex: &mut Exchange, id: u64, line: &Line) -> bool {
        keep(ex, format!("<- {}", clip(&line.text)));
        let value: Value = match bounded::parse(line.text.as_bytes()) {
            Ok(Value::Object(map)) if map.get("jsonrpc") == Some(&json!("2.0")) => {
                Value::Object(map)
            }
            Err(JsonProblem::TooManyValues) => {
                ex.unanswered = Some(Unanswered::Unread(format!(
                    "the agent sent a frame of more than {} JSON values: not read (memory bound), so this exchange is not judged",
                    crate::quoted::thousands(bounded::MAX_VALUES)
                )));
                return true;
            }
            _ => {
                garbage(ex, clip(&line.text));
                return false;
            }
        };
        let method = value.get("method").and_then(Value::as_str);
        match (method, value.get("id")) {
            (None, Some(got)) => {
                if got == &json!(id) {
                    ex.response = Some(value);
                    return true;
                }
                garbage(
                    ex,
                    format!("a response to no request of ours: {}", clip(&line.text)),
                );
            }
            (Some("session/update"), None) => ex.updates += 1,
            (Some(_), None) => {}
            (None, None) => garbage(
                ex,
                format!("neither request nor response: {}", clip(&line.text)),
            ),
            (Some(method), Some(their_id)) => {
                let method = clip_to(method, METHOD_CHARS);
                let answer = answer_for(&method);
                let mut reply = json!({"jsonrpc": "2.0", "id": their_id});
                if let (Some(map), Some(answer_map)) = (reply.as_object_mut(), answer.as_object()) {
                    map.extend(answer_map.clone());
                }
                keep(ex, format!("-> {}", clip(&reply.to_string())));
                self.peer.send(frame(&reply));
                if ex.agent_requests.len() < KEPT_REQUESTS {
                    ex.agent_requests.push((method, answer));
                } else {
                    ex.not_kept += 1;
                }
            }
        }
        false
    }
}

/// What a client without file-system or terminal capabilities answers an agent's
/// request: a permission is cancelled (the client never grants what it cannot
/// oversee), everything else is a method it does not have.
pub fn answer_for(method: &str) -> Value {
    if method == "session/request_permission" {
        json!({"result": {"outcome": {"outcome": "cancelled"}}})
    } else {
        json!({"error": {"code": i32::from(ErrorCode::MethodNotFound), "message": format!("{method}: not supported by this client")}})
    }
}

fn ended(end: &ReadEnd) -> String {
    match end {
        ReadEnd::Eof => "the agent closed its stdout (it exited)".into(),
        other => other.describe(),
    }
}

fn garbage(ex: &mut Exchange, line: String) {
    if ex.garbage.len() < KEPT_GARBAGE {
        ex.garbage.push(line);
    } else {
        ex.not_kept += 1;
    }
}

fn keep(ex: &mut Exchange, line: String) {
    if ex.frames.len() < KEPT_FRAMES {
        ex.frames.push(line);
    }
}

/// One JSON-RPC message as one line (ACP's stdio framing: newline-delimited JSON).
pub fn frame(value: &Value) -> Vec<u8> {
    let mut out = value.to_string().into_bytes();
    out.push(b'\n');
    out
}

/// Longest method name of an agent's request kept (and echoed in our answer).
const METHOD_CHARS: usize = 120;

pub fn clip(text: &str) -> String {
    clip_to(text, 400)
}

fn clip_to(text: &str, chars: usize) -> String {
    let mut out: String = text.chars().take(chars).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agents_requests_get_a_capability_less_clients_answers() {
        assert_eq!(
            answer_for("session/request_permission")["result"]["outcome"]["outcome"],
            "cancelled"
        );
        assert_eq!(answer_for("fs/read_text_file")["error"]["code"], -32601);
        assert_eq!(answer_for("terminal/create")["error"]["code"], -32601);
    }
}
