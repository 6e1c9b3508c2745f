//! The registry: every protocol mmconform speaks and the reference host that proves
//! its cases, one line each. It is the top of the layering (`cli` and `calibrate` read
//! it): the layers below never name a protocol, they are handed one (`&dyn Protocol`),
//! and everything that lists the profiles (`--profile`'s values, `serve-reference`'s,
//! calibration's hosts and variants, the scenario checks, the project file, error
//! messages and the generated docs) lists this.
//!
//! Adding a protocol is one line here, next to its folder under `src/protocol/` and
//! its glue under `src/reference/` (docs/architecture.md, "Adding a protocol").

use crate::protocol::{self, Protocol};
use crate::reference::{self, ReferenceHost, ServeForm};

/// One line of the registry: a protocol, or (`None`) a reference served before its
/// run profile exists, and the reference host its cases are calibrated against.
pub struct Registered {
    pub protocol: Option<&'static dyn Protocol>,
    pub reference: &'static dyn ReferenceHost,
}

const fn entry(
    protocol: &'static dyn Protocol,
    reference: &'static dyn ReferenceHost,
) -> Registered {
    Registered {
        protocol: Some(protocol),
        reference,
    }
}

/// Every protocol, in the order lists show them; the first is the default profile.
pub static REGISTRY: &[Registered] = &[
    entry(&protocol::openwop::Openwop, &reference::openwop::HOST),
    entry(&protocol::agui::Agui, &reference::agui::HOST),
    entry(&protocol::openai::OPENAI, &reference::openai::SERVER),
    entry(
        &protocol::openai_responses::OPENAI_RESPONSES,
        &reference::openai::SERVER,
    ),
    entry(
        &protocol::anthropic::ANTHROPIC,
        &reference::anthropic::SERVER,
    ),
    entry(
        &protocol::agentruntime::Agentruntime,
        &reference::agentruntime::RUNTIME,
    ),
    entry(&protocol::acp::Acp, &reference::acp::AGENT),
    entry(&protocol::a2a::A2a, &reference::a2a::AGENT),
];

/// Every registered protocol, in registry order.
pub fn protocols() -> impl Iterator<Item = &'static dyn Protocol> {
    REGISTRY.iter().filter_map(|r| r.protocol)
}

/// The protocol `--profile` and `profile:` call `name`.
pub fn protocol(name: &str) -> Option<&'static dyn Protocol> {
    protocols().find(|p| p.name() == name)
}

/// The default profile (`--profile` absent): the first line.
pub fn default_protocol() -> &'static dyn Protocol {
    protocols().next().expect("the registry lists a protocol")
}

/// The variable a run of `protocol` reads its token from without `--token-env`: its
/// own, or the default profile's.
pub fn token_env(protocol: &dyn Protocol) -> &'static str {
    protocol
        .description()
        .token_env
        .or(default_protocol().description().token_env)
        .unwrap_or_default()
}

/// Every profile name, in registry order.
pub fn profile_names() -> Vec<&'static str> {
    protocols().map(|p| p.name()).collect()
}

/// The reference host that serves `profile`'s cases.
pub fn reference_of(profile: &str) -> Option<&'static dyn ReferenceHost> {
    REGISTRY
        .iter()
        .find(|r| r.protocol.is_some_and(|p| p.name() == profile))
        .map(|r| r.reference)
}

/// Every reference host once (one host may serve several profiles), in registry order.
pub fn reference_hosts() -> Vec<&'static dyn ReferenceHost> {
    let mut hosts: Vec<&'static dyn ReferenceHost> = Vec::new();
    for registered in REGISTRY {
        if !hosts
            .iter()
            .any(|h| h.name() == registered.reference.name())
        {
            hosts.push(registered.reference);
        }
    }
    hosts
}

/// Every `serve-reference --profile` form, with its host, in registry order; the first
/// is the default.
pub fn serve_forms() -> Vec<(&'static ServeForm, &'static dyn ReferenceHost)> {
    reference_hosts()
        .into_iter()
        .flat_map(|host| host.serve_forms().iter().map(move |form| (form, host)))
        .collect()
}

/// What a saved report's protocol reads in it (`Protocol::read_report`); nothing for a
/// profile the registry does not know.
pub fn read_report(report: &serde_json::Value) -> crate::evidence::input::ReportReading {
    report["run"]["profile"]
        .as_str()
        .and_then(protocol)
        .map(|p| p.read_report(report))
        .unwrap_or_default()
}

/// The checks scenario files get: every protocol's vocabulary and its case checks.
pub fn check_options(allow_external_probe_urls: bool) -> crate::scenario::checks::CheckOptions {
    crate::scenario::checks::CheckOptions {
        context_roots: context_vocabulary(),
        allow_external_probe_urls,
        lint_case: Some(lint_case),
    }
}

/// What the protocol of a file (`profile:`) finds foreign in one of its cases. An
/// unknown profile is the scenario schema's to report.
fn lint_case(
    profile: &str,
    case: &crate::scenario::model::CaseSpec,
    raw: &serde_json::Value,
    base: &str,
) -> Vec<crate::scenario::checks::Finding> {
    let Some(own) = protocol(profile) else {
        return Vec::new();
    };
    protocol::lint_file_case(own, protocols(), case, raw, base)
}

/// Every protocol's lint vocabulary, plus the roots every run has.
pub fn context_vocabulary() -> Vec<(String, Option<Vec<String>>)> {
    protocol::context_vocabulary(protocols())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_profile_has_a_reference_and_a_serve_form() {
        let names = profile_names();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        let forms: Vec<&str> = serve_forms().iter().map(|(f, _)| f.profile).collect();
        for name in names {
            assert!(reference_of(name).is_some(), "{name}");
            assert!(forms.contains(&name), "{name} has no serve-reference form");
        }
    }

    #[test]
    fn the_scenario_schema_lists_exactly_the_registered_profiles() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../schemas/scenario.schema.json")).unwrap();
        let listed: Vec<&str> = schema["properties"]["profile"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(
            listed,
            profile_names(),
            "schemas/scenario.schema.json's `profile` enum must list the registry's profiles, in order"
        );
    }
}

#[cfg(test)]
#[path = "registry_docs_tests.rs"]
mod docs_tests;
