//! `mmconform.toml`: the options a CI job repeats, read from the current directory or
//! `--config FILE`; the command line wins; a bad key or value is exit 2 at
//! `file:line:col` before anything is sent.

use crate::common::{assert_junit_valid, bin, read_json};
use std::path::Path;

const PROJECT: &str = r#"# what every CI run of this host repeats
target = "reference"
profile = "openwop"
filters = ["openwop.discovery.*"]
junit = "out/junit.xml"
report = "out/report.json"
timeout = 10
concurrency = 2
strict = true
"#;

fn run_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = bin().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ids(report: &serde_json::Value, outcome: &str) -> Vec<String> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] != "excluded" && (outcome.is_empty() || c["outcome"] == outcome))
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_file_in_the_current_directory_supplies_what_the_command_line_leaves_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mmconform.toml"), PROJECT).unwrap();
    let (code, stderr) = run_in(dir.path(), &["run"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("options from mmconform.toml"), "{stderr}");
    assert_junit_valid(&dir.path().join("out/junit.xml"));
    let report = read_json(&dir.path().join("out/report.json")).expect("report from the file");
    let ran = ids(&report, "");
    assert!(!ran.is_empty() && ran.iter().all(|id| id.starts_with("openwop.discovery.")));
    assert_eq!(report["run"]["strict"], true, "{}", report["run"]);

    // The command line wins, value by value.
    let (code, stderr) = run_in(
        dir.path(),
        &[
            "run",
            "--filter",
            "openwop.rfc0091.*",
            "--report",
            "mine.json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let report = read_json(&dir.path().join("mine.json")).expect("--report wins");
    assert!(
        ids(&report, "")
            .iter()
            .all(|id| id.starts_with("openwop.rfc0091."))
    );
}

#[test]
fn config_names_another_file_whose_paths_are_relative_to_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("ci")).unwrap();
    std::fs::write(dir.path().join("ci/conformance.toml"), PROJECT).unwrap();
    let (code, stderr) = run_in(dir.path(), &["run", "--config", "ci/conformance.toml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(dir.path().join("ci/out/report.json").is_file());
    assert_junit_valid(&dir.path().join("ci/out/junit.xml"));
    let (code, stderr) = run_in(dir.path(), &["run", "--config", "missing.toml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--config missing.toml"), "{stderr}");
}

#[test]
fn an_unknown_key_or_a_bad_value_is_exit_2_at_its_position() {
    let cases = [
        (
            "target = \"reference\"\nprofil = \"agui\"\n",
            "mmconform.toml:2:1",
            "unknown key `profil`; did you mean `profile`?",
        ),
        (
            "profile = \"agi\"\n",
            "mmconform.toml:1:11",
            "did you mean `agui`?",
        ),
        (
            "concurrency = 0\n",
            "mmconform.toml:1:15",
            "between 1 and 256",
        ),
        (
            "timeout = -1\n",
            "mmconform.toml:1:11",
            "between 0 and 3600",
        ),
        (
            "filters = [\"x\", \"level:MUTS\"]\n",
            "mmconform.toml:1:17",
            "did you mean `MUST`?",
        ),
        (
            "target = \"ftp://host\"\n",
            "mmconform.toml:1:10",
            "neither `reference` nor",
        ),
        (
            "strict = \"yes\"\n",
            "mmconform.toml:1:10",
            "expected a boolean",
        ),
        (
            "timeout = \"30s\"\n",
            "mmconform.toml:1:11",
            "expected a number of seconds (such as 30 or 2.5), not the text \"30s\"",
        ),
        (
            "deadline = 0\n",
            "mmconform.toml:1:12",
            "expected a number of seconds between 0 and 86400",
        ),
        (
            "concurrency = 2.5\n",
            "mmconform.toml:1:15",
            "a whole number between 1 and 256",
        ),
        (
            "witness = \"localhost\"\n",
            "mmconform.toml:1:11",
            "expected an address and port such as \"127.0.0.1:0\"",
        ),
        (
            "accepts = 3\n",
            "mmconform.toml:1:11",
            "expected a list of MIME types",
        ),
        (
            "accepts = [\"image/\"]\nclaims = \"c.yaml\"\n",
            "mmconform.toml:1:11",
            "give `accepts` or `claims`, not both",
        ),
        (
            "profile = \"opena\"\n",
            "mmconform.toml:1:11",
            "did you mean `openai`?",
        ),
    ];
    for (text, at, says) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("mmconform.toml"), text).unwrap();
        for command in ["run", "list"] {
            let (code, stderr) = run_in(dir.path(), &[command]);
            assert_eq!(code, 2, "{command} {text}: {stderr}");
            assert!(
                stderr.contains(at) && stderr.contains(says),
                "{text}: {stderr}"
            );
        }
    }
}

