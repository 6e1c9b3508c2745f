//! Help, completions and the man page, all generated from the clap definitions; the
//! per-profile target variable.

use crate::common::{bin, run_with_env};

const COMMANDS: [&str; 11] = [
    "run",
    "list",
    "lint",
    "serve-reference",
    "baseline",
    "verify",
    "replay",
    "calibrate",
    "evidence",
    "completions",
    "man",
];

fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn completions_are_generated_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: {command} missing");
        }
        // Options of a subcommand are completed too.
        assert!(script.contains("reference-fault"), "{shell}");
    }
    let out = bin().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_man_page_has_the_exit_codes_and_the_environment() {
    let page = stdout_of(&["man"]);
    assert!(
        page.starts_with(".ie") && page.contains(".TH mmconform 1"),
        "{page}"
    );
    let status = &page[page.find(".SH \"EXIT STATUS\"").expect("EXIT STATUS")..];
    for code in ["0", "1", "2", "3", "4", "5", "70", "130"] {
        assert!(
            status.contains(&format!("\\fB{code}\\fR")),
            "exit {code} missing"
        );
    }
    for command in COMMANDS {
        // roff spells a hyphen `\-`.
        let roff = command.replace('-', "\\-");
        assert!(page.contains(&roff), "{command} missing");
    }
    assert!(page.contains("AGUI_TARGET_URL") && page.contains("OPENWOP_BASE_URL"));
    assert!(page.contains("OPENAI_BASE_URL") && page.contains("OPENAI_API_KEY"));
    for variable in [
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "MMCONFORM_CONFIG",
        "GITHUB_ACTIONS",
    ] {
        assert!(page.contains(variable), "{variable} missing");
    }
    let run = stdout_of(&["man", "run"]);
    assert!(run.contains(".TH mmconform-run 1"), "{run}");
    for section in [
        "TARGET",
        "SELECTION",
        "REPORTS",
        "LIMITS",
        "TLS",
        "EXAMPLES",
        "\"EXIT STATUS\"",
    ] {
        assert!(run.contains(&format!(".SH {section}")), "{section} missing");
    }
    let out = bin().args(["man", "rnu-nothing"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn run_help_is_grouped_with_examples_env_and_every_exit_code() {
    let help = stdout_of(&["run", "--help"]);
    for heading in [
        "Target:",
        "Selection:",
        "Verdict:",
        "Reports:",
        "Limits:",
        "TLS:",
        "Embedded host (--target reference):",
        "Witness:",
        "Examples:",
        "Exit codes:",
    ] {
        assert!(
            help.contains(&format!("\n{heading}\n")),
            "{heading} missing:\n{help}"
        );
    }
    assert!(help.contains("[env: OPENWOP_REQUIRE_BEHAVIOR"), "{help}");
    assert!(help.contains("AGUI_TARGET_URL"), "{help}");
    assert!(
        help.contains("OPENAI_BASE_URL") && help.contains("--model"),
        "{help}"
    );
    for code in [0, 1, 2, 3, 4, 5, 70, 130] {
        assert!(
            help.contains(&format!("\n  {code:<4} ")),
            "exit {code} missing:\n{help}"
        );
    }
    // An installed binary has no README to point at.
    for args in [&["run", "--help"][..], &["--help"], &["-h"]] {
        let text = stdout_of(args);
        assert!(!text.contains("README"), "{args:?}");
        assert!(text.contains("  5 "), "{args:?} lacks exit 5");
    }
}

#[test]
fn each_profile_reads_its_own_target_variable() {
    let r = run_with_env(&["--profile", "agui"], &[("AGUI_TARGET_URL", "reference")]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains("reference agent"), "{}", r.stdout);
    // The openwop variable does not name an agent.
    let r = run_with_env(&["--profile", "agui"], &[("OPENWOP_BASE_URL", "reference")]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("AGUI_TARGET_URL"), "{}", r.stderr);
    let r = run_with_env(
        &["--profile", "openai"],
        &[("OPENAI_BASE_URL", "reference")],
    );
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains("reference server"), "{}", r.stdout);
    let r = run_with_env(
        &["--profile", "openai"],
        &[("AGUI_TARGET_URL", "reference")],
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("OPENAI_BASE_URL"), "{}", r.stderr);
}

#[test]
fn config_has_its_own_heading_in_run_help() {
    let help = stdout_of(&["run", "--help"]);
    let heading = help
        .find("\nProject file:\n")
        .unwrap_or_else(|| panic!("{help}"));
    let after = &help[heading..];
    assert!(
        after
            .lines()
            .nth(2)
            .unwrap()
            .trim_start()
            .starts_with("--config <FILE>"),
        "{after}"
    );
    assert!(after.contains("$MMCONFORM_CONFIG"), "{after}");
    // Not under the embedded host's heading, where it used to sit.
    let embedded = help.find("Embedded host (--target reference):").unwrap();
    assert!(!help[embedded..heading].contains("--config"), "{help}");
}
