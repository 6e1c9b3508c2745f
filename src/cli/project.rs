//! `mmconform.toml`: the options a CI job repeats (target, profile, filters, baseline,
//! reports, strict, require, timeout, concurrency, and what each profile needs: accepts,
//! claims, token_env, mask_env, deadline, witness, and the keys the protocols declare
//! for their own options, such as `model`), read by `run` and `list` from the
//! current directory or `--config FILE`. The command line (and an environment variable
//! clap reads) wins over the file; a relative path in the file is relative to the file.
//! An unknown key or a bad value is exit 2 at `file:line:col`, before anything is sent,
//! in the user's words: numbers and addresses are read here, not by serde, so a wrong
//! value says "expected a number of seconds", never `expected f64`.

use super::CliError;
use super::args::{ListArgs, RunArgs, TargetArgs};
use super::project_declared::{ProgramSection, take_program_section, take_protocol_keys};
use crate::plan::filter::Filter;
use crate::protocol::options::OptionSpec;
use crate::scenario::diagnostic::Diagnostic;
use crate::scenario::position::{Position, position_at};
use clap::parser::{ArgMatches, ValueSource};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The file `run` and `list` read when `--config` is not given.
pub const DEFAULT_FILE: &str = "mmconform.toml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    target: Option<Spanned<String>>,
    profile: Option<Spanned<String>>,
    filters: Option<Vec<Spanned<String>>>,
    baseline: Option<PathBuf>,
    junit: Option<PathBuf>,
    report: Option<PathBuf>,
    strict: Option<bool>,
    require: Option<bool>,
    /// As `--waive`, repeated.
    waive: Option<Vec<Spanned<String>>>,
    timeout: Option<Spanned<toml::Value>>,
    concurrency: Option<Spanned<toml::Value>>,
    accepts: Option<Spanned<toml::Value>>,
    claims: Option<PathBuf>,
    token_env: Option<Spanned<String>>,
    /// As `--mask-env`, repeated; added to the command line's (masking more is never wrong).
    mask_env: Option<Vec<Spanned<String>>>,
    deadline: Option<Spanned<toml::Value>>,
    witness: Option<Spanned<String>>,
}

