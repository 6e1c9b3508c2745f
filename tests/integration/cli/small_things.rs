//! Small things a user meets: "did you mean" for every value clap cannot check, `lint`
//! not claiming it sent nothing (it never sends), and `list`'s columns staying aligned
//! whatever the length of a requirement source.

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
