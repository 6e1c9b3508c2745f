//! Every reporter passes every string through the redactor, whatever the runner did.
//!
//! The events here are deliberately unredacted, as if the runner had a bug: the
//! reporters are the last line of defence and must hold on their own.

use super::fanout::FanOut;
use super::{JsonReporter, JunitReporter, Reporter, TerminalOptions, TerminalReporter};
use crate::event::Event;
use crate::event_fixtures::{self as fixtures, SharedBuf};
use crate::redact::Redactor;

const CANARY: &str = "canary-7Hq2-s3cr3t";
/// Sent under a sensitive header name but not a configured secret: masked by name.
const COOKIE: &str = "session=unlisted-cookie-value";

fn leaky_events() -> Vec<Event> {
    let mut events = fixtures::events();
    let last = events.len() - 1;
    events.insert(
        last,
        Event::Wire(vec![crate::event::WireEntry {
            seq: 1,
            method: "GET".into(),
            url: String::new(),
            purpose: "discovery".into(),
            status: None,
            failure: None,
        }]),
    );
    for event in &mut events {
        match event {
            Event::RunStarted(run) => {
                run.target = format!("{}/?key={CANARY}", fixtures::BASE);
                run.filters.push(CANARY.into());
            }
            Event::Discovery(snapshot) => {
                snapshot.document.as_mut().unwrap()["echo"] = CANARY.into();
                snapshot.problem = Some(format!("saw {CANARY}"));
                snapshot.facts[CANARY] = true.into();
            }
            Event::Wire(entries) => {
                for entry in entries {
                    entry.url = format!("{}/?key={CANARY}", fixtures::BASE);
                    entry.failure = Some(format!("refused {CANARY}"));
                }
            }
            Event::TargetUnusable { reason, hint } => {
                *reason = format!("cannot reach {CANARY}");
                *hint = format!("check {CANARY}");
            }
            Event::CaseFinished { result, .. } => {
                result.reason = Some(format!("host echoed {CANARY}"));
                result.notes.push(format!("note {CANARY}"));
                result.cause = Some(crate::outcome::Cause {
                    what: format!("POST /{CANARY} answered 500"),
                    fix: Some(format!("unset {CANARY}")),
                });
                result.decided_on.push(format!("fact {CANARY}"));
                result.assertions.push(crate::outcome::AssertionResult {
                    check: "echo".into(),
                    expected: "nothing".into(),
                    actual: CANARY.into(),
                    passed: false,
                    level: None,
                    delivery: Some(crate::outcome::Delivery {
                        outcome: crate::outcome::DeliveryOutcome::Altered,
                        sent: CANARY.into(),
                        received: Some(CANARY.into()),
                        changes: vec![CANARY.into()],
                    }),
                });
                for exchange in &mut result.exchanges {
                    let request = &mut exchange.request;
                    request
                        .headers
                        .push(("Authorization".into(), format!("Bearer {CANARY}")));
                    request.headers.push(("Cookie".into(), COOKIE.into()));
                    request.headers.push(("X-Api-Key".into(), CANARY.into()));
                    request.body = Some(format!("{{\"key\":\"{CANARY}\"}}"));
                    if let Some(response) = exchange.response.as_mut() {
                        response.headers.push(("Set-Cookie".into(), COOKIE.into()));
                        response.body = format!("you sent {CANARY}");
                    }
                    exchange.curl = format!("curl -H 'X-Api-Key: {CANARY}' {}", request.url);
                }
            }
            Event::RunFinished(summary) => {
                summary.explanation = format!("explained with {CANARY}");
            }
            Event::Planned { .. } => {}
        }
    }
    events
}

fn assert_clean(kind: &str, text: &str) {
    assert!(!text.is_empty(), "{kind} wrote nothing");
    assert!(!text.contains(CANARY), "{kind} leaked the canary:\n{text}");
    assert!(!text.contains(COOKIE), "{kind} leaked a cookie:\n{text}");
    assert!(
        !text.contains("canary-7Hq2"),
        "{kind} leaked part of the canary:\n{text}"
    );
}

/// Feeds `events` through one fan-out to a terminal (into `buf`), a JUnit and a JSON
/// reporter, as `run` does, and returns the three texts.
fn fan_out(events: &[Event], verbose: bool) -> [(&'static str, String); 3] {
    let dir = tempfile::tempdir().unwrap();
    let buf = SharedBuf::default();
    let options = TerminalOptions {
        color: false,
        verbose,
        progress: false,
        quiet: false,
    };
    let (junit_path, json_path) = (dir.path().join("junit.xml"), dir.path().join("report.json"));
    let reporters: Vec<Box<dyn Reporter>> = vec![
        Box::new(TerminalReporter::new(options, Box::new(buf.clone()))),
        Box::new(JunitReporter::new(junit_path.clone())),
        Box::new(JsonReporter::new(json_path.clone())),
    ];
    let mut fanout = FanOut::new(Redactor::new([CANARY]), reporters);
    for event in events {
        fanout.handle(event);
    }
    assert!(fanout.finish().is_empty());
    [
        ("terminal", buf.text()),
        ("JUnit", std::fs::read_to_string(&junit_path).unwrap()),
        ("JSON", std::fs::read_to_string(&json_path).unwrap()),
    ]
}

#[test]
fn no_reporter_writes_a_secret() {
    let events = leaky_events();
    for verbose in [false, true] {
        let outputs = fan_out(&events, verbose);
        for (kind, text) in &outputs {
            assert_clean(kind, text);
        }
        // The masks are where the secrets were, so a reader knows something was removed.
        assert!(outputs[2].1.contains("[REDACTED]"));
    }
}

#[test]
fn an_agui_run_error_message_that_repeats_a_secret_is_redacted_everywhere() {
    let events = fixtures::agui_events(CANARY);
    for (kind, text) in &fan_out(&events, true) {
        assert_clean(kind, text);
    }
}