/// A project file read and checked.
struct Project {
    name: String,
    text: String,
    dir: PathBuf,
    file: ProjectFile,
    /// The keys the protocols declare for their options (`model`), with their values.
    protocol_keys: Vec<(&'static OptionSpec, String)>,
    /// A program protocol's table, and its name.
    program: Option<(&'static str, ProgramSection)>,
}

impl Project {
    fn problem(&self, span: std::ops::Range<usize>, message: String) -> CliError {
        let position = position_at(&self.text, span.start);
        CliError::Scenarios(vec![Diagnostic::new(
            &self.name, &self.text, position, message,
        )])
    }

    /// A problem whose line must not be shown: it may hold a secret.
    fn secret_problem(&self, span: std::ops::Range<usize>, message: String) -> CliError {
        let position = position_at(&self.text, span.start);
        let mut diagnostic = Diagnostic::new(&self.name, &self.text, position, message);
        diagnostic.source_line = None;
        CliError::Scenarios(vec![diagnostic])
    }

    fn path(&self, path: &Path) -> PathBuf {
        self.dir.join(path)
    }
}

/// Reads `--config FILE`, or `mmconform.toml` when it exists. `None` when there is none.
fn load(explicit: Option<&Path>) -> Result<Option<Project>, CliError> {
    let path = match explicit {
        Some(path) => path.to_path_buf(),
        None if Path::new(DEFAULT_FILE).is_file() => PathBuf::from(DEFAULT_FILE),
        None => return Ok(None),
    };
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError::Usage(format!("--config {name}: {e}")))?;
    let syntax = |e: toml::de::Error| {
        let position = e
            .span()
            .map_or(Position::START, |span| position_at(&text, span.start));
        CliError::Scenarios(vec![Diagnostic::new(&name, &text, position, e.message())])
    };
    let root = toml::de::DeTable::parse(&text).map_err(syntax)?;
    let span = root.span();
    let mut table = root.into_inner();
    let protocol_keys = take_protocol_keys(&mut table)
        .map_err(|(at, message)| problem(&name, &text, at, message))?;
    let program = take_program_section(&mut table).map_err(syntax)?;
    let file = ProjectFile::deserialize(toml::de::Deserializer::from(Spanned::new(span, table)))
        .map_err(syntax)?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    super::out::error_line(format_args!(
        "note: options from {name} (the command line wins)"
    ));
    Ok(Some(Project {
        name,
        text,
        dir,
        file,
        protocol_keys,
        program,
    }))
}

fn problem(name: &str, text: &str, at: usize, message: String) -> CliError {
    let position = position_at(text, at);
    CliError::Scenarios(vec![Diagnostic::new(name, text, position, message)])
}

/// Whether the environment names the target for `profile` (a blank value does not).
fn target_env_set(profile: &str) -> bool {
    crate::registry::protocol(profile).is_some_and(|protocol| {
        std::env::var(super::resolve::target_variable(protocol)).is_ok_and(|v| !v.trim().is_empty())
    })
}

/// Whether `id` was given on the command line or by its environment variable.
fn given(matches: &ArgMatches, id: &str) -> bool {
    matches!(
        matches.value_source(id),
        Some(ValueSource::CommandLine | ValueSource::EnvVariable)
    )
}

/// `run`: the file's values for every option the command line left out.
pub fn apply_run(args: &mut RunArgs, matches: &ArgMatches) -> Result<(), CliError> {
    let Some(project) = load(args.target.config.as_deref())? else {
        return Ok(());
    };
    apply_target(&project, &mut args.target, matches)?;
    let file = &project.file;
    for (id, value, slot) in [
        ("junit", &file.junit, &mut args.junit),
        ("report", &file.report, &mut args.report),
        ("baseline", &file.baseline, &mut args.baseline),
    ] {
        if let Some(path) = value
            && !given(matches, id)
        {
            *slot = Some(project.path(path));
        }
    }
    for (id, value, slot) in [
        ("strict", file.strict, &mut args.strict),
        ("require", file.require, &mut args.require),
    ] {
        if let Some(value) = value
            && !given(matches, id)
        {
            *slot = value;
        }
    }
    if let Some(n) = concurrency(&project)?
        && !given(matches, "concurrency")
    {
        args.concurrency = n;
    }
    if let Some(secs) = seconds(&project, &file.deadline, 86_400.0)?
        && !given(matches, "deadline")
    {
        args.deadline = Some(secs);
    }
    if let Some(addr) = witness(&project)?
        && !given(matches, "witness")
    {
        args.witness = Some(addr);
    }
    if let Some(waive) = &file.waive
        && !given(matches, "waive")
    {
        for case in waive {
            Filter::parse(case.get_ref()).map_err(|e| project.problem(case.span(), e))?;
        }
        args.waive = waive.iter().map(|w| w.get_ref().clone()).collect();
    }
    Ok(())
}

/// `witness = "127.0.0.1:0"`: the address `--witness` takes.
fn witness(project: &Project) -> Result<Option<std::net::SocketAddr>, CliError> {
    let Some(addr) = &project.file.witness else {
        return Ok(None);
    };
    addr.get_ref().trim().parse().map(Some).map_err(|_| {
        let message = format!(
            "witness `{}`: expected an address and port such as \"127.0.0.1:0\"",
            addr.get_ref()
        );
        project.problem(addr.span(), message)
    })
}

/// A number of seconds in `(0, max]`, an integer or a decimal.
fn seconds(
    project: &Project,
    value: &Option<Spanned<toml::Value>>,
    max: f64,
) -> Result<Option<f64>, CliError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let secs = match value.get_ref() {
        toml::Value::Integer(n) => *n as f64,
        toml::Value::Float(x) => *x,
        other => {
            let message = format!(
                "expected a number of seconds (such as 30 or 2.5), not {}",
                described(other)
            );
            return Err(project.problem(value.span(), message));
        }
    };
    if !(secs.is_finite() && secs > 0.0 && secs <= max) {
        let message = format!("expected a number of seconds between 0 and {max}");
        return Err(project.problem(value.span(), message));
    }
    Ok(Some(secs))
}

/// A TOML value as a user would name it.
fn described(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("the text \"{s}\" (write the number without quotes)"),
        toml::Value::Boolean(b) => format!("{b}"),
        toml::Value::Array(_) => "a list".into(),
        toml::Value::Table(_) => "a table".into(),
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::Float(x) => x.to_string(),
        toml::Value::Datetime(_) => "a date".into(),
    }
}

/// `list`: target, profile, filters and timeout (the rest is checked, not used).
pub fn apply_list(args: &mut ListArgs, matches: &ArgMatches) -> Result<(), CliError> {
    let Some(project) = load(args.target.config.as_deref())? else {
        return Ok(());
    };
    concurrency(&project)?;
    seconds(&project, &project.file.deadline, 86_400.0)?;
    witness(&project)?;
    apply_target(&project, &mut args.target, matches)
}

/// The file's `concurrency`, in the range `-j` takes.
fn concurrency(project: &Project) -> Result<Option<u16>, CliError> {
    let Some(n) = &project.file.concurrency else {
        return Ok(None);
    };
    let whole = match n.get_ref() {
        toml::Value::Integer(n) => Some(*n),
        _ => None,
    };
    whole
        .and_then(|n| u16::try_from(n).ok())
        .filter(|n| (1..=256).contains(n))
        .map(Some)
        .ok_or_else(|| {
            let message = format!(
                "concurrency must be a whole number between 1 and 256, not {}",
                described(n.get_ref())
            );
            project.problem(n.span(), message)
        })
}

