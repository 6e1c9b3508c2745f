//! Every page that lists the profiles lists the ones `--profile` takes (the registry's),
//! all of them: the project file's example and key table on the CI page, the action's
//! `profile` input, the scenario format's `profile:` line and the glossary; and the
//! witness page names every wire `witness --help` says it serves; the project file's error
//! for an unknown profile lists them all.

use crate::common::bin;

/// The values `run --help` gives for `--profile`.
fn profiles() -> Vec<String> {
    let out = bin().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let start = help.find("--profile <PROFILE>").unwrap();
    let values = &help[start..][help[start..].find("Possible values:").unwrap()..];
    values
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.trim().strip_prefix("- "))
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect()
}

/// The profile names listed in `text` (words separated by `|`, `,`, `or`, backticks).
fn listed(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn check(place: &str, text: &str, profiles: &[String]) {
    let words = listed(text);
    for profile in profiles {
        assert!(
            words.contains(profile),
            "{place} leaves out {profile}: {text}"
        );
    }
}

#[test]
fn every_list_of_profiles_has_every_profile() {
    let profiles = profiles();
    assert!(profiles.len() >= 7, "{profiles:?}");
    let read = |path: &str| super::read(&super::repository().join(path));
    let ci = read("docs/guide/ci.md");
    let comment = ci.lines().find(|l| l.starts_with("profile = ")).unwrap();
    check("ci.md's project file", comment, &profiles);
    let row = ci.lines().find(|l| l.starts_with("| `profile` |")).unwrap();
    check("ci.md's key table", row, &profiles);
    let action: serde_json::Value = serde_saphyr::from_str(&read("action.yml")).unwrap();
    let input = action["inputs"]["profile"]["description"].as_str().unwrap();
    check("action.yml's profile input", input, &profiles);
    let scenarios = read("docs/guide/scenarios.md");
    let line = scenarios
        .lines()
        .find(|l| l.starts_with("profile: "))
        .unwrap();
    check("scenarios.md's profile line", line, &profiles);
    let glossary = read("docs/guide/glossary.md");
    let entry = glossary
        .lines()
        .find(|l| l.starts_with("**profile**"))
        .unwrap();
    check("the glossary's profile entry", entry, &profiles);
}

/// The wires `witness --help` says the witness serves (its first paragraph's
/// parenthesis: "OpenAI Chat Completions and Responses, Anthropic Messages, ...").
fn witness_wires() -> Vec<String> {
    let out = bin().args(["witness", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    let open = help.find('(').unwrap();
    let close = open + help[open..].find(')').unwrap();
    help[open + 1..close]
        .split(", ")
        .flat_map(|w| w.split(" and "))
        .map(|w| w.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn the_witness_page_names_every_wire_the_witness_serves() {
    let wires = witness_wires();
    assert!(wires.len() >= 4, "{wires:?}");
    let page = super::read(&super::repository().join("docs/guide/witness.md"));
    let intro = page.split("\n\n").nth(1).unwrap().replace('\n', " ");
    for wire in wires {
        assert!(
            intro.contains(&wire),
            "witness.md's intro leaves out {wire}: {intro}"
        );
    }
}

#[test]
fn the_project_file_s_profile_error_lists_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mmconform.toml"), "profile = \"nope\"\n").unwrap();
    let out = bin()
        .args(["run", "--offline"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = stderr
        .lines()
        .find(|l| l.contains("unknown profile `nope`"))
        .unwrap_or_else(|| panic!("{stderr}"));
    check("the project file's profile error", line, &profiles());
}
