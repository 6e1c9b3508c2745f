//! The set of scenario files a run uses: the built-in files plus any the user adds with
//! `--scenarios`. A user case whose id equals a built-in case's id replaces it.

use super::builtin::BUILTIN_SCENARIOS;
use super::checks::CheckOptions;
use super::diagnostic::Diagnostic;
use super::load::{LoadedFile, SourceText, load};
use super::model::CaseSpec;
use super::position::Position;
use crate::digest::hex;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One case with the file facts it inherits.
#[derive(Debug, Clone)]
pub struct SuiteCase {
    /// Shared: a run copies the suite (per profile, per openwop major) but never its cases.
    pub spec: std::sync::Arc<CaseSpec>,
    pub file: String,
    pub profile: String,
    pub conformance_profile: Option<String>,
    /// The planning context this case is planned and judged in, when its protocol found
    /// a second one (openwop `--openwop-major auto`: `v2`, the v2 root); `None`: the
    /// run's own context. See `ProtocolRun::arrange`.
    pub variant: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Suite {
    pub cases: Vec<SuiteCase>,
    /// (file name, SHA-256) in load order.
    pub files: Vec<(String, String)>,
    /// SHA-256 over every loaded file's name and hash, in load order.
    pub set_sha256: String,
    /// Built-in case ids a user file replaced.
    pub replaced: Vec<String>,
    /// The cases [`Suite::for_profile`] left out, counted per profile (what a run that
    /// selected nothing tells its user to pass `--profile` for).
    pub left_out: Vec<(String, usize)>,
}

impl Suite {
    /// The cases of one profile (`profile:` of their file). A run plans only the cases
    /// its profile can send; the others are left out of its plan, its counts and its
    /// reports (the scenario-set hash still covers every file loaded).
    pub fn for_profile(&self, profile: &str) -> Suite {
        let mut left_out: Vec<(String, usize)> = Vec::new();
        for case in self.cases.iter().filter(|c| c.profile != profile) {
            match left_out.iter_mut().find(|(p, _)| *p == case.profile) {
                Some((_, n)) => *n += 1,
                None => left_out.push((case.profile.clone(), 1)),
            }
        }
        Suite {
            left_out,
            cases: self
                .cases
                .iter()
                .filter(|c| c.profile == profile)
                .cloned()
                .collect(),
            files: self.files.clone(),
            set_sha256: self.set_sha256.clone(),
            replaced: self.replaced.clone(),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct SuiteOptions {
    pub include_builtin: bool,
    /// Files or directories (searched recursively for .yaml, .yml, .json).
    pub paths: Vec<PathBuf>,
    pub checks: CheckOptions,
}

fn is_scenario_file(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("yaml" | "yml" | "json")
    )
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for entry in entries {
            if entry.is_dir() {
                collect(&entry, out)?;
            } else if is_scenario_file(&entry) {
                out.push(entry);
            }
        }
        Ok(())
    } else {
        // Named explicitly: read it whatever its extension, so a typo is not silently skipped.
        std::fs::metadata(path)?;
        out.push(path.to_path_buf());
        Ok(())
    }
}

fn unreadable(path: &Path, e: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(
        &path.display().to_string(),
        "",
        Position::START,
        format!("cannot read scenario file: {e}"),
    )
}

/// Reads the user's files; directories are searched recursively.
pub fn read_sources(paths: &[PathBuf]) -> Result<Vec<SourceText>, Vec<Diagnostic>> {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        if let Err(e) = collect(path, &mut files) {
            problems.push(unreadable(path, e));
        }
    }
    let mut sources = Vec::new();
    for file in files {
        match std::fs::read(&file) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => sources.push(SourceText {
                    name: file.display().to_string(),
                    text,
                }),
                Err(e) => problems.push(unreadable(&file, format!("not UTF-8 ({e})"))),
            },
            Err(e) => problems.push(unreadable(&file, e)),
        }
    }
    if problems.is_empty() {
        Ok(sources)
    } else {
        Err(problems)
    }
}