fn apply_target(
    project: &Project,
    args: &mut TargetArgs,
    matches: &ArgMatches,
) -> Result<(), CliError> {
    let file = &project.file;
    if let Some(profile) = &file.profile
        && !given(matches, "profile")
    {
        let name = profile.get_ref().trim();
        let known = crate::registry::protocols()
            .find(|p| p.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names = crate::registry::profile_names();
                let message = format!(
                    "unknown profile `{}` (use {}){}",
                    profile.get_ref(),
                    names.join(", "),
                    crate::suggest::hint(profile.get_ref(), names.iter().copied())
                );
                project.problem(profile.span(), message)
            })?;
        args.profile = known.name().to_string();
    }
    if let Some((name, section)) = &project.program {
        apply_program(project, name, section, args, matches)?;
    }
    if let Some(target) = &file.target
        && !given(matches, "target")
    {
        let value = target.get_ref().trim();
        let url = url::Url::parse(value);
        if value != "reference" && !url.is_ok_and(|u| matches!(u.scheme(), "http" | "https")) {
            let message = format!("target `{value}` is neither `reference` nor an http(s) URL");
            return Err(project.problem(target.span(), message));
        }
        // The profile's target variable (OPENWOP_BASE_URL, ...) beats the file, as
        // every other environment variable does: resolution reads it when this is unset.
        if !target_env_set(&args.profile) {
            args.target = Some(value.to_string());
        }
    }
    if let Some(filters) = &file.filters
        && !given(matches, "filters")
    {
        for filter in filters {
            Filter::parse(filter.get_ref()).map_err(|e| project.problem(filter.span(), e))?;
        }
        args.filters = filters.iter().map(|f| f.get_ref().clone()).collect();
    }
    if let Some(secs) = seconds(project, &file.timeout, 3600.0)?
        && !given(matches, "timeout")
    {
        args.timeout = secs;
    }
    for name in file.mask_env.iter().flatten() {
        let name = name.get_ref().trim();
        if !name.is_empty() && !args.mask_env.iter().any(|n| n == name) {
            args.mask_env.push(name.to_string());
        }
    }
    apply_declaration(project, args, matches)
}

/// What the profiles without discovery need said (agui, openai), and the token variable.
fn apply_declaration(
    project: &Project,
    args: &mut TargetArgs,
    matches: &ArgMatches,
) -> Result<(), CliError> {
    let file = &project.file;
    if let (Some(accepts), Some(_)) = (&file.accepts, &file.claims) {
        let message = "give `accepts` or `claims`, not both".to_string();
        return Err(project.problem(accepts.span(), message));
    }
    // --accepts and --claims say the same thing: either on the command line wins over both keys.
    let declared_on_command_line = given(matches, "accepts") || given(matches, "claims");
    if let Some(accepts) = &file.accepts
        && !declared_on_command_line
    {
        args.accepts = mime_list(project, accepts)?;
    }
    if let Some(claims) = &file.claims
        && !declared_on_command_line
    {
        args.claims = Some(project.path(claims));
    }
    for (spec, value) in &project.protocol_keys {
        // Only a flag has a command-line value to win over the file.
        if !(spec.flag && given(matches, spec.name)) {
            args.protocol.set_from_file(spec.name, value.clone());
        }
    }
    if let Some(var) = &file.token_env
        && !given(matches, "token_env")
    {
        let name = var.get_ref().trim();
        if super::resolve::check_token_env_name(name).is_err() {
            // Never echo it: a token pasted where its variable's name belongs is a secret.
            let message =
                "token_env names an environment variable (such as \"HOST_TOKEN\"), not the token itself (the line is not shown)".to_string();
            return Err(project.secret_problem(var.span(), message));
        }
        args.token_env = Some(name.to_string());
    }
    Ok(())
}

/// A program's table: the command, checked to split as a shell would, and its working
/// directory; the command line's `--target-cmd`/`--target-cwd` win.
fn apply_program(
    project: &Project,
    name: &str,
    section: &ProgramSection,
    args: &mut TargetArgs,
    matches: &ArgMatches,
) -> Result<(), CliError> {
    if given(matches, "target_cmd") || given(matches, "target") {
        return Ok(());
    }
    let command = section.command.get_ref();
    crate::process::Command::parse(command, None)
        .map_err(|e| project.problem(section.command.span(), format!("{name}.command: {e}")))?;
    args.target_cmd = Some(command.clone());
    if let Some(cwd) = &section.cwd
        && !given(matches, "target_cwd")
    {
        args.target_cwd = Some(project.path(cwd));
    }
    Ok(())
}

/// `accepts = ["image/", "application/pdf"]` or `accepts = "image/,application/pdf"`.
fn mime_list(project: &Project, value: &Spanned<toml::Value>) -> Result<Vec<String>, CliError> {
    let split = |s: &str| -> Vec<String> {
        s.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    match value.get_ref() {
        toml::Value::String(s) => Ok(split(s)),
        toml::Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().map(split))
            .collect::<Option<Vec<_>>>()
            .map(|lists| lists.concat())
            .ok_or_else(|| {
                let message = "accepts: expected a list of MIME types or prefixes, such as [\"image/\", \"application/pdf\"]".to_string();
                project.problem(value.span(), message)
            }),
        other => {
            let message = format!(
                "accepts: expected a list of MIME types or prefixes, such as [\"image/\", \"application/pdf\"], not {}",
                described(other)
            );
            Err(project.problem(value.span(), message))
        }
    }
}
