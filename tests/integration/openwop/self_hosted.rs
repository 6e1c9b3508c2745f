//! RFC 0108, the self-hosted provider: each self-hosted fault of the reference host
//! fails its case; the endpoint `OPENWOP_TEST_COMPAT_ENDPOINT` names never appears in
//! anything the run writes; without the variable the leak cases are blocked naming it;
//! at v2 (where `selfHosted` is a boolean) the cases are blocked until
//! `--self-hosted-provider` names the id, and judged once it does.

use crate::common::{RunResult, run_with_env};
use reference_hosts::{ReferenceConfig, RunningReference};

/// A name no honest output contains: its host is what must never be printed.
const ENDPOINT: &str = "http://compat.leak-canary.invalid:8089/v1";
const CANARY: &str = "leak-canary";
const RFC0108: &[&str] = &["--filter", "openwop.rfc0108.*"];

const SERVED: &str = "openwop.rfc0108.self-hosted-served";
const MEDIA: &str = "openwop.rfc0108.self-hosted-serves-advertised-media";
const REFUSES: &str = "openwop.rfc0108.self-hosted-refuses-unadvertised";
const ID_OPAQUE: &str = "openwop.rfc0108.self-hosted-id-opaque";
const ID_LISTED: &str = "openwop.rfc0108.self-hosted-id-listed";
const HIDDEN: &str = "openwop.rfc0108.endpoint-not-in-answers";
const HIDDEN_IN_ERRORS: &str = "openwop.rfc0108.endpoint-not-in-error-envelopes";
const ALL: [&str; 7] = [
    SERVED,
    MEDIA,
    REFUSES,
    ID_OPAQUE,
    ID_LISTED,
    HIDDEN,
    HIDDEN_IN_ERRORS,
];

/// Every byte the run wrote: its output and every file it left in its directory.
fn assert_never_printed(r: &RunResult) {
    let mut texts = vec![("stdout".to_string(), r.stdout.clone())];
    texts.push(("stderr".into(), r.stderr.clone()));
    for entry in std::fs::read_dir(r.dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        texts.push((path.display().to_string(), text));
    }
    assert!(texts.len() >= 4, "the report and JUnit files are written");
    for (name, text) in texts {
        assert!(
            !text.contains(CANARY),
            "the configured endpoint leaked into {name}:\n{text}"
        );
    }
}

fn reference_run(extra: &[&str]) -> RunResult {
    let mut args = vec!["--target", "reference", "--strict"];
    args.extend_from_slice(RFC0108);
    args.extend_from_slice(extra);
    run_with_env(&args, &[("OPENWOP_TEST_COMPAT_ENDPOINT", ENDPOINT)])
}

#[test]
fn the_faithful_reference_host_passes_every_case_at_both_majors() {
    let r = reference_run(&[]);
    assert_eq!(r.code, 0, "{}", r.context());
    for id in ALL {
        assert_eq!(r.outcome(id), "pass", "{id}\n{}", r.context());
        assert_eq!(r.outcome(&format!("{id}@v2")), "pass", "{id}@v2");
    }
    assert_never_printed(&r);
}

#[test]
fn each_self_hosted_fault_fails_its_case_and_the_endpoint_is_never_printed() {
    let rows = [
        ("self-hosted-endpoint-leaks", HIDDEN),
        ("self-hosted-endpoint-leaks", HIDDEN_IN_ERRORS),
        ("self-hosted-not-configured", SERVED),
        ("self-hosted-url-id", ID_OPAQUE),
        ("self-hosted-not-listed", ID_LISTED),
        ("self-hosted-accepts-unadvertised", REFUSES),
    ];
    for (fault, case) in rows {
        let r = reference_run(&["--openwop-major", "1", "--reference-fault", fault]);
        assert_eq!(r.code, 1, "{fault}\n{}", r.context());
        assert_eq!(r.outcome(case), "fail", "{fault}: {case}\n{}", r.context());
        assert_never_printed(&r);
    }
    // The leak's failure says where, never what; nor does any other output: a hurl
    // export, the Markdown summary, the verbose transcript.
    let extra = tempfile::tempdir().unwrap();
    let hurl = extra.path().join("run.hurl");
    let summary = extra.path().join("summary.md");
    let r = reference_run(&[
        "--reference-fault",
        "self-hosted-endpoint-leaks",
        "--verbose",
        "--export-hurl",
        hurl.to_str().unwrap(),
        "--github-summary",
        summary.to_str().unwrap(),
    ]);
    assert!(
        r.stdout
            .contains("the configured endpoint appears in this answer's body"),
        "{}",
        r.context()
    );
    assert_never_printed(&r);
    let written: Vec<_> = std::fs::read_dir(extra.path()).unwrap().collect();
    assert!(
        written.len() >= 2,
        "the hurl file and the summary are written"
    );
    for entry in written {
        let path = entry.unwrap().path();
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        assert!(
            !text.contains(CANARY),
            "leaked into {}:\n{text}",
            path.display()
        );
    }
}