pub fn builtin_sources() -> Vec<SourceText> {
    BUILTIN_SCENARIOS
        .iter()
        .map(|(name, text)| SourceText {
            name: format!("builtin:{name}"),
            text: text.to_string(),
        })
        .collect()
}

/// Loads every file and reports all problems from all files together.
pub fn load_sources(
    sources: &[SourceText],
    options: &CheckOptions,
) -> Result<Vec<LoadedFile>, Vec<Diagnostic>> {
    gather(sources.iter().map(|source| load(source, options)))
}

/// The files that loaded, or every problem of every file that did not.
pub fn gather(
    files: impl IntoIterator<Item = Result<LoadedFile, Vec<Diagnostic>>>,
) -> Result<Vec<LoadedFile>, Vec<Diagnostic>> {
    let mut loaded = Vec::new();
    let mut problems = Vec::new();
    for file in files {
        match file {
            Ok(file) => loaded.push(file),
            Err(mut d) => problems.append(&mut d),
        }
    }
    if problems.is_empty() {
        Ok(loaded)
    } else {
        Err(problems)
    }
}

pub fn load_suite(options: &SuiteOptions) -> Result<Suite, Vec<Diagnostic>> {
    let builtin = if options.include_builtin {
        super::builtin::load_files(&options.checks)?
    } else {
        Vec::new()
    };
    let user_sources = read_sources(&options.paths)?;
    let user = load_sources(&user_sources, &options.checks)?;

    let files: Vec<(String, String)> = builtin
        .iter()
        .chain(user.iter())
        .map(|f| (f.name.clone(), f.sha256.clone()))
        .collect();
    let mut cases: Vec<SuiteCase> = Vec::new();
    let mut origin: HashMap<String, (usize, bool)> = HashMap::new();
    let mut replaced = Vec::new();
    let mut problems = Vec::new();
    // The loaded files are consumed: each case moves into the suite, uncopied.
    for (file, is_user) in builtin
        .into_iter()
        .map(|f| (f, false))
        .chain(user.into_iter().map(|f| (f, true)))
    {
        let LoadedFile { name, file, .. } = file;
        for spec in file.cases {
            let case = SuiteCase {
                spec: spec.into(),
                file: name.clone(),
                profile: file.profile.clone(),
                conformance_profile: file.conformance_profile.clone(),
                variant: None,
            };
            let id = &case.spec.id;
            match origin.get(id).copied() {
                Some((at, false)) if is_user => {
                    replaced.push(id.clone());
                    origin.insert(id.clone(), (at, true));
                    cases[at] = case;
                }
                Some((at, _)) => {
                    let source = user_sources.iter().find(|s| s.name == name);
                    problems.push(Diagnostic::new(
                        &name,
                        source.map(|s| s.text.as_str()).unwrap_or(""),
                        source
                            .map(|s| find_id(&s.text, id))
                            .unwrap_or(Position::START),
                        format!("case id `{id}` is already defined in {}", cases[at].file),
                    ));
                }
                None => {
                    origin.insert(id.clone(), (cases.len(), is_user));
                    cases.push(case);
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Suite {
        cases,
        set_sha256: set_sha256(&files),
        files,
        replaced,
        left_out: Vec::new(),
    })
}

/// SHA-256 over every file's name and SHA-256, in load order: what reports carry as
/// `scenario_set_sha256`, and what `verify` recomputes.
pub fn set_sha256(files: &[(String, String)]) -> String {
    let mut hasher = Sha256::new();
    for (name, sha) in files {
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update(sha.as_bytes());
        hasher.update([0]);
    }
    hex(&hasher.finalize())
}

/// Where an id is written in a file (for cross-file duplicate diagnostics).
fn find_id(text: &str, id: &str) -> Position {
    for (n, line) in text.lines().enumerate() {
        if let Some(col) = line.find(id) {
            return Position {
                line: n + 1,
                col: col + 1,
            };
        }
    }
    Position::START
}
