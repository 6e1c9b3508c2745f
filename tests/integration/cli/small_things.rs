//! Small things a user meets: "did you mean" for every value clap cannot check, `lint`
//! not claiming it sent nothing (it never sends), `list`'s columns staying aligned
//! whatever the length of a requirement source, the embedded host's options refused with
//! a real target, a missing report directory said, an empty NO_COLOR, `--quiet` and the
//! CI step summary.

use crate::common::{bin, fixture};

fn stderr_of(args: &[&str]) -> (Option<i32>, String) {
    let out = bin().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_misspelled_value_gets_a_did_you_mean() {
    let cases: [(&[&str], &str); 9] = [
        (&["run", "--profile", "agi", "--offline"], "'agui'"),
        (&["run", "--dialect", "sute", "--offline"], "'suite'"),
        (&["list", "--format", "jsno"], "'json'"),
        (&["--color", "allways", "list"], "'always'"),
        (
            &[
                "run",
                "--target",
                "reference",
                "--reference-fault",
                "accept-unadvertised",
            ],
            "did you mean `accepts-unadvertised`?",
        ),
        (
            &[
                "run",
                "--profile",
                "agui",
                "--target",
                "reference",
                "--reference-fault",
                "drops-unknown-parts",
            ],
            "did you mean `drops-unknown-part`?",
        ),
        (
            &[
                "run",
                "--target",
                "reference",
                "--reference-modalities",
                "text,imag",
            ],
            "did you mean `image`?",
        ),
        (&["list", "--filter", "level:MUTS"], "did you mean `MUST`?"),
        (&["list", "--filter", "levl:MUST"], "did you mean `level`?"),
    ];
    for (args, expected) in cases {
        let (code, stderr) = stderr_of(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    // A near miss names the one fault, not the whole catalogue.
    let (_, stderr) = stderr_of(&["serve-reference", "--fault", "seam-mising", "--port", "0"]);
    assert!(stderr.contains("did you mean `seam-missing`?"), "{stderr}");
    assert!(!stderr.contains("envelope-http-400"), "{stderr}");
}

#[test]
fn lint_does_not_claim_it_sent_nothing() {
    let (code, stderr) = stderr_of(&["lint", fixture("broken/bad-level.yaml").to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("1 problem(s) in 1 file(s)"), "{stderr}");
    assert!(!stderr.contains("sent"), "{stderr}");
}

#[test]
fn list_columns_align_on_long_requirement_sources() {
    let out = bin().args(["list", "--profile", "agui"]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(" agui.")).collect();
    assert!(
        lines.iter().any(|l| l.contains("(legacy binary)")),
        "the long source is listed: {stdout}"
    );
    let columns: std::collections::BTreeSet<usize> = lines
        .iter()
        .map(|l| l.chars().count() - l.rsplit(' ').next().unwrap().chars().count())
        .collect();
    assert_eq!(columns.len(), 1, "ids start at {columns:?}:\n{stdout}");
}

#[test]
fn the_embedded_hosts_options_are_refused_with_a_real_target() {
    for args in [
        &["--reference-fault", "accepts-unadvertised"][..],
        &["--reference-accepts", "image/"][..],
        &["--reference-upstream", "http://127.0.0.1:9/v1"][..],
    ] {
        let mut all = vec!["run", "--target", "http://127.0.0.1:9"];
        all.extend_from_slice(args);
        let (code, stderr) = stderr_of(&all);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("{} configures the embedded host", args[0])),
            "{stderr}"
        );
    }
}

#[test]
fn the_agui_reference_agent_refuses_a_token_it_would_not_check() {
    for args in [&["--token-env", "HOME"][..], &["--token", "x"][..]] {
        let mut all = vec!["serve-reference", "--profile", "agui", "--port", "0"];
        all.extend_from_slice(args);
        let (code, stderr) = stderr_of(&all);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("checks no token"), "{stderr}");
    }
}

#[test]
fn a_missing_report_directory_is_created_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args(["run", "--offline", "--report", "new/dir/r.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("note: --report new/dir/r.json: creating the missing directory new/dir"),
        "{stderr}"
    );
    assert!(dir.path().join("new/dir/r.json").is_file());
    // An existing directory is not worth a word.
    let out = bin()
        .current_dir(dir.path())
        .args(["run", "--offline", "--report", "new/dir/again.json"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("creating"));
}

/// no-color.org: only a NO_COLOR that is set and not empty turns colour off (on a
/// terminal, where `--color auto` colours).
#[test]
fn an_empty_no_color_does_not_disable_colour() {
    let bin = assert_cmd::cargo::cargo_bin("mmconform");
    let colours = |no_color: &str| {
        let shell = format!("NO_COLOR={no_color} {} run --offline", bin.display());
        // The progress bar moves the cursor either way; a green PASS is colour.
        super::progress::under_pty(&shell).map(|screen| screen.contains("\u{1b}[32mPASS"))
    };
    if let (Some(empty), Some(set)) = (colours("''"), colours("1")) {
        assert!(empty, "an empty NO_COLOR disabled colour");
        assert!(!set, "NO_COLOR=1 left colour on");
    }
}

#[test]
fn quiet_runs_end_with_the_ids_to_look_at_and_write_the_step_summary() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("step-summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let out = bin()
        .args([
            "run",
            "--target",
            "reference",
            "--reference-fault",
            "accepts-unadvertised",
            "--quiet",
        ])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("PASS "), "{stdout}");
    let failed = stdout
        .lines()
        .find(|l| l.starts_with("failed ("))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        failed.contains("openwop.rfc0091.unadvertised-rejected[audio]"),
        "{failed}"
    );
    let page = std::fs::read_to_string(&summary).unwrap();
    assert!(
        page.starts_with("earlier step\n### ❌ mmconform: failed (exit 1)"),
        "{page}"
    );
    assert!(
        page.contains("openwop.rfc0091.unadvertised-rejected[audio]"),
        "{page}"
    );

    // --github-summary replaces its file, and wins over the variable.
    let own = dir.path().join("own.md");
    let out = bin()
        .args([
            "run",
            "--target",
            "reference",
            "--quiet",
            "--github-summary",
        ])
        .arg(&own)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        std::fs::read_to_string(&own)
            .unwrap()
            .starts_with("### ✅ mmconform: passed (exit 0)")
    );
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), page);
}
/// A target without a scheme, or with the path mmconform appends itself, is a usage
/// error that names the fix, before anything is sent.
#[test]
fn a_target_that_needs_fixing_says_how() {
    for (args, fix) in [
        (
            vec!["run", "--target", "localhost:8080"],
            "did you mean http://localhost:8080?",
        ),
        (
            vec!["run", "--target", "http://127.0.0.1:9/.well-known/openwop"],
            "which mmconform appends itself: pass http://127.0.0.1:9",
        ),
        (
            vec![
                "run",
                "--profile",
                "openai",
                "--model",
                "m",
                "--target",
                "http://127.0.0.1:9/v1/chat/completions",
            ],
            "pass http://127.0.0.1:9/v1",
        ),
    ] {
        let out = crate::common::bin().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(fix), "{stderr}");
    }
}