#[test]
fn other_commands_ignore_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mmconform.toml"), "nonsense = 1\n").unwrap();
    let (code, stderr) = run_in(dir.path(), &["lint"]);
    assert_eq!(code, 0, "{stderr}");
}

/// The CI guide's example project file is one mmconform reads without a complaint (the
/// docs tests also run `mmconform run` on it).
#[test]
fn the_guide_example_is_a_valid_project_file() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guide/ci.md")).unwrap();
    let start = page
        .find("```toml\n# mmconform.toml\n")
        .expect("the guide's example");
    let body = &page[start + "```toml\n".len()..];
    let example = &body[..body.find("```").unwrap()];
    assert!(example.contains("deadline =") && example.contains("junit ="));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mmconform.toml"), example).unwrap();
    // `list` reads and checks every key; the command line points it at the embedded host.
    let (code, stderr) = run_in(dir.path(), &["list", "--target", "reference"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("options from mmconform.toml"), "{stderr}");
}

#[test]
fn a_token_typed_where_its_variable_belongs_is_refused_without_echoing_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mmconform.toml"),
        "token_env = \"sk-secret-0123456789\"\n",
    )
    .unwrap();
    let (code, stderr) = run_in(dir.path(), &["run"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("mmconform.toml:1:13"), "{stderr}");
    assert!(stderr.contains("not the token itself"), "{stderr}");
    assert!(!stderr.contains("sk-secret"), "{stderr}");
}

/// The keys every profile needs: the witness, the deadline and the token variable plan
/// an openwop run; an AG-UI declaration plans `list`; the command line still wins.
#[test]
fn the_profile_keys_plan_the_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mmconform.toml"),
        "target = \"reference\"\nwitness = \"127.0.0.1:0\"\ndeadline = 120\n\
         token_env = \"HOST_TOKEN\"\nreport = \"r.json\"\n",
    )
    .unwrap();
    let out = bin()
        .current_dir(dir.path())
        .arg("run")
        .env("HOST_TOKEN", "t0ken-from-the-file's-variable")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let report = read_json(&dir.path().join("r.json")).unwrap();
    let witness = report["run"]["witness"].as_str().unwrap_or_default();
    assert!(
        witness.starts_with("http://127.0.0.1:"),
        "{}",
        report["run"]
    );
    let auth = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "openwop.auth.seam-requires-token")
        .unwrap();
    assert_eq!(auth["outcome"], "pass", "the token from token_env: {auth}");

    std::fs::write(
        dir.path().join("mmconform.toml"),
        "target = \"http://127.0.0.1:8000/agent\"\nprofile = \"agui\"\n\
         accepts = [\"image/\", \"application/pdf\"]\n",
    )
    .unwrap();
    let list = |extra: &[&str]| {
        let out = bin()
            .current_dir(dir.path())
            .args(["list", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["note"].to_string()
    };
    let declared = list(&[]);
    assert!(declared.contains("image/, application/pdf"), "{declared}");
    let declared = list(&["--accepts", "audio/wav"]);
    assert!(declared.contains("accepts audio/wav;"), "{declared}");
}

/// The documented precedence: command line, then environment, then the file. The
/// profile's target variable beats the file's `target` (here: a closed port, so a run
/// that used it would exit 4 instead of 0).
#[test]
fn the_target_variable_beats_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let project = PROJECT.replace(
        "target = \"reference\"",
        &format!("target = \"http://127.0.0.1:{closed}\""),
    );
    std::fs::write(dir.path().join("mmconform.toml"), project).unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args(["run"])
        .env("OPENWOP_BASE_URL", "reference")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report = read_json(&dir.path().join("out/report.json")).expect("a report");
    assert!(
        report["run"]["target"]
            .as_str()
            .is_some_and(|t| t.starts_with("reference")),
        "{}",
        report["run"]
    );
}

/// The CI project file the user guide shows, against its stand-in host (`reference`):
/// `require = true` judges requirements, so the skipped siblings of an exercised one do
/// not fail, and the two cases only the user can enable (a media URL the host can fetch,
/// a token) are waived by name. Without the waiver they fail, each naming what to pass.
const CI_PROJECT: &str = r#"# mmconform.toml
target = "reference"
profile = "openwop"
filters = ["openwop.*"]
junit = "junit.xml"
report = "evidence.json"
strict = false
require = true
# cases that need what only you can give: a --media-base-url the host can fetch, a token
waive = ["openwop.rfc0091.advertised-url-accepted", "openwop.auth.seam-requires-token"]
timeout = 30
concurrency = 8
"#;

