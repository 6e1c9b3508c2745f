//! `mmconform calibrate`: the built-in suite is calibrated (every case fails against
//! some broken host, every fault is caught), and a vacuous case is named and fails it.

use crate::common::{all_faults, bin, fixture, forwarding_faults};
use serde_json::Value;

fn calibrate(args: &[&str]) -> (i32, String, String) {
    let out = bin()
        .arg("calibrate")
        .args(args)
        // Minutes alone in a debug build (four protocols, 22 setups; the agentruntime
        // shapes start a bridge process per case); several times that beside the rest of
        // the suite on two cores (601 s seen once on a loaded machine, and the Responses
        // and Anthropic doors add eight setups), hence the margin.
        .timeout(std::time::Duration::from_secs(1500))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The whole built-in suite against every shape and fault: minutes in a debug build,
/// so `make test` leaves it out and `.ci/run` runs it on its own, once
/// (`cargo nextest run --profile calibration --run-ignored only`). The smaller tests
/// below calibrate a filtered subset and a vacuous case on every `make test`.
#[test]
#[ignore = "minutes long: .ci/run runs it alone (nextest profile `calibration`)"]
fn the_builtin_suite_is_calibrated_and_every_variant_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    // `.ci/run` keeps the report as an artefact.
    let report = std::env::var_os("MMCONFORM_CALIBRATION_REPORT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| dir.path().join("calibration.json"));
    let (code, stdout, stderr) = calibrate(&["--report", report.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("verdict: calibrated"), "{stdout}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(doc["calibrated"], true);
    let matrix = &doc["matrix"];
    let variants = matrix["variants"].as_array().unwrap();
    // Every fault the reference host, agent and server have is in the matrix, and
    // caught; the forwarding faults only in the setups whose host forwards to a witness,
    // and each by a failed `witness.*` judgement.
    let forwarding: Vec<String> = ["openwop", "agui", "openai"]
        .iter()
        .flat_map(|p| forwarding_faults(p))
        .map(|f| f.trim_start_matches("openwop:").to_string())
        .collect();
    let mut faults = all_faults("openwop");
    assert!(faults.len() >= 57, "{faults:?}");
    let agent_faults = all_faults("agui");
    assert!(agent_faults.len() >= 25, "{agent_faults:?}");
    faults.extend(agent_faults.iter().map(|f| format!("agui:{f}")));
    let server_faults = all_faults("openai");
    assert!(server_faults.len() >= 9, "{server_faults:?}");
    faults.extend(server_faults.iter().map(|f| format!("openai:{f}")));
    let runtime_faults = all_faults("agentruntime");
    assert!(runtime_faults.len() >= 20, "{runtime_faults:?}");
    faults.extend(runtime_faults.iter().map(|f| format!("agentruntime:{f}")));
    let acp_faults = all_faults("acp");
    assert!(acp_faults.len() >= 11, "{acp_faults:?}");
    faults.extend(acp_faults.iter().map(|f| format!("acp:{f}")));
    for fault in &faults {
        let row = variants
            .iter()
            .find(|v| v["name"] == fault.as_str())
            .unwrap_or_else(|| panic!("{fault} missing from the matrix"));
        assert_eq!(row["caught"], true, "{fault}");
    }
    assert!(forwarding.len() >= 19, "{forwarding:?}");
    let cases = matrix["cases"].as_array().unwrap();
    for fault in &forwarding {
        let row = variants
            .iter()
            .find(|v| v["name"] == fault.as_str())
            .unwrap();
        let setups = row["setups"].as_array().unwrap();
        assert!(
            setups
                .iter()
                .all(|s| s.as_str().is_some_and(|s| s.ends_with("witness"))),
            "{fault} runs only where the host forwards: {setups:?}"
        );
        if row["detection"] == "tolerated" {
            // A faithful transformation (the same picture in other bytes): no case may
            // fail on it, and some witness must have noted it.
            assert_eq!(row["caught_by"], serde_json::json!([]), "{fault}");
            assert!(
                !row["noted_by"].as_array().unwrap().is_empty(),
                "{fault} noted by no case"
            );
            continue;
        }
        assert!(
            cases.iter().any(|c| c["witness_caught"]
                .as_array()
                .unwrap()
                .contains(&Value::from(fault.as_str()))),
            "{fault} fails some case's expect.witness"
        );
    }
    // Every case whose expect.witness was judged was shown able to fail it.
    assert_eq!(matrix["witness_unproven"], serde_json::json!([]));
    let witnessed = cases
        .iter()
        .filter(|c| !c["witness_caught"].as_array().unwrap().is_empty())
        .count();
    assert!(
        witnessed >= 30,
        "{witnessed} cases' expect.witness shown to fail"
    );
    assert!(
        variants.iter().any(|v| v["kind"] == "schema-mutant"),
        "schema mutants calibrate the offline cases"
    );
    for key in [
        "vacuous",
        "never_ran",
        "blind_spots",
        "reference_problems",
        "errors",
    ] {
        assert_eq!(matrix[key], serde_json::json!([]), "{key}");
    }
    // Every case passed against some faithful host and was caught by some variant.
    for case in matrix["cases"].as_array().unwrap() {
        assert!(!case["passed_in"].as_array().unwrap().is_empty(), "{case}");
        assert!(!case["caught"].as_array().unwrap().is_empty(), "{case}");
    }
    let offline = matrix["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "openwop.rfc0021.envelope-ts-not-datetime")
        .unwrap();
    assert!(
        offline["caught"]
            .as_array()
            .unwrap()
            .contains(&Value::from("schema:ai-envelope:without-format")),
        "{offline}"
    );
}

#[test]
fn a_vacuous_scenario_fails_calibration_and_is_named() {
    let vacuous = fixture("calibration/vacuous.yaml");
    let steward = fixture("steward/new-rfc.yaml");
    let (code, stdout, stderr) = calibrate(&[
        "--no-builtin",
        "--scenarios",
        vacuous.to_str().unwrap(),
        "--scenarios",
        steward.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("VACUOUS    steward.vacuous.any-status"),
        "{stdout}"
    );
    assert!(
        stdout.contains("verdict: not calibrated: 1 vacuous case(s)"),
        "{stdout}"
    );
    // The steward's real case is calibrated alongside, and a partial suite is not
    // blamed for the faults it does not cover.
    assert!(!stdout.contains("VACUOUS    steward.rfc9999"), "{stdout}");
    assert!(!stdout.contains("BLIND"), "{stdout}");
}

#[test]
fn the_json_matrix_names_vacuous_cases_and_the_faults_each_case_caught() {
    let vacuous = fixture("calibration/vacuous.yaml");
    let (code, stdout, _) = calibrate(&[
        "--format",
        "json",
        "--no-builtin",
        "--scenarios",
        vacuous.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["calibrated"], false);
    assert_eq!(
        doc["matrix"]["vacuous"],
        serde_json::json!(["steward.vacuous.any-status"])
    );
    assert_eq!(doc["matrix"]["blind_spots_checked"], false);
}

#[test]
fn a_filtered_builtin_subset_is_calibrated_without_blind_spot_blame() {
    let (code, stdout, stderr) = calibrate(&["--filter", "openwop.rfc0091.unadvertised-rejected"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("accepts-unadvertised"), "{stdout}");
    assert!(stdout.contains("expected of a partial suite"), "{stdout}");
}

#[test]
fn a_broken_scenario_file_stops_calibration_before_any_host_runs() {
    let broken = fixture("broken/unknown-key.yaml");
    let (code, stdout, stderr) = calibrate(&["--scenarios", broken.to_str().unwrap()]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(stderr.contains("unknown-key.yaml:"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
}
