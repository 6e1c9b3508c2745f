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
    /// What `--accepts` and `--claims` may say for it.
    pub declaration: UserDeclaration,
    /// A `run` example for `run --help` (the arguments after `mmconform run`), when its
    /// profile needs more than a target to show.
    pub example: Option<&'static str>,
    /// What `--media-ref MODALITY=REF` may name (a modality, or a part kind).
    pub media_ref_kinds: &'static [&'static str],
    /// Its own options (`--openwop-major`, `--model`, ...); the CLI builds their flags
    /// and reads their project-file keys from these.
    pub options: &'static [&'static OptionSpec],
    /// The facts its runs add under `run.` (`ProtocolRun::run_facts`), for `lint`.
    pub run_facts: &'static [&'static str],
    /// The keys of `expect:` it reads that not every protocol does (`stream`, `usage`):
    /// `lint` refuses them in the file of a protocol that does not list them.
    pub expect_keys: &'static [&'static ExpectKey],
}

/// A key of `expect:` only some protocols read.
#[derive(Debug)]
pub struct ExpectKey {
    pub key: &'static str,
    /// What it judges, for the message in another protocol's file (`judges an ACP
    /// agent's answers`).
    pub about: &'static str,
    /// Whether a value is one the protocol reads (the schema checks its shape first;
    /// an `Err` is reported where the value stands).
    pub check: fn(&serde_json::Value) -> Result<(), String>,
}

/// Reads `value` as `T`, for [`ExpectKey::check`].
pub fn reads_as<T: serde::de::DeserializeOwned>(value: &serde_json::Value) -> Result<(), String> {
    serde_json::from_value::<T>(value.clone())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `expect.stream`, which the protocols whose answers are streams of events share.
pub static STREAM: ExpectKey = ExpectKey {
    key: "stream",
    about: "judges the answer's bucket and its event stream",
    check: reads_as::<crate::scenario::model::StreamExpectation>,
};

/// How a protocol's target is given.
#[derive(Debug)]
pub enum TargetKind {
    /// A URL: `--target`, or the variable `env` when it is absent.
    Url(UrlTarget),
    /// A program (`--target-cmd 'CMD ARGS'`), started by the run; `program` says what
    /// it is (`a bridge`, `an ACP agent`); `project_section` names the project-file
    /// table (`command`, `cwd`) that gives `--target-cmd` and `--target-cwd`.
    Command {
        program: &'static str,
        project_section: Option<&'static str>,
    },
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

/// What the user may declare of a target (`--accepts`, `--claims`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserDeclaration {
    /// Either: the target has no discovery, the declaration plans the run.
    AcceptsOrClaims,
    /// `--accepts` overrides what the target declares of itself, which `own` says
    /// where it reads (`the runtime's describe`); no claim file.
    AcceptsOnly { own: &'static str },
    /// Neither: the target declares itself, where `own` says.
    None { own: &'static str },
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
