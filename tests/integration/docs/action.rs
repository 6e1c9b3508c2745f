//! `action.yml`, the composite GitHub Action, checked for what would break it on a runner
//! (actionlint is a Go binary the registries do not carry, so the structure is checked
//! here): every input it reads is declared and every declared input read; each step is
//! either a `run` with a `shell` or a `uses` pinned to a version; the step outputs it
//! reads come from steps that exist before it; every variable a script reads is set;
//! and every `mmconform` option it passes is one `mmconform run` has.

use crate::common::bin;
use serde_json::Value;
use std::collections::BTreeSet;

fn action() -> Value {
    let text = super::read(&super::repository().join("action.yml"));
    serde_saphyr::from_str(&text).expect("action.yml is YAML")
}

/// Every `${{ ... }}` expression's text in `value`, and every `if:`, recursively.
fn expressions(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => {
            for part in s.split("${{").skip(1) {
                out.push(part.split("}}").next().unwrap_or("").trim().to_string());
            }
        }
        Value::Array(items) => items.iter().for_each(|v| expressions(v, out)),
        Value::Object(map) => {
            for (key, value) in map {
                // An `if:` is an expression without the `${{ }}` around it.
                match (key.as_str(), value) {
                    ("if", Value::String(condition)) if !condition.contains("${{") => {
                        out.push(condition.clone());
                    }
                    _ => expressions(value, out),
                }
            }
        }
        _ => {}
    }
}

/// The identifiers after `prefix` in `text` (`inputs.` -> `target`, `working-directory`).
fn names_after(text: &str, prefix: &str) -> Vec<String> {
    text.match_indices(prefix)
        .map(|(i, _)| {
            text[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
                .collect()
        })
        .collect()
}

/// Every `$NAME` / `${NAME}` an upper-case shell variable a script reads.
fn shell_variables(script: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (i, _) in script.match_indices('$') {
        let rest = script[i + 1..].trim_start_matches('{');
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        if !name.is_empty() {
            names.insert(name);
        }
    }
    names
}

#[test]
fn the_action_is_a_well_formed_composite_action() {
    let action = action();
    assert!(action["name"].is_string() && action["description"].is_string());
    assert_eq!(action["runs"]["using"], "composite");
    let inputs = action["inputs"].as_object().expect("inputs");
    for (name, input) in inputs {
        assert!(
            input["description"].is_string(),
            "input {name} has no description"
        );
        assert!(
            input["default"].is_string() || input["required"] == true,
            "input {name}: neither required nor defaulted"
        );
    }
    let steps = action["runs"]["steps"].as_array().expect("steps");
    let mut all = Vec::new();
    expressions(&action["runs"], &mut all);
    expressions(&action["outputs"], &mut all);
    let read: BTreeSet<String> = all.iter().flat_map(|e| names_after(e, "inputs.")).collect();
    let declared: BTreeSet<String> = inputs.keys().cloned().collect();
    assert_eq!(read, declared, "inputs read vs declared");

    let mut earlier_ids = BTreeSet::new();
    for (n, step) in steps.iter().enumerate() {
        let name = step["name"]
            .as_str()
            .unwrap_or_else(|| panic!("step {n} has no name"));
        let mut used = Vec::new();
        expressions(step, &mut used);
        for id in used.iter().flat_map(|e| names_after(e, "steps.")) {
            assert!(
                earlier_ids.contains(&id),
                "{name}: reads steps.{id} before it runs"
            );
        }
        match (step["run"].as_str(), step["uses"].as_str()) {
            (Some(script), None) => {
                assert_eq!(
                    step["shell"], "bash",
                    "{name}: a composite run step needs a shell"
                );
                // A step that runs one of the action's scripts reads that script's variables.
                let script = match called_script(script) {
                    Some(called) => format!("{script}\n{called}"),
                    None => script.to_string(),
                };
                let script = script.as_str();
                let env: BTreeSet<String> = step["env"]
                    .as_object()
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default();
                for var in shell_variables(script) {
                    let set_by_runner = var.starts_with("GITHUB_") || var.starts_with("RUNNER_");
                    assert!(
                        set_by_runner || env.contains(&var),
                        "{name}: ${var} is neither in the step's env nor set by the runner"
                    );
                }
            }
            (None, Some(uses)) => {
                let (_, version) = uses.split_once('@').unwrap_or_else(|| panic!("{uses}"));
                assert!(
                    version.starts_with('v') || version.len() == 40,
                    "{name}: {uses} is not pinned to a version"
                );
            }
            _ => panic!("{name}: a step is a `run` or a `uses`"),
        }
        if let Some(id) = step["id"].as_str() {
            earlier_ids.insert(id.to_string());
        }
    }
    let mut outputs = Vec::new();
    expressions(&action["outputs"], &mut outputs);
    for id in outputs.iter().flat_map(|e| names_after(e, "steps.")) {
        assert!(
            earlier_ids.contains(&id),
            "output reads a missing step {id}"
        );
    }
}

#[test]
fn every_option_the_action_passes_is_one_run_has() {
    let action = action();
    let help = bin().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let mut passed = BTreeSet::new();
    for step in action["runs"]["steps"].as_array().unwrap() {
        let Some(script) = step["run"].as_str() else {
            continue;
        };
        let script = called_script(script).unwrap_or_else(|| script.to_string());
        for line in script.lines().filter(|l| l.contains("args")) {
            passed.extend(
                line.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
                    .filter(|w| w.starts_with("--"))
                    .map(String::from),
            );
        }
    }
    assert!(passed.len() >= 6, "{passed:?}");
    for option in passed {
        assert!(
            help.contains(&format!("{option} ")),
            "`mmconform run` has no {option}"
        );
    }
}

/// The text of the `scripts/release/*.sh` a step's script runs as a whole (its
/// variables are the step's to set), when it runs one that way.
fn called_script(script: &str) -> Option<String> {
    let trimmed = script.trim().trim_matches(['\'', '"']);
    let path = trimmed.strip_prefix("$GITHUB_ACTION_PATH/")?;
    if path.contains(char::is_whitespace) {
        return None;
    }
    Some(super::read(&super::repository().join(path)))
}

#[test]
fn the_checks_see_what_they_look_for() {
    assert_eq!(
        names_after("inputs.target == inputs.working-directory", "inputs."),
        ["target", "working-directory"]
    );
    assert_eq!(
        shell_variables("echo \"$ROOT/bin\" ${GITHUB_PATH} $x"),
        BTreeSet::from(["ROOT".to_string(), "GITHUB_PATH".to_string()])
    );
}

/// The workflow the CI page shows passes only inputs the action declares.
#[test]
fn the_ci_guide_uses_the_action_as_it_is() {
    let page = super::read(&super::repository().join("docs/guide/ci.md"));
    let start = page
        .find("```yaml\n# .github/workflows/conformance.yml\n")
        .expect("the workflow example");
    let body = &page[start + "```yaml\n".len()..];
    let workflow: Value = serde_saphyr::from_str(&body[..body.find("```").unwrap()]).unwrap();
    let inputs = action()["inputs"].as_object().unwrap().clone();
    let steps = workflow["jobs"]["mmconform"]["steps"].as_array().unwrap();
    let ours = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.contains("/mmconform@"))
        })
        .expect("a step using the action");
    let with = ours["with"].as_object().unwrap();
    assert!(!with.is_empty());
    for key in with.keys() {
        assert!(
            inputs.contains_key(key),
            "the CI page passes `{key}`, not an input"
        );
    }
}
