use super::*;
use crate::event_fixtures as fixtures;

#[path = "../../tests/common/junit_xsd.rs"]
mod junit_xsd;

/// The document the reporter writes for `events`, validated against `junit-10.xsd`.
fn write(events: &[Event]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out/junit.xml");
    let mut reporter = JunitReporter::new(path.clone());
    fixtures::feed(&mut reporter, events);
    junit_xsd::assert_junit_valid(&path);
    std::fs::read_to_string(&path).unwrap()
}

/// The fixture run with its §B and §C cases moved to a second scenario file.
fn events_in_two_files() -> Vec<Event> {
    let mut events = fixtures::events();
    for event in &mut events {
        if let Event::CaseFinished { result, .. } = event
            && result.requirement.source != "RFC 0091 §A"
        {
            result.scenario_file = "/work/my.limits.yaml".into();
        }
    }
    events
}

#[test]
fn an_openwop_2_twin_of_an_auto_run_is_a_suite_of_its_own() {
    let mut events = fixtures::events();
    for event in &mut events {
        if let Event::CaseFinished { result, .. } = event
            && result.requirement.source != "RFC 0091 §A"
        {
            result.case_id = format!("{}@v2", result.case_id);
            result.id = result
                .id
                .replacen(&result.case_id.replace("@v2", ""), &result.case_id, 1);
        }
    }
    let report = parse(&write(&events));
    let names: Vec<&str> = report.test_suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["openwop.rfc0091-input", "openwop.rfc0091-input@v2"]);
}

fn parse(xml: &str) -> Report {
    Report::deserialize_from_str(xml).unwrap_or_else(|e| panic!("invalid JUnit XML: {e}\n{xml}"))
}

#[test]
fn snapshot() {
    let xml = write(&fixtures::events());
    insta::with_settings!({filters => vec![
        (r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]"),
        (r#"time="[0-9.]+""#, r#"time="[DURATION]""#),
    ]}, {
        insta::assert_snapshot!("junit", xml);
    });
}

#[test]
fn one_suite_per_scenario_file_in_plan_order_named_as_its_classname() {
    let report = parse(&write(&events_in_two_files()));
    let names: Vec<&str> = report.test_suites.iter().map(|s| s.name.as_str()).collect();
    // The profile is the package, the file the class; a dot in a stem would split it.
    assert_eq!(names, ["openwop.rfc0091-input", "openwop.my-limits"]);
    for suite in &report.test_suites {
        for case in &suite.test_cases {
            assert_eq!(case.classname.as_deref(), Some(suite.name.as_str()));
            assert_eq!(case.assertions, None, "the xUnit schema has no assertions");
            assert!(case.properties.is_empty(), "nor test-case properties");
        }
    }
    // Nine planned, one excluded: eight test cases, one per selected case; the
    // expected failure is skipped for a CI gate.
    assert_eq!(report.tests, 8);
    assert_eq!(report.failures, 1);
    assert_eq!(report.errors, 2);
    let skipped: usize = report.test_suites.iter().map(|s| s.skipped).sum();
    assert_eq!(skipped, 2);
    let a = &report.test_suites[0];
    let ids: Vec<&str> = a.test_cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        ids,
        [
            "openwop.rfc0091.accept-inline[image]",
            "openwop.rfc0091.reject-unadvertised[audio]",
            "openwop.rfc0091.accept-inline[audio]",
            "openwop.rfc0091.bad-template[audio]",
            "openwop.rfc0091.reject-unadvertised[document]",
        ]
    );
}

