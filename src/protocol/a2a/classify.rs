//! An answer's bucket (the buckets every stream-reading protocol shares,
//! `scenario::stream::StreamClass`): `completed` (a message, or a task that completed),
//! `run-error` (a task that failed, was canceled or rejected), `rejected` (an error
//! answer), `crashed` (a 5xx, InternalError), `broken` (not A2A: not JSON, neither a
//! task nor a message, a stream without its end), `unfinished` (our own limits ended
//! the read, or the task waits for input or authentication: nothing to judge).

use super::answer::{ErrorSeen, Object, is_interrupted, is_terminal, read_object};
use super::interface::{Binding, Version};
use crate::protocol::sse_read::ReadEnd;
use crate::scenario::stream::StreamClass;
use serde::Serialize;
use serde_json::Value;

/// What an answer (a send, a stream, a task followed to its end) was read as.
#[derive(Debug, Clone, Serialize)]
pub struct Reading {
    pub classification: StreamClass,
    pub status: u16,
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorSeen>,
    /// The first A2A object answered (what the send returned).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<Object>,
    /// The objects (or events) read, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<String>,
    /// Where the answer is spelled as the other version spells it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spelling: Vec<String>,
    /// What breaks the stream's order (§3.1.2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// The task waits for input or authentication (its state).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<String>,
    /// A task still working that GetTask must follow (its id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<String>,
    /// GetTask calls made to follow the task.
    #[serde(skip_serializing_if = "is_zero")]
    pub followed: u32,
    #[serde(rename = "eventStream")]
    pub event_stream: bool,
    /// The media types sent that the declaration does not list (for naming what the
    /// agent did with them, `unadvertised.rs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unadvertised: Vec<String>,
    #[serde(rename = "endedBy", skip_serializing_if = "Option::is_none")]
    pub ended_by: Option<ReadEnd>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Reading {
    pub fn new(classification: StreamClass, status: u16, summary: String) -> Reading {
        Reading {
            classification,
            status,
            summary,
            error: None,
            first: None,
            objects: Vec::new(),
            spelling: Vec::new(),
            problems: Vec::new(),
            interrupted: None,
            pending: None,
            followed: 0,
            event_stream: false,
            unadvertised: Vec::new(),
            ended_by: None,
        }
    }

    /// `completed: a task, TASK_STATE_COMPLETED`.
    pub fn line(&self) -> String {
        format!("{}: {}", self.classification, self.summary)
    }

    fn error(status: u16, seen: ErrorSeen) -> Reading {
        let class = if seen.is_crash() {
            StreamClass::Crashed
        } else {
            StreamClass::Rejected
        };
        let mut reading = Reading::new(class, status, seen.describe());
        reading.error = Some(seen);
        reading
    }
}

/// The bucket of a task in `state` (as written), and the reading's summary.
pub fn by_state(reading: &mut Reading, written: &str, id: Option<&str>) {
    let Some(state) = super::answer::state(written) else {
        reading.classification = StreamClass::Broken;
        reading.summary = format!("a task in the unknown state `{written}`");
        return;
    };
    reading.summary = format!("a task, {written}");
    reading.pending = None;
    reading.classification = if state == "completed" {
        StreamClass::Completed
    } else if is_terminal(state) {
        StreamClass::RunError
    } else if is_interrupted(state) {
        reading.interrupted = Some(written.to_string());
        StreamClass::Unfinished
    } else {
        reading.pending = Some(id.unwrap_or_default().to_string());
        StreamClass::Unfinished
    };
}

/// Reads a send's (non-streamed) answer: a JSON-RPC response, or an HTTP+JSON body.
pub fn send_answer(binding: Binding, version: Version, status: u16, body: &[u8]) -> Reading {
    let parsed = mmconform_json::bounded::parse(body).ok();
    let result = match (binding, &parsed) {
        (_, None) if status >= 500 => {
            return Reading::error(status, ErrorSeen::from_rest(status, None));
        }
        (_, None) if status >= 400 => {
            return Reading::error(status, ErrorSeen::from_rest(status, None));
        }
        (_, None) => {
            return Reading::new(StreamClass::Broken, status, "the answer is not JSON".into());
        }
        (Binding::JsonRpc, Some(value)) => {
            if let Some(error) = value.get("error").filter(|e| e.is_object()) {
                return Reading::error(status, ErrorSeen::from_jsonrpc(status, error));
            }
            match value.get("result") {
                Some(result) => result,
                None if status >= 400 => {
                    return Reading::error(status, ErrorSeen::from_rest(status, Some(value)));
                }
                None => {
                    return Reading::new(
                        StreamClass::Broken,
                        status,
                        "a JSON-RPC answer with neither `result` nor `error`".into(),
                    );
                }
            }
        }
        (Binding::HttpJson, Some(value)) if status >= 400 => {
            return Reading::error(status, ErrorSeen::from_rest(status, Some(value)));
        }
        (Binding::HttpJson, Some(value)) => value,
    };
    sent_object(version, status, result)
}

/// A send's result: a task or a message.
fn sent_object(version: Version, status: u16, result: &Value) -> Reading {
    let (object, differs) = read_object(result, version);
    let mut reading = Reading::new(StreamClass::Broken, status, String::new());
    reading.spelling.extend(differs);
    reading.objects.push(object.name());
    match &object {
        Object::Task { id, state } => by_state(&mut reading, state, id.as_deref()),
        Object::Message => {
            reading.classification = StreamClass::Completed;
            reading.summary = "a message".into();
        }
        other => {
            reading.summary = format!(
                "neither a task nor a message: {} (a send answers one of them, §3.1.1)",
                other.name()
            );
        }
    }
    reading.first = Some(object);
    reading
}

/// Reads a GetTask answer into `reading` (the task being followed); `false` when it
/// is no task (the error or what came instead is the reading's now).
pub fn followed_task(reading: &mut Reading, binding: Binding, status: u16, body: &[u8]) -> bool {
    reading.followed += 1;
    let parsed = mmconform_json::bounded::parse(body).ok();
    let task = match (binding, &parsed) {
        (Binding::JsonRpc, Some(value)) if value.get("error").is_some_and(Value::is_object) => {
            Err(ErrorSeen::from_jsonrpc(status, &value["error"]))
        }
        (Binding::JsonRpc, Some(value)) => value
            .get("result")
            .cloned()
            .ok_or_else(|| ErrorSeen::from_rest(status, Some(value))),
        (Binding::HttpJson, Some(value)) if status < 400 => Ok(value.clone()),
        (_, value) => Err(ErrorSeen::from_rest(status, value.as_ref())),
    };
    match task {
        Ok(task) => {
            // GetTask answers the Task itself (1.0 §3.1.3, 0.3 §7.3), not a wrapper.
            let inner = task.get("task").filter(|t| t.is_object()).unwrap_or(&task);
            let state = inner
                .pointer("/status/state")
                .and_then(Value::as_str)
                .unwrap_or("(none)")
                .to_string();
            let id = inner.get("id").and_then(Value::as_str).map(str::to_string);
            reading.objects.push(format!("GetTask: task({state})"));
            by_state(reading, &state, id.as_deref());
            true
        }
        Err(seen) => {
            let what = seen.describe();
            reading.objects.push(format!("GetTask: {what}"));
            reading.classification = StreamClass::Broken;
            reading.summary =
                format!("the task the send answered cannot be read back: GetTask answered {what}");
            reading.error = Some(seen);
            reading.pending = None;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rpc(result: Value) -> Vec<u8> {
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "result": result})).unwrap()
    }

