use super::*;
use crate::event_fixtures as fixtures;

fn write(events: &[Event]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out/junit.xml");
    let mut reporter = JunitReporter::new(path.clone());
    fixtures::feed(&mut reporter, events);
    std::fs::read_to_string(&path).unwrap()
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
fn one_suite_per_source_in_plan_order_and_every_selected_case() {
    let report = parse(&write(&fixtures::events()));
    let names: Vec<&str> = report.test_suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["RFC 0091 §A", "RFC 0091 §B", "RFC 0091 §C"]);
    // Nine planned, one excluded: eight test cases, one per selected case; the
    // expected failure is skipped for a CI gate.
    assert_eq!(report.tests, 8);
    assert_eq!(report.failures, 1);
    assert_eq!(report.errors, 2);
    assert_eq!(report.skipped, 2);
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
    assert_eq!(a.test_cases[0].classname.as_deref(), Some("rfc0091-input"));
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
        TestCaseStatus::Skipped { message, .. } => assert_eq!(
            message.as_deref(),
            Some("not-applicable: aiProviders.input.modalities lacks audio")
        ),
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
    let class = case
        .properties
        .iter()
        .find(|p| p.name.as_str() == "stream.classification")
        .map(|p| p.value.to_string());
    assert_eq!(class.as_deref(), Some("completed"));
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
}
