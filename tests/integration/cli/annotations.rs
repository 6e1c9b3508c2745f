//! Under GitHub Actions (`GITHUB_ACTIONS=true`) a run annotates each failed case with
//! an `::error` workflow command, capped, and `--annotations none` turns it off.

use crate::common::run_with_env;

#[test]
fn github_actions_get_one_error_per_failed_case_capped() {
    let args = [
        "--target",
        "reference",
        "--reference-fault",
        "wrong-error-code",
        "-q",
    ];
    let r = run_with_env(&args, &[("GITHUB_ACTIONS", "true")]);
    assert_eq!(r.code, 1, "{}", r.context());
    let failed = r.ids_with("fail");
    assert!(failed.len() > 10, "{}", r.context());
    let errors: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error "))
        .collect();
    assert_eq!(errors.len(), 10, "{}", r.context());
    for line in &errors {
        let id = line
            .strip_prefix("::error title=FAIL ")
            .and_then(|rest| rest.split_once("::"))
            .map(|(id, _)| id.replace("%2C", ",").replace("%3A", ":"))
            .unwrap();
        assert!(failed.contains(&id), "{line}");
    }
    let notice = format!(
        "::notice title=mmconform::{} more failed case(s) not annotated",
        failed.len() - 10
    );
    assert!(r.stdout.contains(&notice), "{}", r.context());
    let mut off = args.to_vec();
    off.extend(["--annotations", "none"]);
    let r = run_with_env(&off, &[("GITHUB_ACTIONS", "true")]);
    assert!(!r.stdout.contains("::error"), "{}", r.context());
    let r = run_with_env(&args, &[]);
    assert!(!r.stdout.contains("::error"), "{}", r.context());
}