    #[test]
    fn sends_are_bucketed_by_what_they_answer() {
        let done = rpc(json!({"task": {"id": "t", "status": {"state": "TASK_STATE_COMPLETED"}}}));
        assert_eq!(
            send_answer(Binding::JsonRpc, Version::V1, 200, &done).classification,
            StreamClass::Completed
        );
        let failed = rpc(json!({"kind": "task", "id": "t", "status": {"state": "failed"}}));
        assert_eq!(
            send_answer(Binding::JsonRpc, Version::V03, 200, &failed).classification,
            StreamClass::RunError
        );
        let working = send_answer(
            Binding::HttpJson,
            Version::V1,
            200,
            br#"{"task":{"id":"t9","status":{"state":"TASK_STATE_WORKING"}}}"#,
        );
        assert_eq!(
            (working.classification, working.pending.as_deref()),
            (StreamClass::Unfinished, Some("t9"))
        );
        let asks = send_answer(
            Binding::HttpJson,
            Version::V1,
            200,
            br#"{"task":{"id":"t","status":{"state":"TASK_STATE_INPUT_REQUIRED"}}}"#,
        );
        assert_eq!(
            asks.interrupted.as_deref(),
            Some("TASK_STATE_INPUT_REQUIRED")
        );
        let refused = serde_json::to_vec(
            &json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32005, "message": "no"}}),
        )
        .unwrap();
        assert_eq!(
            send_answer(Binding::JsonRpc, Version::V1, 200, &refused).classification,
            StreamClass::Rejected
        );
        let internal = serde_json::to_vec(
            &json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "boom"}}),
        )
        .unwrap();
        assert_eq!(
            send_answer(Binding::JsonRpc, Version::V1, 200, &internal).classification,
            StreamClass::Crashed
        );
        assert_eq!(
            send_answer(Binding::HttpJson, Version::V1, 500, b"oops").classification,
            StreamClass::Crashed
        );
        assert_eq!(
            send_answer(Binding::JsonRpc, Version::V1, 200, b"<html>").classification,
            StreamClass::Broken
        );
        let odd = send_answer(
            Binding::JsonRpc,
            Version::V1,
            200,
            &rpc(json!({"answer": 1})),
        );
        assert_eq!(odd.classification, StreamClass::Broken);
        assert!(
            odd.summary.contains("neither a task nor a message"),
            "{}",
            odd.summary
        );
    }

    #[test]
    fn a_followed_task_ends_in_its_state_or_breaks_when_it_cannot_be_read() {
        let mut reading = send_answer(
            Binding::JsonRpc,
            Version::V1,
            200,
            &rpc(json!({"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}})),
        );
        assert!(followed_task(
            &mut reading,
            Binding::JsonRpc,
            200,
            &rpc(json!({"id": "t", "status": {"state": "TASK_STATE_COMPLETED"}}))
        ));
        assert_eq!(
            (reading.classification, reading.followed),
            (StreamClass::Completed, 1)
        );
        let missing = serde_json::to_vec(
            &json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no"}}),
        )
        .unwrap();
        assert!(!followed_task(
            &mut reading,
            Binding::JsonRpc,
            200,
            &missing
        ));
        assert_eq!(reading.classification, StreamClass::Broken);
        assert!(
            reading.summary.contains("TaskNotFoundError"),
            "{}",
            reading.summary
        );
    }
}
