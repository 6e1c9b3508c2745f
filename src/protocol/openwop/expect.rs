//! `expect.self_hosted`, the key of `expect:` openwop owns (RFC 0108 §A.3): read
//! here from the case as written, judged in `self_hosted_case.rs`, placed by `lint.rs`.

use crate::protocol::ExpectKey;
use crate::scenario::model::Expectations;
use serde::Deserialize;

/// The key, and what it says where another protocol's file has it.
pub static SELF_HOSTED: ExpectKey = ExpectKey {
    key: "self_hosted",
    about: "judges an openwop host's self-hosted provider",
    check: crate::protocol::description::reads_as::<SelfHostedExpectation>,
};

/// `expect.self_hosted` (openwop, RFC 0108 §A.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SelfHostedExpectation {
    /// The self-hosted provider's id does not encode a location (judged on the id the
    /// run knows: the v1 document's, or `--self-hosted-provider`'s).
    IdOpaque,
    /// The self-hosted provider's id is one of the host's providers (v1 `supported`,
    /// v2 `providers`).
    IdListed,
    /// The endpoint `OPENWOP_TEST_COMPAT_ENDPOINT` names appears in no body or header of
    /// this case's answer nor of the run's discovery answers.
    EndpointHidden,
}

/// The case's `expect.self_hosted` (lint has refused a value that is not one).
pub fn self_hosted(expect: &Expectations) -> Option<SelfHostedExpectation> {
    expect.protocol_key(SELF_HOSTED.key).ok().flatten()
}
