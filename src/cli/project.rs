//! `mmconform.toml`: the options a CI job repeats (target, profile, filters, baseline,
//! reports, strict, require, timeout, concurrency), read by `run` and `list` from the
//! current directory or `--config FILE`. The command line (and an environment variable
//! clap reads) wins over the file; a relative path in the file is relative to the file.
//! An unknown key or a bad value is exit 2 at `file:line:col`, before anything is sent.

use super::CliError;
use super::args::{ListArgs, ProfileArg, RunArgs, TargetArgs};
use crate::plan::filter::FilterTerm;
use crate::scenario::diagnostic::Diagnostic;
use crate::scenario::position::{Position, position_at};
use clap::ValueEnum;
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
    timeout: Option<Spanned<f64>>,
    concurrency: Option<Spanned<i64>>,
    agentruntime: Option<AgentruntimeSection>,
}

/// `[agentruntime]`: the bridge `--target-cmd` and `--target-cwd` name (a relative
/// `cwd` is relative to the file).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentruntimeSection {
    command: Spanned<String>,
    cwd: Option<PathBuf>,
}

/// A project file read and checked.
struct Project {
    name: String,
    text: String,
    dir: PathBuf,
    file: ProjectFile,
}

impl Project {
    fn problem(&self, span: std::ops::Range<usize>, message: String) -> CliError {
        let position = position_at(&self.text, span.start);
        CliError::Scenarios(vec![Diagnostic::new(
            &self.name, &self.text, position, message,
        )])
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
    let file: ProjectFile = toml::from_str(&text).map_err(|e| {
        let position = e
            .span()
            .map_or(Position::START, |span| position_at(&text, span.start));
        CliError::Scenarios(vec![Diagnostic::new(&name, &text, position, e.message())])
    })?;
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
    }))
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
    Ok(())
}

/// `list`: target, profile, filters and timeout (the rest is checked, not used).
pub fn apply_list(args: &mut ListArgs, matches: &ArgMatches) -> Result<(), CliError> {
    let Some(project) = load(args.target.config.as_deref())? else {
        return Ok(());
    };
    concurrency(&project)?;
    apply_target(&project, &mut args.target, matches)
}

/// The file's `concurrency`, in the range `-j` takes.
fn concurrency(project: &Project) -> Result<Option<u16>, CliError> {
    let Some(n) = &project.file.concurrency else {
        return Ok(None);
    };
    u16::try_from(*n.get_ref())
        .ok()
        .filter(|n| (1..=256).contains(n))
        .map(Some)
        .ok_or_else(|| project.problem(n.span(), "concurrency must be between 1 and 256".into()))
}

fn apply_target(
    project: &Project,
    args: &mut TargetArgs,
    matches: &ArgMatches,
) -> Result<(), CliError> {
    let file = &project.file;
    if let Some(target) = &file.target
        && !given(matches, "target")
    {
        let value = target.get_ref().trim();
        let url = url::Url::parse(value);
        if value != "reference" && !url.is_ok_and(|u| matches!(u.scheme(), "http" | "https")) {
            let message = format!("target `{value}` is neither `reference` nor an http(s) URL");
            return Err(project.problem(target.span(), message));
        }
        args.target = Some(value.to_string());
    }
    if let Some(profile) = &file.profile
        && !given(matches, "profile")
    {
        args.profile = ProfileArg::from_str(profile.get_ref(), true).map_err(|_| {
            let names = [
                "openwop",
                "agui",
                "openai",
                "openai-responses",
                "agentruntime",
            ];
            let message = format!(
                "unknown profile `{}` (use {}){}",
                profile.get_ref(),
                names.join(", "),
                crate::suggest::hint(profile.get_ref(), names)
            );
            project.problem(profile.span(), message)
        })?;
    }
    if let Some(section) = &file.agentruntime {
        apply_agentruntime(project, section, args, matches)?;
    }
    if let Some(filters) = &file.filters
        && !given(matches, "filters")
    {
        for filter in filters {
            FilterTerm::parse(filter.get_ref()).map_err(|e| project.problem(filter.span(), e))?;
        }
        args.filters = filters.iter().map(|f| f.get_ref().clone()).collect();
    }
    if let Some(timeout) = &file.timeout
        && !given(matches, "timeout")
    {
        let secs = *timeout.get_ref();
        if !(secs.is_finite() && secs > 0.0 && secs <= 3600.0) {
            let message = "timeout must be between 0 and 3600 seconds".to_string();
            return Err(project.problem(timeout.span(), message));
        }
        args.timeout = secs;
    }
    Ok(())
}

/// `[agentruntime]`: the bridge command, checked to split as a shell would, and its
/// working directory; the command line's `--target-cmd`/`--target-cwd` win.
fn apply_agentruntime(
    project: &Project,
    section: &AgentruntimeSection,
    args: &mut TargetArgs,
    matches: &ArgMatches,
) -> Result<(), CliError> {
    if given(matches, "target_cmd") || given(matches, "target") {
        return Ok(());
    }
    let command = section.command.get_ref();
    crate::process::Command::parse(command, None).map_err(|e| {
        project.problem(section.command.span(), format!("agentruntime.command: {e}"))
    })?;
    args.target_cmd = Some(command.clone());
    if let Some(cwd) = &section.cwd
        && !given(matches, "target_cwd")
    {
        args.target_cwd = Some(project.path(cwd));
    }
    Ok(())
}
