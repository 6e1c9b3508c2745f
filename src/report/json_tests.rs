use super::*;
use crate::event_fixtures as fixtures;
use crate::outcome::Outcome;
use serde_json::Value;

const SCHEMA: &str = include_str!("../../schemas/report.schema.json");

fn write(events: &[Event]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("evidence/report.json");
    let mut reporter = JsonReporter::new(path.clone());
    fixtures::feed(&mut reporter, events);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Every schema violation in `report`, as `path: message` lines.
fn violations(report: &Value) -> Vec<String> {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the report schema is itself valid");
    validator
        .iter_errors(report)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn a_full_report_matches_the_schema() {
    let report = write(&fixtures::events());
    assert_eq!(violations(&report), Vec::<String>::new());
}

#[test]
fn cases_are_in_plan_order_with_lowercase_outcomes_and_counts_by_name() {
    let report = write(&fixtures::events());
    assert_eq!(report["reportVersion"], 2);
    assert_eq!(report["planned"], 9);
    let ids: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = fixtures::cases().into_iter().map(|c| c.id).collect();
    assert_eq!(ids, expected);
    assert_eq!(report["cases"][1]["outcome"], "fail");
    assert_eq!(report["summary"]["counts"]["excluded"], 1);
    // The discovery document is kept verbatim, key order included.
    let keys: Vec<&String> = report["discovery"]["document"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["openwop", "aiProviders"]);
}

#[test]
fn an_interrupted_run_still_writes_a_valid_report_with_what_it_has() {
    let report = write(&fixtures::events_finishing_in(&[3, 1]));
    assert_eq!(violations(&report), Vec::<String>::new());
    assert_eq!(report["cases"].as_array().unwrap().len(), 2);
    assert_eq!(report["summary"]["incomplete"], true);
}

#[test]
fn a_run_that_ended_before_discovery_and_plan_is_still_valid() {
    let events = [
        Event::RunStarted(Box::new(fixtures::run_info())),
        Event::RunFinished(fixtures::summary(&[], true)),
    ];
    let report = write(&events);
    assert_eq!(violations(&report), Vec::<String>::new());
    assert_eq!(report["discovery"], Value::Null);
    assert_eq!(report["planned"], Value::Null);
}

#[test]
fn a_failed_discovery_is_valid() {
    let mut discovery = fixtures::discovery();
    discovery.status = None;
    discovery.document = None;
    discovery.canonical_sha256 = None;
    discovery.problem = Some("connection refused".into());
    discovery.facts = Value::Null;
    let events = [
        Event::RunStarted(Box::new(fixtures::run_info())),
        Event::Discovery(discovery),
        Event::RunFinished(fixtures::summary(&[], false)),
    ];
    assert_eq!(violations(&write(&events)), Vec::<String>::new());
}

/// A description and a way to break a valid report.
type Mutation = (&'static str, fn(&mut Value));

#[test]
fn the_schema_is_closed_and_typed() {
    let good = write(&fixtures::events());
    let mutations: Vec<Mutation> = vec![
        ("extra top-level field", |r| r["extra"] = Value::Bool(true)),
        ("extra case field", |r| r["cases"][0]["extra"] = Value::Null),
        ("unknown outcome", |r| {
            r["cases"][0]["outcome"] = "maybe".into()
        }),
        ("upper-case outcome", |r| {
            r["cases"][0]["outcome"] = "PASS".into()
        }),
        ("unknown count key", |r| {
            r["summary"]["counts"]["ok"] = 1.into()
        }),
        ("bad level", |r| {
            r["cases"][0]["requirement"]["level"] = "must".into()
        }),
        ("bad timestamp", |r| {
            r["run"]["started_at"] = "yesterday".into()
        }),
        ("bad sha", |r| {
            r["discovery"]["canonical_sha256"] = "xyz".into()
        }),
        ("header triple", |r| {
            r["cases"][0]["exchanges"][0]["request"]["headers"][0] =
                serde_json::json!(["a", "b", "c"])
        }),
        ("missing reason", |r| {
            r["cases"][0].as_object_mut().unwrap().remove("reason");
        }),
        ("wrong version", |r| r["reportVersion"] = 1.into()),
    ];
    for (what, mutate) in mutations {
        let mut report = good.clone();
        mutate(&mut report);
        assert!(!violations(&report).is_empty(), "schema accepted: {what}");
    }
}

#[test]
fn every_outcome_name_is_allowed_by_the_schema() {
    // Guards against the enum and the schema drifting apart.
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    let names: Vec<&str> = schema["$defs"]["outcome"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut expected: Vec<&str> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
    let mut names_sorted = names.clone();
    names_sorted.sort();
    expected.sort();
    assert_eq!(names_sorted, expected);
}

#[test]
fn an_agui_report_carries_the_declaration_and_each_stream_and_matches_the_schema() {
    let report = write(&fixtures::agui_events("s3"));
    assert_eq!(violations(&report), Vec::<String>::new());
    assert_eq!(report["run"]["profile"], "agui");
    assert_eq!(
        report["run"]["declared"]["accepts"],
        serde_json::json!(["image/", "audio/wav"])
    );
    assert_eq!(
        report["run"]["declared"]["undeclared_kinds"],
        serde_json::json!(["video", "document"])
    );
    assert_eq!(report["discovery"], Value::Null);
    assert_eq!(report["cases"][0]["stream"]["classification"], "run-error");
    assert_eq!(
        report["cases"][0]["stream"]["terminal"]["code"],
        "unsupported"
    );
    assert_eq!(report["cases"][1]["stream"]["classification"], "completed");
    // openwop reports keep their shape: no `declared`, no `stream`.
    let openwop = write(&fixtures::events());
    assert!(openwop["run"].get("declared").is_none());
    assert!(openwop["cases"][0].get("stream").is_none());
    let mut bad = report.clone();
    bad["cases"][0]["stream"]["classification"] = "fine".into();
    assert!(!violations(&bad).is_empty());
}

/// A witness run's report: calls of both wires, with problems, as cases.
fn witness_events() -> Vec<Event> {
    use crate::witness::{Limits, Wire, case, decode_call};
    use base64::Engine as _;
    let b64 = |mime: &str| {
        base64::engine::general_purpose::STANDARD.encode(mmconform_media::generate(mime, "n-p0"))
    };
    let openai = serde_json::json!({"model": "m", "messages": [
        {"role": "system", "content": "s"},
        {"role": "user", "content": [
            {"type": "text", "text": ""},
            {"type": "image_url", "image_url": {"url": format!("data:application/pdf;base64,{}", b64("application/pdf")), "detail": "high"}},
            {"type": "input_audio", "input_audio": {"data": b64("audio/wav"), "format": "wav"}},
            {"type": "file", "file": {"file_id": "file-1"}},
            {"type": "image_url", "image_url": {"url": "https://example.test/a.png"}},
            {"type": "made_up"},
        ]},
    ]});
    let anthropic = serde_json::json!({"system": "s", "stream": true, "messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "t"}},
    ]}]});
    let limits = Limits::default();
    let calls = [
        decode_call(
            Wire::OpenaiChat,
            "/v1/chat/completions",
            openai.to_string().as_bytes(),
            &limits,
            1,
        ),
        decode_call(
            Wire::AnthropicMessages,
            "/v1/messages",
            anthropic.to_string().as_bytes(),
            &limits,
            2,
        ),
        decode_call(Wire::OpenaiChat, "/v1/chat/completions", b"{", &limits, 3),
    ];
    use crate::runner::verdict::{Findings, decide};
    let cases: Vec<CaseResult> = calls
        .iter()
        .map(|call| decide(Findings::observed(case::observe(call)), false))
        .collect();
    let mut events = vec![Event::RunStarted(Box::new(fixtures::run_info()))];
    for (index, case) in cases.iter().enumerate() {
        events.push(Event::CaseFinished {
            index,
            result: Box::new(case.clone()),
        });
    }
    events.push(Event::RunFinished(fixtures::summary(&cases, false)));
    events
}

#[test]
fn a_witness_report_matches_the_schema() {
    let report = write(&witness_events());
    assert_eq!(violations(&report), Vec::<String>::new());
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    assert_eq!(cases[0]["stream"]["parts"][2]["stamps"][0], "n-p0");
    assert_eq!(cases[1]["stream"]["parts"][0]["message"], Value::Null);
    assert_eq!(cases[2]["stream"]["problems"][0]["code"], "malformed_json");
    // A witness record is not an agui stream, and the reverse: neither schema takes both.
    let mut broken = report.clone();
    broken["cases"][0]["stream"]["classification"] = "completed".into();
    assert!(!violations(&broken).is_empty());
}

#[test]
fn the_schema_names_every_witness_problem_code() {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    let listed = &schema["$defs"]["witnessProblem"]["properties"]["code"]["enum"];
    let ours: Vec<Value> = crate::witness::record::ProblemCode::ALL
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    assert_eq!(listed.as_array().unwrap(), &ours);
}
