//! Reading one scenario file: parse (YAML or JSON), validate against
//! `schemas/scenario.schema.json`, deserialise, then run the semantic checks. Every
//! problem becomes a [`Diagnostic`] with file:line:col; all of a file's problems are
//! reported at once.

use super::builtin;
use super::checks::{self, CheckOptions};
use super::diagnostic::Diagnostic;
use super::model::ScenarioFile;
use super::position::{
    Position, PositionIndex, escape_token, offset_of_newline_position, position_at,
};
use crate::digest::sha256_hex;
use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde_json::Value;
use std::sync::OnceLock;

/// Larger files are refused before parsing: a scenario file is prose-sized.
pub const MAX_SCENARIO_BYTES: usize = 2 * 1024 * 1024;

/// A scenario file's text and the name to show for it.
#[derive(Debug, Clone)]
pub struct SourceText {
    pub name: String,
    pub text: String,
}

/// A file that passed every check.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    pub name: String,
    pub sha256: String,
    pub file: ScenarioFile,
}

fn scenario_validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let text = builtin::schema("scenario").expect("scenario.schema.json is embedded");
        let schema: Value = serde_json::from_str(text).expect("scenario.schema.json is JSON");
        jsonschema::options()
            .build(&schema)
            .expect("scenario.schema.json compiles")
    })
}

fn is_json_name(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".json")
}

/// Parses the text into a JSON value, or a diagnostic at the syntax error.
fn parse(source: &SourceText) -> Result<Value, Diagnostic> {
    let at = |line: usize, col: usize, msg: String| {
        Diagnostic::new(
            &source.name,
            &source.text,
            Position {
                line: line.max(1),
                col: col.max(1),
            },
            msg,
        )
    };
    if is_json_name(&source.name) {
        return serde_json::from_str(&source.text).map_err(|e| {
            // serde_json counts only `\n` as a line end and columns in bytes; map its
            // position the way every other diagnostic counts.
            let offset = offset_of_newline_position(&source.text, e.line(), e.column());
            let p = position_at(&source.text, offset);
            at(p.line, p.col, format!("invalid JSON: {e}"))
        });
    }
    let options = serde_saphyr::options! { strict_booleans: true, with_snippet: false };
    serde_saphyr::from_str_with_options::<Value>(&source.text, options).map_err(|e| {
        let (line, col) = e
            .location()
            .map(|l| (l.line() as usize, l.column() as usize))
            .unwrap_or((1, 1));
        let message = e.to_string();
        let message = message.lines().next().unwrap_or("invalid YAML").to_string();
        at(line, col, format!("invalid YAML: {message}"))
    })
}

/// Human text for a pointer: `/cases/0/requirement/level` -> `cases[0].requirement.level`.
pub fn readable_path(pointer: &str) -> String {
    let mut out = String::new();
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        if token.parse::<usize>().is_ok() {
            out.push_str(&format!("[{token}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        }
    }
    if out.is_empty() {
        "(top level)".to_string()
    } else {
        out
    }
}

/// For `oneOf`/`anyOf` failures the top error says little. The branch that got furthest
/// (deepest instance path), or failing that the one with uniquely fewest errors, usually
/// names the real mistake ("unknown key `x`" rather than "not valid under any schema").
fn most_specific<'a>(error: &'a ValidationError<'static>) -> Vec<&'a ValidationError<'static>> {
    let context = match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            context
        }
        _ => return vec![error],
    };
    let depth = |errors: &Vec<ValidationError<'static>>| {
        errors
            .iter()
            .map(|e| e.instance_path().as_str().len())
            .max()
            .unwrap_or(0)
    };
    let mut branches: Vec<&Vec<ValidationError<'static>>> =
        context.iter().filter(|b| !b.is_empty()).collect();
    branches.sort_by_key(|b| (std::cmp::Reverse(depth(b)), b.len()));
    let own_depth = error.instance_path().as_str().len();
    let rank = |b: &Vec<ValidationError<'static>>| (depth(b), std::cmp::Reverse(b.len()));
    match branches.as_slice() {
        [best] if depth(best) > own_depth => best.iter().flat_map(most_specific).collect(),
        [best, second, ..] if depth(best) > own_depth || rank(best) > rank(second) => {
            best.iter().flat_map(most_specific).collect()
        }
        _ => vec![error],
    }
}

