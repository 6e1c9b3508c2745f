//! The CLI contract users and scripts rely on: exit codes, file:line:col diagnostics,
//! reports written even when the run fails, the report schema, and steward scenarios.

use crate::common::{self, bin, fixture, run, run_with_env};
use serde_json::Value;

fn lint(path: &std::path::Path) -> (i32, String) {
    let out = bin().arg("lint").arg(path).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn broken_scenario_files_exit_2_with_file_line_col() {
    let expected = [
        ("syntax.yaml", "syntax.yaml:6:1", "invalid YAML"),
        ("syntax.json", "syntax.json:5:35", "invalid JSON"),
        (
            "unknown-key.yaml",
            "unknown-key.yaml:8:5",
            "unknown key `expct`",
        ),
        ("bad-level.yaml", "bad-level.yaml:8:14", "MUST"),
        (
            "unknown-placeholder.yaml",
            "unknown-placeholder.yaml:14:22",
            "unknown placeholder `{modalty}`",
        ),
        (
            "external-url.yaml",
            "external-url.yaml:13:58",
            "does not point at loopback",
        ),
        (
            "id-from-unbound.yaml",
            "id-from-unbound.yaml:9:14",
            "`id_from` names `variant`, which the expansion does not bind",
        ),
        (
            "duplicate-expanded-id.yaml",
            "duplicate-expanded-id.yaml:10:9",
            "two expansion rows give the same case id `a.duplicate-expanded-id[error]`",
        ),
    ];
    for (file, location, message) in expected {
        let (code, stderr) = lint(&fixture("broken").join(file));
        assert_eq!(code, 2, "{file}: {stderr}");
        assert!(
            stderr.contains(location),
            "{file}: expected {location} in\n{stderr}"
        );
        assert!(
            stderr.contains(message),
            "{file}: expected {message:?} in\n{stderr}"
        );
    }
}

#[test]
fn lint_reports_every_problem_of_a_file_at_once() {
    let (code, stderr) = lint(&fixture("broken/unknown-key.yaml"));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("missing required key \"expect\"")
            && stderr.contains("unknown key `expct`"),
        "{stderr}"
    );
    assert!(stderr.contains("2 problem(s)"), "{stderr}");
}

#[test]
fn builtin_scenarios_lint_clean() {
    let out = bin().arg("lint").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok: "));
}

#[test]
fn a_broken_scenario_stops_the_run_before_any_request() {
    let r = run(&[
        "--target",
        "reference",
        "--scenarios",
        fixture("broken/bad-level.yaml").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.report.is_none() && r.junit.is_none(),
        "no report on exit 2"
    );
    assert!(
        !r.stdout.contains("discovery:"),
        "nothing may be sent: {}",
        r.stdout
    );
}

#[test]
fn an_unreachable_target_exits_4_and_still_writes_reports() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let r = run(&["--target", &url, "--timeout", "5"]);
    assert_eq!(r.code, 4, "{}", r.context());
    let report = r
        .report
        .clone()
        .expect("report written even when the target is down");
    assert_eq!(report["summary"]["verdict"], "unreachable");
    assert!(
        report["discovery"]["problem"]
            .as_str()
            .unwrap()
            .contains("failed")
    );
    assert!(r.junit.is_some());
    let offline = common::offline_case_ids();
    let passed = r.ids_with("pass");
    assert!(
        passed.iter().all(|id| offline.contains(id)),
        "only offline cases may pass with the target down: {passed:?}"
    );
    // The self-checks are mmconform's, not the host's: out of the host's counts, marked
    // in the report, on their own summary line, and not listed before the verdict.
    assert_eq!(report["summary"]["counts"]["pass"].as_u64().unwrap_or(0), 0);
    assert_eq!(
        report["summary"]["self_checks"]["pass"].as_u64(),
        Some(offline.len() as u64)
    );
    assert!(
        r.cases()
            .iter()
            .filter(|c| c["self_check"] == true)
            .all(|c| offline.contains(&c["id"].as_str().unwrap().to_string()))
    );
    assert!(!r.stdout.contains("PASS"), "{}", r.stdout);
    assert!(r.stdout.contains("summary: 0 pass"), "{}", r.stdout);
    assert!(
        r.stdout.contains(&format!("self-checks (mmconform's own schema files, offline; not counted for the host): {} pass", offline.len())),
        "{}",
        r.stdout
    );
    // The hint and the verdict, not pages of lines: header, discovery, hint (3
    // lines), summary, the blocked count, the self-checks, verdict (2), duration.
    assert!(r.stdout.lines().count() < 15, "{}", r.stdout);
    let junit = r.junit.clone().unwrap();
    assert!(
        junit.contains("mmconform-self-check.rfc0021-offline"),
        "{junit}"
    );
}

#[test]
fn openwop_base_url_is_used_without_target() {
    let r = run_with_env(
        &["--timeout", "5"],
        &[("OPENWOP_BASE_URL", "http://127.0.0.1:9")],
    );
    assert_eq!(r.code, 4, "{}", r.context());
    assert!(r.stdout.contains("127.0.0.1:9"), "{}", r.stdout);
}

#[test]
fn a_filter_matching_nothing_exits_3() {
    let r = run(&["--target", "reference", "--filter", "no.such.case*"]);
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(r.stdout.contains("no case was selected"), "{}", r.stdout);
    assert!(!r.stdout.contains('%'));
}

