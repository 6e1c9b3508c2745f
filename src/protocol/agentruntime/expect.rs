//! `expect.run`, the key of `expect:` agentruntime owns: read here from the case as
//! written, judged in `judge.rs`.

use crate::protocol::ExpectKey;
use crate::scenario::model::Expectations;
use serde::Deserialize;

/// The key, and what it says where another protocol's file has it.
pub static RUN: ExpectKey = ExpectKey {
    key: "run",
    about: "judges an AgentRuntime bridge's run",
    check: crate::protocol::description::reads_as::<RunExpectation>,
};

/// `expect.run` (agentruntime): each true field is one group of assertions on the
/// bridge's run (`protocol::agentruntime::judge`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunExpectation {
    /// `describe` printed one JSON object with a well-formed `mediaCapabilities`.
    #[serde(default)]
    pub capabilities: bool,
    /// Every line an `AgentEvent`, exactly one `done`, last, a full `result`, exit 0.
    #[serde(default)]
    pub contract: bool,
    /// No `error` event.
    #[serde(default)]
    pub no_error: bool,
    /// Media events agree with `emitsOutbound`.
    #[serde(default)]
    pub outbound: bool,
    /// After SIGTERM: ended within the grace (MUST), `done` with `aborted: true` (SHOULD).
    #[serde(default)]
    pub aborted: bool,
}

/// The case's `expect.run` (lint has refused a value that is not one).
pub fn of(expect: &Expectations) -> Option<RunExpectation> {
    expect.protocol_key(RUN.key).ok().flatten()
}
