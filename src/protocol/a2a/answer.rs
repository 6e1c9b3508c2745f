//! Reading what an agent answered, in either version's spelling: a task (its state),
//! a message, a stream event, or an error (a JSON-RPC error object, §9.5; an HTTP+JSON
//! `google.rpc.Status` with its ErrorInfo, §11.6). Read leniently so that a verdict
//! can name what came; where the spelling is the other version's, that is recorded
//! (`spelling`), never silently accepted.

use super::interface::Version;
use serde::Serialize;
use serde_json::Value;

/// A task state, by its 0.3 name (`completed`, `input-required`), however written.
pub fn state(written: &str) -> Option<&'static str> {
    const STATES: [&str; 9] = [
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    ];
    let bare = written
        .strip_prefix("TASK_STATE_")
        .map(|s| s.to_ascii_lowercase().replace('_', "-"))
        .unwrap_or_else(|| written.to_string());
    let bare = if bare == "unspecified" {
        "unknown".to_string()
    } else {
        bare
    };
    STATES.into_iter().find(|s| *s == bare)
}

/// How a state is spelled in `version` (§5.5: ProtoJSON enum names at 1.0).
pub fn spelled_as(version: Version, written: &str) -> bool {
    match version {
        Version::V1 => written.starts_with("TASK_STATE_"),
        Version::V03 => !written.starts_with("TASK_STATE_"),
    }
}

/// Ends the task: completed, failed, canceled, rejected (§3.1.2).
pub fn is_terminal(state: &str) -> bool {
    matches!(state, "completed" | "failed" | "canceled" | "rejected")
}

/// Stops it until the client acts: input-required, auth-required (§3.2.2).
pub fn is_interrupted(state: &str) -> bool {
    matches!(state, "input-required" | "auth-required")
}

/// One A2A object read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "object", rename_all = "kebab-case")]
pub enum Object {
    Task {
        id: Option<String>,
        /// As written.
        state: String,
    },
    Message,
    StatusUpdate {
        state: String,
        /// 0.3's `final`.
        last: bool,
    },
    ArtifactUpdate,
    /// Neither: what it looked like.
    Unknown {
        what: String,
    },
}

impl Object {
    /// The state it carries, by its 0.3 name.
    pub fn state(&self) -> Option<&'static str> {
        match self {
            Object::Task { state: s, .. } | Object::StatusUpdate { state: s, .. } => state(s),
            _ => None,
        }
    }

    pub fn name(&self) -> String {
        match self {
            Object::Task { state, .. } => format!("task({state})"),
            Object::Message => "message".into(),
            Object::StatusUpdate { state, .. } => format!("statusUpdate({state})"),
            Object::ArtifactUpdate => "artifactUpdate".into(),
            Object::Unknown { what } => what.clone(),
        }
    }
}

fn task(object: &Value) -> Object {
    Object::Task {
        id: object.get("id").and_then(Value::as_str).map(str::to_string),
        state: object
            .pointer("/status/state")
            .and_then(Value::as_str)
            .unwrap_or("(none)")
            .to_string(),
    }
}

fn status_update(object: &Value) -> Object {
    Object::StatusUpdate {
        state: object
            .pointer("/status/state")
            .and_then(Value::as_str)
            .unwrap_or("(none)")
            .to_string(),
        last: object.get("final") == Some(&Value::Bool(true)),
    }
}

/// `value` as a send result or stream event: 1.0 wraps the object in its key
/// (`{task}`, `{message}`, `{statusUpdate}`, `{artifactUpdate}`), 0.3 tags it with
/// `kind`. The second value says how its spelling differs from `version`'s.
pub fn read_object(value: &Value, version: Version) -> (Object, Option<String>) {
    let wrapped = [
        ("task", task as fn(&Value) -> Object),
        ("message", |_: &Value| Object::Message),
        ("statusUpdate", status_update),
        ("artifactUpdate", |_: &Value| Object::ArtifactUpdate),
    ]
    .into_iter()
    .find_map(|(key, read)| {
        value
            .get(key)
            .filter(|v| v.is_object())
            .map(|inner| (key, read(inner)))
    });
    let (object, shape_01) = match wrapped {
        Some((_, object)) => (object, true),
        None => {
            let object = match value.get("kind").and_then(Value::as_str) {
                Some("task") => task(value),
                Some("message") => Object::Message,
                Some("status-update") => status_update(value),
                Some("artifact-update") => Object::ArtifactUpdate,
                _ if value.get("status").is_some() && value.get("id").is_some() => task(value),
                _ if value.get("role").is_some() && value.get("parts").is_some() => Object::Message,
                _ => {
                    let what = match value {
                        Value::Object(map) => {
                            let keys: Vec<&str> = map.keys().map(String::as_str).take(6).collect();
                            format!("an object with {{{}}}", keys.join(", "))
                        }
                        Value::Null => "null".into(),
                        _ => "not an object".into(),
                    };
                    return (Object::Unknown { what }, None);
                }
            };
            (object, false)
        }
    };
    let mut differs = Vec::new();
    match (version, shape_01) {
        (Version::V1, false) => differs.push(format!(
            "the {} is not wrapped in its key (1.0 answers {{task}}, {{message}}, {{statusUpdate}}, {{artifactUpdate}})",
            object.name()
        )),
        (Version::V03, true) => differs.push(format!(
            "the {} is wrapped in its key, as 1.0 answers; 0.3 tags it with `kind`",
            object.name()
        )),
        _ => {}
    }
    if let Object::Task { state: s, .. } | Object::StatusUpdate { state: s, .. } = &object
        && state(s).is_some()
        && !spelled_as(version, s)
    {
        differs.push(format!(
            "the state `{s}` is not spelled as {} spells it",
            version.number()
        ));
    }
    let differs = (!differs.is_empty()).then(|| differs.join("; "));
    (object, differs)
}