/// A reference host with its self-hosted provider configured, on loopback, served
/// from its own runtime while the binary runs against it.
fn self_hosting_host() -> (tokio::runtime::Runtime, RunningReference) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let config = ReferenceConfig {
        compat_endpoint: Some(ENDPOINT.to_string()),
        ..ReferenceConfig::default()
    };
    let host = runtime
        .block_on(reference_hosts::spawn(
            config,
            "127.0.0.1:0".parse().unwrap(),
        ))
        .unwrap();
    (runtime, host)
}

fn url_run(base: &str, extra: &[&str], env: &[(&str, &str)]) -> RunResult {
    let mut args = vec!["--target", base];
    args.extend_from_slice(RFC0108);
    args.extend_from_slice(extra);
    run_with_env(&args, env)
}

fn reason(r: &RunResult, id: &str) -> String {
    let case = r.cases().into_iter().find(|c| c["id"] == id).unwrap();
    case["reason"].as_str().unwrap_or_default().to_string()
}

#[test]
fn without_the_endpoint_variable_the_leak_cases_are_blocked_naming_it() {
    let (_runtime, host) = self_hosting_host();
    let r = url_run(&host.base_url(), &["--openwop-major", "1"], &[]);
    assert_eq!(r.code, 3, "{}", r.context());
    for id in [HIDDEN, HIDDEN_IN_ERRORS] {
        assert_eq!(r.outcome(id), "blocked", "{id}");
        assert!(
            reason(&r, id).contains("OPENWOP_TEST_COMPAT_ENDPOINT"),
            "{}",
            reason(&r, id)
        );
    }
    for id in [SERVED, MEDIA, REFUSES, ID_OPAQUE, ID_LISTED] {
        assert_eq!(r.outcome(id), "pass", "{id}\n{}", r.context());
    }
}

#[test]
fn at_v2_the_id_comes_from_the_flag_and_without_it_every_case_is_blocked() {
    let (_runtime, host) = self_hosting_host();
    let env = [("OPENWOP_TEST_COMPAT_ENDPOINT", ENDPOINT)];
    let base = host.base_url();
    let r = url_run(&base, &["--openwop-major", "2"], &env);
    assert_eq!(r.code, 3, "{}", r.context());
    for id in ALL {
        assert_eq!(r.outcome(id), "blocked", "{id}");
        assert!(reason(&r, id).contains("--self-hosted-provider"), "{id}");
    }
    assert_never_printed(&r);
    let named = ["--openwop-major", "2", "--self-hosted-provider", "compat"];
    let r = url_run(&base, &named, &env);
    assert_eq!(r.code, 0, "{}", r.context());
    for id in ALL {
        assert_eq!(r.outcome(id), "pass", "{id}");
    }
    let served = r.cases().into_iter().find(|c| c["id"] == SERVED).unwrap();
    assert!(
        served["notes"]
            .to_string()
            .contains("named by --self-hosted-provider"),
        "{served}"
    );
    assert_never_printed(&r);
}

#[test]
fn at_v1_a_flag_that_disagrees_with_the_document_wins_and_the_report_says_so() {
    let (_runtime, host) = self_hosting_host();
    let env = [("OPENWOP_TEST_COMPAT_ENDPOINT", ENDPOINT)];
    let flag = [
        "--openwop-major",
        "1",
        "--self-hosted-provider",
        "local-llm",
    ];
    let r = url_run(&host.base_url(), &flag, &env);
    let served = r.cases().into_iter().find(|c| c["id"] == SERVED).unwrap();
    let notes = served["notes"].to_string();
    assert!(notes.contains("`local-llm`"), "{notes}");
    assert!(notes.contains("the flag wins"), "{notes}");
}

#[test]
fn a_bad_endpoint_value_or_a_misplaced_flag_is_exit_2_without_echoing_the_value() {
    let secretish = "not a url leak-canary";
    let r = run_with_env(
        &["--target", "reference"],
        &[("OPENWOP_TEST_COMPAT_ENDPOINT", secretish)],
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains("OPENWOP_TEST_COMPAT_ENDPOINT"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains(CANARY) && !r.stdout.contains(CANARY));
    let r = run_with_env(
        &[
            "--profile",
            "agui",
            "--target",
            "reference",
            "--self-hosted-provider",
            "x",
        ],
        &[],
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("--profile openwop"), "{}", r.stderr);
}
