//! Installable in one command: the README opens with `cargo install --locked --path .`
//! and the Rust version Cargo.toml asks for, the `mmconform ...` commands it and the
//! guide show are commands the installed binary has, and the licence and changelog the package names
//! are there.

use crate::common::bin;

fn repository_file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The README's shell lines that run mmconform, in order.
fn readme_commands(readme: &str) -> Vec<String> {
    let mut in_block = false;
    let mut commands = Vec::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = line == "```sh" || (in_block && line != "```");
            continue;
        }
        let line = line.trim_start().trim_start_matches("- ");
        if in_block && line.starts_with("mmconform ") {
            commands.push(line.to_string());
        }
    }
    commands
}

#[test]
fn the_readme_starts_with_the_install_command_and_the_rust_version() {
    let readme = repository_file("README.md");
    let first_block = readme.split("```sh\n").nth(1).unwrap();
    let first_command = first_block.lines().next().unwrap();
    assert!(
        first_command.starts_with("cargo install --locked --path ."),
        "{first_command}"
    );
    let rust = env!("CARGO_PKG_RUST_VERSION");
    let intro = &readme[..readme.find("```sh\n").unwrap()];
    assert!(intro.contains(&format!("Rust {rust} or later")), "{intro}");
}

/// README.md and every page of the guide.
fn documentation() -> String {
    let mut text = repository_file("README.md");
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                text.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    text
}

#[test]
fn every_documented_command_is_one_the_binary_has() {
    let commands = readme_commands(&documentation());
    assert!(commands.len() >= 40, "{commands:?}");
    let mut checked = std::collections::BTreeSet::new();
    for command in commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        // `evidence merge` and `evidence criteria` are two levels deep.
        let depth = if words[1] == "evidence" { 3 } else { 2 };
        let path: Vec<&str> = words[1..depth.min(words.len())].to_vec();
        if !checked.insert(path.join(" ")) {
            continue;
        }
        let out = bin().args(&path).arg("--help").output().unwrap();
        assert!(out.status.success(), "`{command}`: {out:?}");
    }
    assert!(
        checked.contains("run") && checked.contains("calibrate"),
        "{checked:?}"
    );
}

#[test]
fn the_version_licence_and_changelog_agree() {
    let out = bin().arg("--version").output().unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("mmconform {version}")
    );
    assert_eq!(env!("CARGO_PKG_LICENSE"), "Apache-2.0");
    let licence = repository_file("LICENSE");
    assert!(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"));
    let changelog = repository_file("CHANGELOG.md");
    assert!(
        changelog.contains(&format!("## [{version}]")),
        "no {version} entry"
    );
    assert!(changelog.contains("## [Unreleased]"));
}
