//! `expect.acp`, the key of `expect:` ACP owns: read here from the case as written,
//! judged in `judge.rs`.

use crate::protocol::ExpectKey;
use crate::scenario::model::Expectations;
use serde::Deserialize;

/// The key, and what it says where another protocol's file has it.
pub static ACP: ExpectKey = ExpectKey {
    key: "acp",
    about: "judges an ACP agent's answers",
    check: crate::protocol::description::reads_as::<AcpExpectation>,
};

/// `expect.acp`: each field one assertion on an ACP exchange (`protocol::acp::judge`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcpExpectation {
    /// `initialize` was answered with a well-formed `InitializeResponse`.
    #[serde(default)]
    pub initialize: bool,
    /// `session/prompt` ended with this `stopReason` (`end_turn`, `cancelled`).
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// `session/prompt` was answered with a JSON-RPC error, and the agent still answers.
    #[serde(default)]
    pub rejected: bool,
}

/// The case's `expect.acp` (lint has refused a value that is not one).
pub fn of(expect: &Expectations) -> Option<AcpExpectation> {
    expect.protocol_key(ACP.key).ok().flatten()
}