/// A file's position index, built the first time a diagnostic needs a position: a
/// file without problems (every built-in one) is never walked a second time.
pub struct LazyIndex<'a> {
    text: &'a str,
    built: std::cell::OnceCell<PositionIndex>,
}

impl<'a> LazyIndex<'a> {
    pub fn new(text: &'a str) -> LazyIndex<'a> {
        LazyIndex {
            text,
            built: std::cell::OnceCell::new(),
        }
    }

    fn index(&self) -> &PositionIndex {
        self.built.get_or_init(|| PositionIndex::build(self.text))
    }

    /// [`PositionIndex::node`].
    pub fn node(&self, pointer: &str) -> Position {
        self.index().node(pointer)
    }

    /// [`PositionIndex::key`].
    pub fn key(&self, pointer: &str) -> Position {
        self.index().key(pointer)
    }
}

fn schema_diagnostics(
    source: &SourceText,
    value: &Value,
    index: &LazyIndex,
    validator: &Validator,
) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for error in validator.iter_errors(value) {
        let error = error.to_owned();
        for e in most_specific(&error) {
            let pointer = e.instance_path().as_str().to_string();
            let (position, message) = match e.kind() {
                ValidationErrorKind::AdditionalProperties { unexpected } => {
                    let key = unexpected.first().cloned().unwrap_or_default();
                    let key_pointer = format!("{pointer}/{}", escape_token(&key));
                    (
                        index.key(&key_pointer),
                        format!(
                            "unknown key `{}` in {}",
                            unexpected.join("`, `"),
                            readable_path(&pointer)
                        ),
                    )
                }
                ValidationErrorKind::Required { property } => (
                    index.node(&pointer),
                    format!(
                        "missing required key {property} in {}",
                        readable_path(&pointer)
                    ),
                ),
                _ => (
                    index.node(&pointer),
                    format!("{}: {}", readable_path(&pointer), e.masked()),
                ),
            };
            let diagnostic = Diagnostic::new(&source.name, &source.text, position, message);
            if !out.contains(&diagnostic) {
                out.push(diagnostic);
            }
        }
    }
    out
}

fn file_diagnostic(source: &SourceText, message: String) -> Vec<Diagnostic> {
    vec![Diagnostic::new(
        &source.name,
        &source.text,
        Position::START,
        message,
    )]
}

/// Parses a YAML or JSON file no larger than `max_bytes` and validates it against
/// `validator`. `Err` holds every problem, in file order, each at its file:line:col.
/// Shared by scenario and baseline files.
/// `kind` names the files in messages (`scenario`, `baseline`).
pub fn parse_validated<'a>(
    source: &'a SourceText,
    validator: &Validator,
    kind: &str,
    max_bytes: usize,
) -> Result<(Value, LazyIndex<'a>), Vec<Diagnostic>> {
    if source.text.len() > max_bytes {
        return Err(file_diagnostic(
            source,
            format!(
                "file is {} bytes; {kind} files are limited to {max_bytes} bytes",
                source.text.len()
            ),
        ));
    }
    let value = parse(source).map_err(|d| vec![d])?;
    let index = LazyIndex::new(&source.text);
    if validator.is_valid(&value) {
        return Ok((value, index));
    }
    let mut problems = schema_diagnostics(source, &value, &index, validator);
    if !problems.is_empty() {
        problems.sort_by_key(|d| d.position);
        return Err(problems);
    }
    Ok((value, index))
}

/// Loads one file. `Err` holds every problem found, in file order.
pub fn load(source: &SourceText, options: &CheckOptions) -> Result<LoadedFile, Vec<Diagnostic>> {
    let file_diag = |message: String| file_diagnostic(source, message);
    let (value, index) =
        parse_validated(source, scenario_validator(), "scenario", MAX_SCENARIO_BYTES)?;
    let file = <ScenarioFile as serde::Deserialize>::deserialize(&value)
        .map_err(|e| file_diag(format!("does not match the scenario model: {e}")))?;
    let mut problems = checks::check(&file, &value, options)
        .into_iter()
        .map(|(pointer, key, message)| {
            let position = if key {
                index.key(&pointer)
            } else {
                index.node(&pointer)
            };
            Diagnostic::new(&source.name, &source.text, position, message)
        })
        .collect::<Vec<_>>();
    if !problems.is_empty() {
        problems.sort_by_key(|d| d.position);
        return Err(problems);
    }
    Ok(LoadedFile {
        name: source.name.clone(),
        sha256: sha256_hex(source.text.as_bytes()),
        file,
    })
}