/// An error answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ErrorSeen {
    pub http: u16,
    /// The JSON-RPC (or A2A) code, when the body has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// The `google.rpc.ErrorInfo` reason, when a detail carries one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The ErrorInfo's domain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The A2A name of a JSON-RPC code (§5.4, §9.5).
pub fn code_name(code: i64) -> Option<&'static str> {
    Some(match code {
        -32700 => "JSONParseError",
        -32600 => "InvalidRequestError",
        -32601 => "MethodNotFoundError",
        -32602 => "InvalidParamsError",
        -32603 => "InternalError",
        -32001 => "TaskNotFoundError",
        -32002 => "TaskNotCancelableError",
        -32003 => "PushNotificationNotSupportedError",
        -32004 => "UnsupportedOperationError",
        -32005 => "ContentTypeNotSupportedError",
        -32006 => "InvalidAgentResponseError",
        -32007 => "ExtendedAgentCardNotConfiguredError",
        -32008 => "ExtensionSupportRequiredError",
        -32009 => "VersionNotSupportedError",
        _ => return None,
    })
}

impl ErrorSeen {
    /// Reads a JSON-RPC error object (`error`), its ErrorInfo in `data`.
    pub fn from_jsonrpc(http: u16, error: &Value) -> ErrorSeen {
        let mut seen = ErrorSeen {
            http,
            code: error.get("code").and_then(Value::as_i64),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string),
            ..ErrorSeen::default()
        };
        seen.read_details(error.get("data"));
        seen
    }

    /// Reads an HTTP+JSON error body: `google.rpc.Status` (`{error: {code, status,
    /// message, details}}`), or a body with a JSON-RPC-style `code`.
    pub fn from_rest(http: u16, body: Option<&Value>) -> ErrorSeen {
        let mut seen = ErrorSeen {
            http,
            ..ErrorSeen::default()
        };
        let Some(body) = body else {
            return seen;
        };
        let status = body.get("error").filter(|e| e.is_object()).unwrap_or(body);
        seen.message = status
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string);
        seen.code = status
            .get("code")
            .and_then(Value::as_i64)
            .filter(|c| *c < 0);
        seen.read_details(status.get("details").or_else(|| status.get("data")));
        seen
    }

    fn read_details(&mut self, details: Option<&Value>) {
        let info = details
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|d| {
                d.get("@type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.ends_with("google.rpc.ErrorInfo"))
            });
        if let Some(info) = info {
            self.reason = info
                .get("reason")
                .and_then(Value::as_str)
                .map(str::to_string);
            self.domain = info
                .get("domain")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
    }

    /// `JSON-RPC -32602 InvalidParamsError`, `HTTP 400 CONTENT_TYPE_NOT_SUPPORTED`.
    pub fn describe(&self) -> String {
        let mut out = match self.code {
            Some(code) => format!(
                "error {code}{}",
                code_name(code).map(|n| format!(" {n}")).unwrap_or_default()
            ),
            None => "an error".to_string(),
        };
        if self.http != 200 || self.code.is_none() {
            out = format!("HTTP {} {out}", self.http);
        }
        match &self.reason {
            Some(reason) => out.push_str(&format!(" (ErrorInfo {reason})")),
            None => out.push_str(" (no ErrorInfo)"),
        }
        out
    }

    /// An error that says the agent failed, not the input: a 5xx, InternalError,
    /// InvalidAgentResponseError.
    pub fn is_crash(&self) -> bool {
        self.http >= 500 || matches!(self.code, Some(-32603 | -32006))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_are_read_in_either_spelling_and_the_difference_said() {
        let v1 = json!({"task": {"id": "t", "status": {"state": "TASK_STATE_COMPLETED"}}});
        let (object, differs) = read_object(&v1, Version::V1);
        assert_eq!(object.state(), Some("completed"));
        assert_eq!(differs, None);
        let (object, differs) = read_object(&v1, Version::V03);
        assert!(matches!(object, Object::Task { .. }));
        let differs = differs.unwrap();
        assert!(
            differs.contains("wrapped") && differs.contains("TASK_STATE_COMPLETED"),
            "{differs}"
        );
        let v03 =
            json!({"kind": "status-update", "status": {"state": "input-required"}, "final": true});
        let (object, differs) = read_object(&v03, Version::V03);
        assert_eq!(
            object,
            Object::StatusUpdate {
                state: "input-required".into(),
                last: true
            }
        );
        assert!(differs.is_none());
        let (object, _) = read_object(&json!({"answer": 42}), Version::V1);
        assert!(matches!(object, Object::Unknown { .. }));
        assert!(is_interrupted(state("TASK_STATE_AUTH_REQUIRED").unwrap()));
    }

    #[test]
    fn errors_are_read_from_both_bindings() {
        let rpc = ErrorSeen::from_jsonrpc(
            200,
            &json!({"code": -32005, "message": "no", "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "CONTENT_TYPE_NOT_SUPPORTED", "domain": "a2a-protocol.org"}]}),
        );
        assert_eq!(
            rpc.describe(),
            "error -32005 ContentTypeNotSupportedError (ErrorInfo CONTENT_TYPE_NOT_SUPPORTED)"
        );
        let rest = ErrorSeen::from_rest(
            400,
            Some(&json!({"error": {"code": 400, "message": "bad", "details": []}})),
        );
        assert_eq!((rest.code, rest.reason.as_deref()), (None, None));
        assert_eq!(rest.describe(), "HTTP 400 an error (no ErrorInfo)");
        assert!(ErrorSeen::from_rest(500, None).is_crash());
        assert!(ErrorSeen::from_jsonrpc(200, &json!({"code": -32603})).is_crash());
    }
}
