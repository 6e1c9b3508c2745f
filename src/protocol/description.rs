//! What a protocol says about itself, so that nothing outside its folder has to know:
//! its name and summary (`--help`, errors, the docs' tables), how its target is given
//! and checked, its token variable, whether `--offline` applies, what a listing
//! without a target can plan on, what `--media-ref` names, and its own options.

use super::options::OptionSpec;

/// A protocol's description of itself ([`super::Protocol::description`]).
#[derive(Debug)]
pub struct Description {
    /// What `profile:` and `--profile` say.
    pub name: &'static str,
    /// One line: what it tests (`--profile`'s help, the docs' profile tables).
    pub summary: &'static str,
    /// How its target is given.
    pub target: TargetKind,
    /// The variable the token is read from without `--token-env`; `None`: the default
    /// profile's.
    pub token_env: Option<&'static str>,
    /// Its offline cases (schema checks) run with `--offline`, without a target.
    pub offline: bool,
    /// What a listing without a target can plan on.
    pub planned_on: PlannedOn,
    /// What `--media-ref MODALITY=REF` may name (a modality, or a part kind).
    pub media_ref_kinds: &'static [&'static str],
    /// Its own options (`--openwop-major`, `--model`, ...); the CLI builds their flags
    /// and reads their project-file keys from these.
    pub options: &'static [&'static OptionSpec],
    /// The facts its runs add under `run.` (`ProtocolRun::run_facts`), for `lint`.
    pub run_facts: &'static [&'static str],
}

/// How a protocol's target is given.
#[derive(Debug)]
pub enum TargetKind {
    /// A URL: `--target`, or the variable `env` when it is absent.
    Url(UrlTarget),
    /// A program (`--target-cmd 'CMD ARGS'`), started by the run; `program` says what
    /// it is (`a bridge`, `an ACP agent`).
    Command { program: &'static str },
}

/// A target given as a URL.
#[derive(Debug)]
pub struct UrlTarget {
    /// The variable naming the target when `--target` is absent.
    pub env: &'static str,
    /// What the URL is, for the message when none is given (`the agent's run endpoint`).
    pub what: Option<&'static str>,
    /// The path mmconform appends to the base itself (`/.well-known/openwop`): a target
    /// already ending with it is refused, naming the base to give instead.
    pub appended_path: Option<&'static str>,
    /// The URL is the endpoint itself, sent as given (so it may carry a query); else it
    /// is a base paths are appended to.
    pub as_given: bool,
}

/// What a run plans on, for `list` without a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlannedOn {
    /// What the target says (discovery, `describe`, `initialize`): nothing without it.
    Target,
    /// A declaration (`--accepts`, `--claims`): nothing without one.
    Declaration,
    /// A declaration, none declaring a text-only model: a listing always has one.
    DeclarationOrTextOnly,
}

impl Description {
    /// The target variable, for a URL target.
    pub fn target_env(&self) -> Option<&'static str> {
        match &self.target {
            TargetKind::Url(url) => Some(url.env),
            TargetKind::Command { .. } => None,
        }
    }
}
