//! Bridge protocol v1, the tester's side: one process per request, one JSON line on
//! stdin (`{"op":"describe"}` or `{"op":"execute","params":{...}}`), then stdin closed;
//! stdout carries only event lines, stderr is free-form evidence. The process itself
//! is run by the generic client in `crate::process`; this file only frames.

use crate::process::{self, Command, Environment, Finished, Line, LineLimits, RunOptions};
use crate::stop::Stop;
use serde_json::{Map, Value, json};
use std::time::Duration;

/// Between SIGTERM and SIGKILL (abort, `--timeout`).
pub const GRACE: Duration = Duration::from_secs(3);

/// The variable carrying the witness's base URL (with `--witness`).
pub const WITNESS_VAR: &str = "MMCONFORM_WITNESS_URL";
/// The variable carrying the case id.
pub const CASE_VAR: &str = "MMCONFORM_CASE";

/// How one run's bridge is started.
#[derive(Debug, Clone)]
pub struct Bridge {
    pub command: Command,
    /// The allow-list and `--target-env`/`--target-unset`; the case and the witness
    /// are added per run.
    pub environment: Environment,
    pub witness_url: Option<String>,
    pub limits: LineLimits,
    pub timeout: Duration,
    pub grace: Duration,
}

/// The `describe` request line.
pub fn describe_line() -> Vec<u8> {
    line(&json!({"op": "describe"}))
}

/// The `execute` request line.
pub fn execute_line(params: &Value) -> Vec<u8> {
    line(&json!({"op": "execute", "params": params}))
}

fn line(value: &Value) -> Vec<u8> {
    let mut out = value.to_string().into_bytes();
    out.push(b'\n');
    out
}

/// A stdout line read as an `AgentEvent`: a JSON object with a string `type`.
pub fn event(line: &Line) -> Result<(&'static str, Map<String, Value>), String> {
    if !line.utf8 {
        return Err("not UTF-8 (binary output)".into());
    }
    let value: Value = serde_json::from_str(&line.text).map_err(|e| format!("not JSON ({e})"))?;
    let Value::Object(map) = value else {
        return Err("JSON but not an object".into());
    };
    let kind = match map.get("type").and_then(Value::as_str) {
        Some("text") => "text",
        Some("media") => "media",
        Some("thinking") => "thinking",
        Some("tool_use") => "tool_use",
        Some("tool_result") => "tool_result",
        Some("error") => "error",
        Some("done") => "done",
        Some(other) => return Err(format!("an object whose type `{other}` is no AgentEvent")),
        None => return Err("an object without a string `type`".into()),
    };
    Ok((kind, map))
}

/// Whether `line` is a `done` event (the end of a run's output).
pub fn is_done(line: &Line) -> bool {
    // Cheap first: most lines are not.
    line.text.contains("\"done\"") && matches!(event(line), Ok(("done", _)))
}

impl Bridge {
    /// Runs the bridge once with `input`. `Err`: it could not be started.
    pub async fn call(
        &self,
        input: Vec<u8>,
        case_id: &str,
        stop: Stop,
        abort: bool,
    ) -> Result<Finished, String> {
        let mut environment = self.environment.clone().with(CASE_VAR, case_id);
        if let Some(url) = &self.witness_url {
            environment = environment.with(WITNESS_VAR, url);
        }
        process::run_once(RunOptions {
            command: &self.command,
            environment,
            input,
            limits: self.limits,
            timeout: self.timeout,
            grace: self.grace,
            // After `done` the bridge has what is left of --timeout to exit: an
            // interpreter's shutdown on a loaded machine is slow, and no shorter wait can
            // tell that from a bridge that never exits.
            after_end: self.timeout,
            stop,
            sigterm_on_first_line: abort,
            ends_output: &is_done,
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line {
            text: text.into(),
            utf8: true,
            terminated: true,
        }
    }

    #[test]
    fn lines_are_read_as_agent_events() {
        assert_eq!(
            event(&line(r#"{"type":"text","text":"hi"}"#)).unwrap().0,
            "text"
        );
        assert!(
            event(&line("thinking..."))
                .unwrap_err()
                .starts_with("not JSON")
        );
        assert!(event(&line("[1]")).unwrap_err().contains("not an object"));
        assert!(
            event(&line(r#"{"type":"banner"}"#))
                .unwrap_err()
                .contains("no AgentEvent")
        );
        let binary = Line {
            utf8: false,
            ..line("x")
        };
        assert!(event(&binary).unwrap_err().contains("binary"));
        assert!(is_done(&line(r#"{"type":"done","result":{}}"#)));
        assert!(!is_done(&line(r#"{"type":"text","text":"done"}"#)));
    }

    #[test]
    fn requests_are_one_json_line() {
        assert_eq!(describe_line(), b"{\"op\":\"describe\"}\n");
        let exec = String::from_utf8(execute_line(&json!({"prompt": "p"}))).unwrap();
        assert_eq!(exec, "{\"op\":\"execute\",\"params\":{\"prompt\":\"p\"}}\n");
    }
}
