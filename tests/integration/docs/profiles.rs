//! The project file's error for an unknown profile lists every profile `--profile`
//! takes (the registry's). The pages' lists are held to the registry by
//! `src/registry_docs_tests.rs`.

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