#[test]
fn the_ci_project_file_passes_under_require_against_its_stand_in() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mmconform.toml"), CI_PROJECT).unwrap();
    let (code, stderr) = run_in(dir.path(), &["run"]);
    let report = read_json(&dir.path().join("evidence.json")).expect("a report");
    assert_eq!(code, 0, "{stderr}\n{}", report["summary"]);
    assert_eq!(report["run"]["require"], true);
    assert!(
        !ids(&report, "skip").is_empty(),
        "skipped siblings stay skips"
    );
    assert_junit_valid(&dir.path().join("junit.xml"));

    // Without the waiver, the cases only the user can enable fail, saying what to pass.
    let unwaived = CI_PROJECT
        .lines()
        .filter(|l| !l.starts_with("waive"))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(dir.path().join("mmconform.toml"), unwaived).unwrap();
    let (code, stderr) = run_in(dir.path(), &["run"]);
    assert_eq!(code, 1, "{stderr}");
    let report = read_json(&dir.path().join("evidence.json")).unwrap();
    let failed = ids(&report, "fail");
    assert!(
        failed.iter().all(
            |id| id.starts_with("openwop.rfc0091.advertised-url-accepted")
                // and its `@v2` twin: the default auto run judges both majors
                || id.starts_with("openwop.auth.seam-requires-token")
        ),
        "{failed:?}"
    );
    let reasons: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] == "fail")
        .filter_map(|c| c["reason"].as_str())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("not exercised") && r.contains("--media-base-url")),
        "{reasons:?}"
    );
}

#[test]
fn self_hosted_provider_names_the_rfc0108_id_as_the_flag_does() {
    let dir = tempfile::tempdir().unwrap();
    let project = "target = \"reference\"\nfilters = [\"openwop.rfc0108.self-hosted-served\"]\n\
                   report = \"report.json\"\nself_hosted_provider = \"from-file\"\n";
    std::fs::write(dir.path().join("mmconform.toml"), project).unwrap();
    let out = bin()
        .current_dir(dir.path())
        .env(
            "OPENWOP_TEST_COMPAT_ENDPOINT",
            "http://compat.example.invalid:8089/v1",
        )
        .args(["run", "--openwop-major", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report = read_json(&dir.path().join("report.json")).expect("report");
    let cases = report["cases"].as_array().unwrap();
    let case = cases
        .iter()
        .find(|c| c["id"] == "openwop.rfc0108.self-hosted-served")
        .expect("the case is in the report");
    assert_eq!(case["outcome"], "pass", "{case}");
    let notes = case["notes"].to_string();
    assert!(
        notes.contains("`from-file`, named by --self-hosted-provider"),
        "{notes}"
    );
}

#[test]
fn the_file_is_found_in_a_parent_up_to_the_repository_root_or_named_by_the_environment() {
    let root = tempfile::tempdir().unwrap();
    let repo = root.path().join("repo");
    let deep = repo.join("hosts").join("mine");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::create_dir(repo.join(".git")).unwrap();
    // From a subdirectory with no file anywhere: the no-target error says where it looked.
    let (code, stderr) = run_in(&deep, &["run"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "no mmconform.toml in {} or its parents up to the repository root {}",
            deep.display(),
            repo.display()
        )),
        "{stderr}"
    );
    // In the repository root: found from the subdirectory, its paths relative to it.
    std::fs::write(repo.join("mmconform.toml"), PROJECT).unwrap();
    let (code, stderr) = run_in(&deep, &["run", "-q"]);
    assert_eq!(code, 0, "{stderr}");
    let named = format!(
        "options from {} (a parent of the current directory;",
        repo.join("mmconform.toml").display()
    );
    assert!(stderr.contains(&named), "{stderr}");
    assert!(repo.join("out/report.json").is_file());
    // $MMCONFORM_CONFIG names another file; --config wins over it.
    let other = root.path().join("other.toml");
    std::fs::write(
        &other,
        "target = \"reference\"\nfilters = [\"openwop.rfc0091.text-part-accepted\"]\n",
    )
    .unwrap();
    let out = bin()
        .current_dir(&deep)
        .env("MMCONFORM_CONFIG", &other)
        .args(["run", "-q", "--report", "env.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("($MMCONFORM_CONFIG;"), "{stderr}");
    let report = read_json(&deep.join("env.json")).unwrap();
    assert_eq!(ids(&report, ""), ["openwop.rfc0091.text-part-accepted"]);
    let out = bin()
        .current_dir(&deep)
        .env("MMCONFORM_CONFIG", root.path().join("missing.toml"))
        .args(["run"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("$MMCONFORM_CONFIG"));
}

#[test]
fn an_unknown_key_gets_the_closest_and_every_key_the_file_takes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mmconform.toml"), "targt = \"reference\"\n").unwrap();
    let (code, stderr) = run_in(dir.path(), &["run"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("unknown key `targt`; did you mean `target`?"),
        "{stderr}"
    );
    assert!(stderr.contains("mmconform.toml:1:1"), "{stderr}");
    // The protocols' own keys are keys too.
    std::fs::write(dir.path().join("mmconform.toml"), "modle = \"m\"\n").unwrap();
    let (_, stderr) = run_in(dir.path(), &["run"]);
    assert!(stderr.contains("did you mean `model`?"), "{stderr}");
}