#[test]
fn filters_select_by_glob_level_and_source() {
    let r = run(&["--target", "reference", "--filter", "openwop.discovery.*"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let run_ids: Vec<String> = r
        .cases()
        .iter()
        .filter(|c| c["outcome"] != "excluded")
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    assert!(
        !run_ids.is_empty()
            && run_ids
                .iter()
                .all(|id| id.starts_with("openwop.discovery.")),
        "{run_ids:?}"
    );
    let r = run(&[
        "--target",
        "reference",
        "--filter",
        "level:SHOULD or source(RFC 0073)",
    ]);
    for c in r.cases().iter().filter(|c| c["outcome"] != "excluded") {
        let level = c["requirement"]["level"].as_str().unwrap();
        let source = c["requirement"]["source"].as_str().unwrap();
        // An auto run's openwop 2 twin cites the same source, marked `(openwop 2)`.
        let rfc0073 = source == "RFC 0073" || source == "RFC 0073 (openwop 2)";
        assert!(level == "SHOULD" || rfc0073, "{c}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["run", "--target", "reference", "--no-such-flag"],
        vec!["run", "--target", "reference", "--dialect", "klingon"],
        vec!["run", "--target", "reference", "--timeout", "-1"],
        vec!["run", "--target", "reference", "--filter", "colour:red"],
        vec!["run", "--target", "reference", "--header", "no colon here"],
        vec!["run", "--target", "ftp://example.invalid"],
        vec![
            "run",
            "--target",
            "reference",
            "--reference-fault",
            "no-such-fault",
        ],
        vec!["run"],
        vec!["frobnicate"],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_json_report_validates_against_its_schema() {
    let schema: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schemas/report.schema.json"
    )))
    .unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    for args in [
        vec!["--target", "reference"],
        vec![
            "--target",
            "reference",
            "--reference-fault",
            "wrong-error-code",
        ],
    ] {
        let r = run(&args);
        let report = r.report.clone().unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&report)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert_eq!(report["summary"]["exit_code"], r.code);
    }
}

#[test]
fn failures_show_requirement_expected_actual_and_a_curl_line() {
    let r = run_with_env(
        &[
            "--target",
            "reference",
            "--reference-fault",
            "wrong-error-code",
            "-v",
        ],
        &[("OPENWOP_API_KEY", "tok-abc-123")],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("A host MUST reject a content part whose type is not in its advertised"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("expected error code unsupported_modality; got error code invalid_request"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("curl -sS"), "{}", r.stdout);
    assert!(r.stdout.contains("Bearer $TOKEN"), "{}", r.stdout);
    assert!(!r.stdout.contains("tok-abc-123"));
}

#[test]
fn require_fails_skips_unless_the_profile_is_opted_out() {
    let text_only = [
        "--target",
        "reference",
        "--reference-modalities",
        "text",
        "--require",
    ];
    let r = run(&text_only);
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(
        r.outcome("openwop.rfc0091.advertised-inline-accepted[image]"),
        "fail"
    );
    let r = run_with_env(
        &text_only,
        &[("OPENWOP_OPTED_OUT_PROFILES", "openwop-callai-multimodal")],
    );
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(
        r.outcome("openwop.rfc0091.advertised-inline-accepted[image]"),
        "skip"
    );
    let r = run_with_env(
        &["--target", "reference", "--reference-modalities", "text"],
        &[("OPENWOP_REQUIRE_BEHAVIOR", "true")],
    );
    assert_eq!(
        r.code,
        1,
        "OPENWOP_REQUIRE_BEHAVIOR=true means --require: {}",
        r.context()
    );
}

#[test]
fn a_steward_adds_a_case_without_touching_rust() {
    let dir = fixture("steward");
    let r = run(&[
        "--target",
        "reference",
        "--scenarios",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(r.outcome("steward.rfc9999.reasoning-echo[image]"), "pass");
    assert_eq!(r.outcome("steward.rfc9999.reasoning-echo[audio]"), "skip");
    // And it can fail: a host that drops the part is caught by the new case.
    let r = run(&[
        "--target",
        "reference",
        "--scenarios",
        dir.to_str().unwrap(),
        "--no-builtin",
        "--reference-fault",
        "rejects-advertised-modality",
        "--strict",
    ]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(r.outcome("steward.rfc9999.reasoning-echo[image]"), "fail");
}

#[test]
fn list_shows_run_and_skip_with_reasons() {
    let out = bin()
        .args(["list", "--target", "reference", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    let audio = cases
        .iter()
        .find(|c| c["id"] == "openwop.rfc0091.advertised-inline-accepted[audio]")
        .unwrap();
    assert_eq!(audio["disposition"], "skip");
    assert_eq!(audio["reason"], "aiProviders.input.modalities lacks audio");
    let image = cases
        .iter()
        .find(|c| c["id"] == "openwop.rfc0091.advertised-inline-accepted[image]")
        .unwrap();
    assert_eq!(image["disposition"], "will-run");
    let out = bin()
        .args(["list", "--target", "reference", "--format", "json"])
        .args(["--filter", "level:SHOULD or openwop.discovery.*"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let must = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "openwop.rfc0091.unadvertised-rejected[audio]")
        .unwrap();
    assert_eq!(must["disposition"], "excluded");
    assert_eq!(
        must["reason"],
        "not selected by --filter level:SHOULD or openwop.discovery.*"
    );
    let out = bin()
        .args(["list", "--filter", "colour:red"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown filter key is a usage error"
    );
    let out = bin().args(["list"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("MUST") && text.contains("openwop.rfc0091.unadvertised-rejected[audio]"),
        "{text}"
    );
}
