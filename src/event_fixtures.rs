//! Synthetic runs for the tests of everything that consumes events (reporters, the
//! ledger, the baseline tracker): every outcome, realistic evidence, and a writer
//! the test can read back.
//!
//! Reporters only render events, so a hand-built event stream exercises all of their
//! behaviour without a host, a runner or a network.

use crate::event::{DiscoverySnapshot, Event, RunInfo, RunSummary};
use crate::outcome::{
    AssertionResult, CaseResult, Exchange, ExpectedFailure, Level, Outcome, RecordedRequest,
    RecordedResponse, Requirement,
};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

pub const BASE: &str = "http://127.0.0.1:54321";

/// A `Write` whose bytes the test keeps a handle to after boxing it into a reporter.
#[derive(Clone, Default)]
pub struct SharedBuf(pub Arc<Mutex<Vec<u8>>>);

impl SharedBuf {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub fn run_info() -> RunInfo {
    let (protocol_options, protocol_view) = crate::protocol::openwop::evidence::run_options(
        crate::protocol::openwop::Dialect::Spec,
        crate::protocol::openwop::options::OpenwopMajor::One,
    );
    RunInfo {
        tool_version: "0.1.0".into(),
        profile: "openwop".into(),
        target: BASE.into(),
        protocol_options,
        strict: false,
        require: false,
        opted_out_profiles: vec![],
        filters: vec!["!openwop.rfc0021.*".into()],
        concurrency: 4,
        started_at: "2025-06-01T12:00:00Z".into(),
        nonce: "mmc-7f3a9c".into(),
        scenario_set_sha256: "a".repeat(64),
        scenario_files: vec![("builtin:openwop/rfc0091-input.yaml".into(), "ab".repeat(32))],
        baseline: None,
        declared: None,
        warnings: vec![],
        insecure_tls: false,
        witness: None,
        rerun_base: vec![
            "mmconform".into(),
            "run".into(),
            "--target".into(),
            BASE.into(),
        ],
        report_file: None,
        protocol_view,
    }
}

pub fn discovery() -> DiscoverySnapshot {
    DiscoverySnapshot {
        url: format!("{BASE}/.well-known/openwop"),
        status: Some(200),
        document: Some(serde_json::json!({
            "openwop": "1.0",
            "aiProviders": {"input": {"modalities": ["text", "image"], "maxBytesPerPart": 1048576}}
        })),
        canonical_sha256: Some("b".repeat(64)),
        problem: None,
        facts: serde_json::json!({"modalities": ["text", "image"], "maxBytesPerPart": 1048576}),
        variants: Default::default(),
        notes: Vec::new(),
    }
}

pub fn requirement(source: &str, level: Level, text: &str) -> Requirement {
    Requirement {
        source: source.into(),
        level,
        text: text.into(),
    }
}

fn assertion(check: &str, expected: &str, actual: &str, passed: bool) -> AssertionResult {
    AssertionResult::new(check, expected.into(), actual.into(), passed)
}

/// A POST to the AI call seam carrying `part`, answered with `status` and `body`.
pub fn exchange(part: &str, status: Option<u16>, body: &str) -> Exchange {
    let request_body = format!(r#"{{"input":[{{"type":"{part}","data":"<base64 elided>"}}]}}"#);
    Exchange {
        request: RecordedRequest {
            method: "POST".into(),
            url: format!("{BASE}/v1/ai/call"),
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("authorization".into(), "[REDACTED]".into()),
            ],
            body: Some(request_body.clone()),
            sent: None,
        },
        response: status.map(|status| RecordedResponse {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.into(),
            truncated: false,
        }),
        curl: format!(
            "curl -sS -X POST '{BASE}/v1/ai/call' -H 'authorization: Bearer $TOKEN' \
             -H 'content-type: application/json' --data '{request_body}'"
        ),
        retries: 0,
        notes: vec![],
        seq: None,
        cached: false,
    }
}

/// A decided case with no evidence yet; tests add what they need.
pub fn case(id: &str, case_id: &str, requirement: Requirement, outcome: Outcome) -> CaseResult {
    CaseResult {
        id: id.into(),
        case_id: case_id.into(),
        title: format!("title of {case_id}"),
        requirement,
        scenario_file: "builtin:openwop/rfc0091-input.yaml".into(),
        bindings: vec![],
        outcome,
        reason: None,
        notes: vec![],
        assertions: vec![],
        decided_on: vec![],
        duration_ms: 0,
        exchanges: vec![],
        expected_failure: None,
        stream: None,
        model_calls: None,
        self_check: false,
        cause: None,
    }
}

const ACCEPT: &str =
    "A host MUST accept every modality it advertises in aiProviders.input.modalities.";
const REJECT: &str = "A host MUST refuse a part whose modality it does not advertise with 400 and error code unsupported_modality.";
const LIMIT: &str = "A host SHOULD answer a part above maxBytesPerPart with 413.";
const URL: &str = "A host MUST fetch media given by URL.";

/// One case per outcome, in plan order.
pub fn cases() -> Vec<CaseResult> {
    let source_a = "RFC 0091 §A";
    let mut pass = case(
        "openwop.rfc0091.accept-inline[image]",
        "openwop.rfc0091.accept-inline",
        requirement(source_a, Level::Must, ACCEPT),
        Outcome::Pass,
    );
    pass.bindings = vec![("modality".into(), "image".into())];
    pass.assertions = vec![assertion("status", "2xx", "200", true)];
    pass.duration_ms = 12;
    pass.exchanges = vec![exchange("image", Some(200), r#"{"output":"a red square"}"#)];

    let mut fail = case(
        "openwop.rfc0091.reject-unadvertised[audio]",
        "openwop.rfc0091.reject-unadvertised",
        requirement(source_a, Level::Must, REJECT),
        Outcome::Fail,
    );
    fail.bindings = vec![("modality".into(), "audio".into())];
    fail.reason = Some("status: expected 400; got 200".into());
    fail.assertions = vec![
        assertion("status", "400", "200", false),
        assertion(
            "error_code",
            "unsupported_modality",
            "(no error body)",
            false,
        ),
        assertion("content_type", "application/json", "application/json", true),
    ];
    fail.duration_ms = 8;
    fail.exchanges = vec![exchange(
        "audio",
        Some(200),
        r#"{"output":"I heard nothing"}"#,
    )];

    let mut warn = case(
        "openwop.rfc0091.oversize-part[image]",
        "openwop.rfc0091.oversize-part",
        requirement("RFC 0091 §B", Level::Should, LIMIT),
        Outcome::Warn,
    );
    warn.reason = Some("status: expected 413; got 400".into());
    warn.notes = vec!["413 preferred, host answered 400 with error code too_large".into()];
    warn.assertions = vec![
        assertion("status", "413", "400", false),
        assertion("error_code", "too_large", "too_large", true),
    ];
    warn.duration_ms = 31;
    warn.exchanges = vec![exchange(
        "image",
        Some(400),
        r#"{"error":{"code":"too_large","message":"part exceeds 1048576 bytes"}}"#,
    )];

    let mut skip = case(
        "openwop.rfc0091.accept-inline[audio]",
        "openwop.rfc0091.accept-inline",
        requirement(source_a, Level::Must, ACCEPT),
        Outcome::Skip,
    );
    skip.reason = Some("aiProviders.input.modalities lacks audio".into());
    skip.decided_on = vec!["aiProviders.input.modalities = [text, image]".into()];

    let mut excluded = case(
        "openwop.rfc0021.envelope-shape",
        "openwop.rfc0021.envelope-shape",
        requirement(
            "RFC 0021 §3",
            Level::Must,
            "An AI envelope MUST carry a kind.",
        ),
        Outcome::Excluded,
    );
    excluded.reason = Some("excluded by filter !openwop.rfc0021.*".into());

    let mut blocked = case(
        "openwop.rfc0091.fetch-url[image]",
        "openwop.rfc0091.fetch-url",
        requirement("RFC 0091 §C", Level::Must, URL),
        Outcome::Blocked,
    );
    blocked.reason = Some("seam missing: POST /v1/ai/call answered 404".into());
    blocked.duration_ms = 5;
    blocked.exchanges = vec![exchange("image", Some(404), "not found")];

    let mut error = case(
        "openwop.rfc0091.bad-template[audio]",
        "openwop.rfc0091.bad-template",
        requirement(source_a, Level::Must, ACCEPT),
        Outcome::Error,
    );
    error.reason = Some("scenario defect: placeholder {{media.flac}} names no media".into());
    error.duration_ms = 1;

    let mut pass_b = case(
        "openwop.rfc0091.oversize-part[document]",
        "openwop.rfc0091.oversize-part",
        requirement("RFC 0091 §B", Level::Should, LIMIT),
        Outcome::Pass,
    );
    pass_b.assertions = vec![assertion("status", "413", "413", true)];
    pass_b.duration_ms = 1234;
    pass_b.exchanges = vec![exchange(
        "document",
        Some(413),
        r#"{"error":{"code":"too_large"}}"#,
    )];

    let mut xfail = case(
        "openwop.rfc0091.reject-unadvertised[document]",
        "openwop.rfc0091.reject-unadvertised",
        requirement(source_a, Level::Must, REJECT),
        Outcome::Xfail,
    );
    xfail.reason = Some("expected failure: HOST-42 (baseline baseline.yaml:6)".into());
    xfail.notes = vec!["baselined failure: status: expected 400; got 200".into()];
    xfail.assertions = vec![assertion("status", "400", "200", false)];
    xfail.duration_ms = 3;
    xfail.exchanges = vec![exchange("document", Some(200), r#"{"output":"a pdf"}"#)];
    xfail.expected_failure = Some(ExpectedFailure {
        entry: "openwop.rfc0091.reject-unadvertised[document]".into(),
        reason: "HOST-42".into(),
        expires: Some("2027-01-31".into()),
    });

    vec![
        pass, fail, warn, skip, excluded, blocked, error, xfail, pass_b,
    ]
}

pub fn summary(cases: &[CaseResult], incomplete: bool) -> RunSummary {
    let mut counts = BTreeMap::new();
    for outcome in Outcome::ALL {
        counts.insert(outcome, 0);
    }
    for case in cases {
        *counts.entry(case.outcome).or_insert(0) += 1;
    }
    RunSummary {
        counts,
        self_checks: BTreeMap::new(),
        exit_code: 1,
        verdict: "failed".into(),
        explanation: "1 MUST requirement was not met.".into(),
        duration_ms: 1530,
        finished_at: "2025-06-01T12:00:02Z".into(),
        incomplete,
        baseline_drift: Vec::new(),
        flaky: 0,
        deadline_reached: false,
        advice: Vec::new(),
    }
}

/// A whole run whose cases finish in `completion` order (indices into plan order).
pub fn events_finishing_in(completion: &[usize]) -> Vec<Event> {
    let cases = cases();
    let mut events = vec![
        Event::RunStarted(Box::new(run_info())),
        Event::Discovery(discovery()),
        Event::Planned { total: cases.len() },
    ];
    for &index in completion {
        events.push(Event::CaseFinished {
            index,
            result: Box::new(cases[index].clone()),
        });
    }
    let decided: Vec<CaseResult> = completion.iter().map(|&i| cases[i].clone()).collect();
    events.push(Event::RunFinished(summary(
        &decided,
        completion.len() < cases.len(),
    )));
    events
}

/// A whole run, cases finishing out of order as they do under concurrency.
pub fn events() -> Vec<Event> {
    events_finishing_in(&[1, 0, 3, 2, 4, 6, 8, 7, 5])
}

/// Run `reporter` over `events`, failing the test on any report error.
pub fn feed(reporter: &mut dyn crate::report::Reporter, events: &[Event]) {
    for event in events {
        reporter.handle(event).unwrap();
    }
}

/// An agui run: a declaration instead of discovery, and stream evidence on each case.
/// The RUN_ERROR message repeats `secret`, which every reporter must redact.
pub fn agui_events(secret: &str) -> Vec<Event> {
    use crate::protocol::agui::classify::{ReadEnd, TerminalEvent};
    use crate::protocol::agui::evidence::{of_declaration, of_stream};
    use crate::protocol::agui::{Declaration, StreamClass, StreamEvidence};
    let mut run = run_info();
    run.profile = "agui".into();
    run.protocol_options = Default::default();
    run.protocol_view = Default::default();
    run.declared = Some(of_declaration(
        &Declaration::new(
            &["image/".into(), "audio/wav".into()],
            &["data".into()],
            true,
            "--accepts",
        )
        .unwrap(),
    ));
    let evidence = |classification, terminal: Option<TerminalEvent>| StreamEvidence {
        classification,
        status: 200,
        content_type: Some("text/event-stream".into()),
        event_stream: true,
        events: vec!["RUN_STARTED".into(), "RUN_FINISHED".into()],
        events_total: 2,
        terminal,
        problems: vec![],
        ended_by: ReadEnd::Eof,
        bytes: 120,
        echo: Some(serde_json::json!({"parts": [{"type": "text"}]})),
    };
    let mut pass = case(
        "agui.undeclared-kind-refused[video]",
        "agui.undeclared-kind-refused",
        requirement(
            "AG-UI 1.0 declared capabilities",
            Level::Must,
            "An agent MUST NOT complete a run on a part it does not accept.",
        ),
        Outcome::Pass,
    );
    pass.scenario_file = "builtin:agui/refuse.yaml".into();
    pass.assertions = vec![assertion(
        "stream.classification",
        "one of rejected, run-error",
        &format!("run-error: unsupported \"no video for {secret}\""),
        true,
    )];
    pass.exchanges = vec![exchange("video", Some(200), "data: {}\n\n")];
    pass.stream = Some(of_stream(&evidence(
        StreamClass::RunError,
        Some(TerminalEvent {
            event_type: "RUN_ERROR".into(),
            message: Some(format!("no video for {secret}")),
            code: Some("unsupported".into()),
        }),
    )));
    let mut fail = case(
        "agui.undeclared-kind-refused[document]",
        "agui.undeclared-kind-refused",
        pass.requirement.clone(),
        Outcome::Fail,
    );
    fail.scenario_file = pass.scenario_file.clone();
    fail.assertions = vec![assertion(
        "stream.classification",
        "one of rejected, run-error",
        "completed: RUN_FINISHED after 2 events",
        false,
    )];
    fail.reason = Some("expected one of rejected, run-error; got completed".into());
    fail.exchanges = vec![exchange("document", Some(200), "data: {}\n\n")];
    fail.stream = Some(of_stream(&evidence(
        StreamClass::Completed,
        Some(TerminalEvent {
            event_type: "RUN_FINISHED".into(),
            message: None,
            code: None,
        }),
    )));
    let cases = vec![pass, fail];
    let mut events = vec![
        Event::RunStarted(Box::new(run)),
        Event::Planned { total: cases.len() },
    ];
    for (index, case) in cases.iter().enumerate() {
        events.push(Event::CaseFinished {
            index,
            result: Box::new(case.clone()),
        });
    }
    events.push(Event::RunFinished(summary(&cases, false)));
    events
}