#[test]
fn run_properties_are_written_once() {
    let xml = write(&events_in_two_files());
    assert_eq!(xml.matches("<properties>").count(), 1, "{xml}");
    assert_eq!(xml.matches(r#"name="target""#).count(), 1, "{xml}");
    let report = parse(&xml);
    assert!(!report.test_suites[0].properties.is_empty());
    assert!(report.test_suites[1].properties.is_empty());
    // `<testsuites>` carries no skipped count (the schema refuses it); suites do.
    let head = xml.lines().nth(1).unwrap();
    assert!(
        head.starts_with("<testsuites ") && !head.contains("skipped"),
        "{head}"
    );
}

#[test]
fn outcomes_map_to_junit_states() {
    let report = parse(&write(&fixtures::events()));
    let case = |id: &str| {
        report
            .test_suites
            .iter()
            .flat_map(|s| s.test_cases.iter())
            .find(|c| c.name.as_str() == id)
            .unwrap_or_else(|| panic!("{id} missing"))
            .clone()
    };
    match case("openwop.rfc0091.accept-inline[audio]").status {
        TestCaseStatus::Skipped {
            message,
            description,
            ..
        } => {
            let reason = "not-applicable: aiProviders.input.modalities lacks audio";
            assert_eq!(message.as_deref(), Some(reason));
            // GitLab shows the body, not the attribute: the reason leads it.
            let body = description.unwrap().into_string();
            assert!(body.starts_with(reason), "{body}");
        }
        other => panic!("skip became {other:?}"),
    }
    match case("openwop.rfc0091.reject-unadvertised[audio]").status {
        TestCaseStatus::NonSuccess {
            kind: NonSuccessKind::Failure,
            message,
            description,
            ..
        } => {
            assert_eq!(message.as_deref(), Some("status: expected 400; got 200"));
            let description = description.unwrap().into_string();
            assert!(description.contains("[MUST RFC 0091 §A]"), "{description}");
            assert!(
                description.contains("curl: curl -sS -X POST"),
                "{description}"
            );
        }
        other => panic!("fail became {other:?}"),
    }
    let warn = case("openwop.rfc0091.oversize-part[image]");
    assert!(matches!(warn.status, TestCaseStatus::Success { .. }));
    assert!(
        warn.system_err
            .unwrap()
            .starts_with("warn: status: expected 413; got 400")
    );
    for id in [
        "openwop.rfc0091.fetch-url[image]",
        "openwop.rfc0091.bad-template[audio]",
    ] {
        assert!(matches!(
            case(id).status,
            TestCaseStatus::NonSuccess {
                kind: NonSuccessKind::Error,
                ..
            }
        ));
    }
    match case("openwop.rfc0091.reject-unadvertised[document]").status {
        TestCaseStatus::Skipped {
            message,
            description,
            ..
        } => {
            assert_eq!(message.as_deref(), Some("expected-failure: HOST-42"));
            let description = description.unwrap().into_string();
            assert!(description.starts_with("expected-failure: HOST-42\n"));
            assert!(
                description.contains("status: expected 400; got 200"),
                "the baselined failure stays visible: {description}"
            );
        }
        other => panic!("xfail became {other:?}"),
    }
}

#[test]
fn properties_carry_version_target_discovery_hash_and_mode() {
    let report = parse(&write(&fixtures::events()));
    let props = &report.test_suites[0].properties;
    let get = |name: &str| {
        props
            .iter()
            .find(|p| p.name.as_str() == name)
            .map(|p| p.value.to_string())
    };
    assert_eq!(get("mmconform.version").as_deref(), Some("0.1.0"));
    assert_eq!(get("target").as_deref(), Some(fixtures::BASE));
    assert_eq!(get("discovery.sha256"), Some("b".repeat(64)));
    assert_eq!(get("mode").as_deref(), Some("default"));
    assert_eq!(get("nonce").as_deref(), Some("mmc-7f3a9c"));
}

#[test]
fn hostile_bodies_still_give_well_formed_xml() {
    let mut events = fixtures::events();
    for event in &mut events {
        if let Event::CaseFinished { result, .. } = event {
            for exchange in &mut result.exchanges {
                if let Some(response) = exchange.response.as_mut() {
                    response.body =
                        "end ]]> \u{1b}[31mred\u{1b}[0m \u{0}\u{7}\u{b} <x>&amp;".into();
                }
            }
            result.reason = Some("reason with ]]> and \u{1b}[1m and \u{8}".into());
        }
    }
    let xml = write(&events);
    assert!(!xml.contains('\u{1b}'));
    assert!(
        !xml.chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    );
    let report = parse(&xml);
    let out = report.test_suites[0].test_cases[0]
        .system_out
        .clone()
        .unwrap()
        .into_string();
    // The text survives the round trip; only the escape codes and control bytes go.
    assert!(out.contains("end ]]> red"), "{out}");
    assert!(out.contains("<x>&amp;"), "{out}");
}

#[test]
fn an_interrupted_run_writes_what_it_has() {
    // Only case 2 finished before the interruption; there was a plan of 8.
    let xml = write(&fixtures::events_finishing_in(&[2]));
    let report = parse(&xml);
    assert_eq!(report.tests, 1);
    assert!(
        xml.contains(r#"<property name="incomplete" value="true"/>"#),
        "{xml}"
    );
}

#[test]
fn a_run_with_no_case_keeps_its_verdict_and_properties() {
    let events = [
        Event::RunStarted(Box::new(fixtures::run_info())),
        Event::RunFinished(fixtures::summary(&[], true)),
    ];
    let report = parse(&write(&events));
    assert_eq!(report.tests, 0);
    let suite = &report.test_suites[0];
    assert_eq!(suite.name.as_str(), "mmconform");
    assert!(suite.properties.iter().any(|p| p.name.as_str() == "target"));
    assert!(
        suite
            .system_err
            .as_deref()
            .unwrap()
            .starts_with("verdict: failed (exit 1)")
    );
}

#[test]
fn agui_runs_carry_the_declaration_and_each_case_its_stream() {
    let xml = write(&fixtures::agui_events("s3"));
    let report = parse(&xml);
    let suite = &report.test_suites[0];
    let property = |name: &str| {
        suite
            .properties
            .iter()
            .find(|p| p.name.as_str() == name)
            .map(|p| p.value.to_string())
    };
    assert_eq!(
        property("agui.accepts").as_deref(),
        Some("image/,audio/wav")
    );
    assert_eq!(property("agui.sources").as_deref(), Some("data"));
    assert_eq!(property("agui.declared-by").as_deref(), Some("--accepts"));
    let case = &suite.test_cases[1];
    assert!(
        case.properties.is_empty(),
        "the stream record is the JSON report's"
    );
    let out = case
        .system_out
        .as_ref()
        .map(|s| s.to_string())
        .unwrap_or_default();
    assert!(
        out.starts_with(
            "stream: completed: RUN_FINISHED after 2 events\nevents: RUN_STARTED RUN_FINISHED"
        ),
        "{out}"
    );
    assert_eq!(case.classname.as_deref(), Some("agui.refuse"));
}
