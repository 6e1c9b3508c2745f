//! Bridge protocol v1, the tester's side: one process per request, one JSON line on
//! stdin (`{"op":"describe"}` or `{"op":"execute","params":{...}}`), then stdin closed;
//! stdout carries only event lines, stderr is free-form evidence. The process itself
//! is run by the generic client in `crate::process`; this file only frames, and each
//! line is read once as it arrives (`event.rs`).

use super::classify::BridgeRun;
use super::event::{EventLine, EventReader};
use crate::process::{self, Command, Environment, LineLimits, RunOptions};
use crate::stop::Stop;
use serde_json::{Value, json};
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

impl Bridge {
    /// Runs the bridge once with `input`, its lines read by `reader`. `Err`: it could
    /// not be started.
    pub async fn call(
        &self,
        input: Vec<u8>,
        case_id: &str,
        stop: Stop,
        abort: bool,
        reader: &mut EventReader,
    ) -> Result<BridgeRun, String> {
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
            keep: &mut |line| reader.read(line),
            ends_output: &EventLine::is_done,
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_one_json_line() {
        assert_eq!(describe_line(), b"{\"op\":\"describe\"}\n");
        let exec = String::from_utf8(execute_line(&json!({"prompt": "p"}))).unwrap();
        assert_eq!(exec, "{\"op\":\"execute\",\"params\":{\"prompt\":\"p\"}}\n");
    }
}
