use super::*;
use crate::event_fixtures::{self as fixtures, SharedBuf};

fn render(options: TerminalOptions, events: &[Event]) -> String {
    let buf = SharedBuf::default();
    let mut reporter = TerminalReporter::new(options, Box::new(buf.clone()));
    fixtures::feed(&mut reporter, events);
    buf.text()
}

fn plain(verbose: bool) -> TerminalOptions {
    TerminalOptions {
        color: false,
        verbose,
        progress: false,
        quiet: false,
    }
}

/// Ports and durations vary between real runs; the snapshots should not.
macro_rules! assert_terminal_snapshot {
    ($name:expr, $text:expr) => {
        insta::with_settings!({filters => vec![
            (r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]"),
            (r"\[\d+(?:ms|s|m|h)(?: \d+(?:ms|s|m|h))*\]", "[DURATION]"),
            (r"duration: .+", "duration: [DURATION]"),
        ]}, {
            insta::assert_snapshot!($name, $text);
        });
    };
}

#[test]
fn snapshot_plain() {
    assert_terminal_snapshot!("plain", render(plain(false), &fixtures::events()));
}

#[test]
fn snapshot_verbose() {
    assert_terminal_snapshot!("verbose", render(plain(true), &fixtures::events()));
}

#[test]
fn output_is_in_plan_order_whatever_the_completion_order() {
    let in_order = render(
        plain(true),
        &fixtures::events_finishing_in(&[0, 1, 2, 3, 4, 5, 6, 7, 8]),
    );
    let reversed = render(
        plain(true),
        &fixtures::events_finishing_in(&[8, 7, 6, 5, 4, 3, 2, 1, 0]),
    );
    assert_eq!(in_order, reversed);
    assert_eq!(in_order, render(plain(true), &fixtures::events()));
}

#[test]
fn excluded_cases_are_counted_not_listed() {
    let text = render(plain(true), &fixtures::events());
    assert!(!text.contains("openwop.rfc0021.envelope-shape"), "{text}");
    assert!(text.contains("1 excluded"), "{text}");
}

#[test]
fn summary_lists_every_outcome_even_zero_and_no_percentage() {
    let events = fixtures::events_finishing_in(&[0]);
    let text = render(plain(false), &events);
    assert!(
        text.contains(
            "summary: 1 pass, 0 fail, 0 xfail, 0 warn, 0 skip, 0 blocked, 0 error, 0 excluded\n"
        ),
        "{text}"
    );
    assert!(!text.contains('%'), "{text}");
}

#[test]
fn an_interrupted_run_prints_what_finished_after_a_gap_and_says_it_is_incomplete() {
    // Case 0 never finished; 1 and 2 wait behind it until RunFinished flushes them.
    let text = render(plain(false), &fixtures::events_finishing_in(&[2, 1]));
    let fail = text.find("FAIL    openwop.rfc0091.reject-unadvertised[audio]");
    let warn = text.find("WARN    openwop.rfc0091.oversize-part[image]");
    assert!(fail.is_some() && warn.is_some() && fail < warn, "{text}");
    assert!(
        text.contains("incomplete: the run stopped after 2 of 9 planned cases were decided"),
        "{text}"
    );
}

#[test]
fn no_escape_codes_without_colour() {
    let text = render(plain(true), &fixtures::events());
    assert!(!text.contains('\u{1b}'), "{text:?}");
}

#[test]
fn host_control_characters_are_escaped_not_sent_to_the_terminal() {
    let mut events = fixtures::events_finishing_in(&[0, 1]);
    if let Event::CaseFinished { result, .. } = &mut events[4] {
        let response = result.exchanges[0].response.as_mut().unwrap();
        response.body = "\u{1b}[2Jcleared\u{7}".into();
    }
    let text = render(plain(true), &events);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.contains(r"\u{1b}[2Jcleared\u{7}"), "{text}");
}

#[test]
fn verbose_bodies_over_the_limit_are_cut_with_a_marker() {
    let mut events = fixtures::events_finishing_in(&[0, 1]);
    if let Event::CaseFinished { result, .. } = &mut events[4] {
        result.exchanges[0].response.as_mut().unwrap().body = "x".repeat(5000);
    }
    let text = render(plain(true), &events);
    assert!(
        text.contains("[truncated: showing 2048 of 5000 bytes]"),
        "{text}"
    );
    assert!(!text.contains(&"x".repeat(2049)));
}

#[test]
fn discovery_problems_are_shown_on_the_discovery_line() {
    let mut snapshot = fixtures::discovery();
    snapshot.status = None;
    snapshot.problem = Some("connection refused".into());
    let text = render(plain(false), &[Event::Discovery(snapshot)]);
    assert_eq!(
        text,
        "discovery: http://127.0.0.1:54321/.well-known/openwop -> no response \
         (problem: connection refused)\n"
    );
}

#[test]
fn with_a_progress_bar_every_line_is_still_printed() {
    // Under `cargo test` stderr is not a terminal, so the bar draws nothing; the case
    // lines must not depend on it (indicatif's `println` would drop them).
    let with_bar = TerminalOptions {
        progress: true,
        ..plain(false)
    };
    assert_eq!(
        render(with_bar, &fixtures::events()),
        render(plain(false), &fixtures::events())
    );
}

#[test]
fn agui_runs_show_the_declaration_and_every_bucket() {
    let text = render(plain(true), &fixtures::agui_events("s3"));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].ends_with("(profile agui, mode default)"), "{text}");
    assert_eq!(
        lines[1],
        "declared (--accepts): accepts image/, audio/wav; sources data; echo claimed"
    );
    assert!(lines[2].starts_with(
        "PASS    agui.undeclared-kind-refused[video] -> run-error: unsupported \"no video for s3\""
    ), "{text}");
    assert!(text.contains("FAIL    agui.undeclared-kind-refused[document] -> completed: RUN_FINISHED after 2 events"), "{text}");
    assert!(
        text.contains("        stream: completed: RUN_FINISHED after 2 events"),
        "{text}"
    );
}

#[test]
fn quiet_prints_only_what_needs_attention_and_the_summary() {
    let events = fixtures::events();
    let quiet = render(
        TerminalOptions {
            quiet: true,
            ..plain(false)
        },
        &events,
    );
    let full = render(plain(false), &events);
    assert!(full.contains("PASS "), "{full}");
    assert!(!quiet.contains("PASS "), "{quiet}");
    assert!(!quiet.contains("SKIP "), "{quiet}");
    assert!(!quiet.contains("discovery:"), "{quiet}");
    assert!(quiet.contains("FAIL "), "{quiet}");
    assert!(quiet.contains("summary:"), "{quiet}");
    assert!(quiet.contains("verdict:"), "{quiet}");
}

#[test]
fn the_summary_lists_the_failed_and_blocked_case_ids() {
    let events = fixtures::events();
    let text = render(plain(false), &events);
    let ids = |outcome: Outcome| -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::CaseFinished { result, .. } if result.outcome == outcome => {
                    Some(result.id.clone())
                }
                _ => None,
            })
            .collect()
    };
    let failed = ids(Outcome::Fail);
    assert!(!failed.is_empty());
    let summary = &text[text.find("\nsummary:").unwrap()..];
    let line = summary
        .lines()
        .find(|l| l.starts_with("failed ("))
        .unwrap_or_else(|| panic!("{summary}"));
    for id in &failed {
        assert!(line.contains(id.as_str()), "{line}");
    }
    for id in ids(Outcome::Blocked) {
        assert!(summary.contains(&id), "{summary}");
    }
}

#[test]
fn quiet_lists_the_warned_ids_at_the_end_without_their_lines() {
    let events = fixtures::events();
    let quiet = render(
        TerminalOptions {
            quiet: true,
            ..plain(false)
        },
        &events,
    );
    let warned: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::CaseFinished { result, .. } if result.outcome == Outcome::Warn => {
                Some(result.id.as_str())
            }
            _ => None,
        })
        .collect();
    assert!(!warned.is_empty(), "the fixture has a warned case");
    assert!(!quiet.contains("WARN "), "{quiet}");
    let line = quiet
        .lines()
        .find(|l| l.starts_with("warned ("))
        .unwrap_or_else(|| panic!("{quiet}"));
    assert_eq!(
        line,
        format!("warned ({}): {}", warned.len(), warned.join(" "))
    );
}

/// The fixture's run with `n` more cases blocked by one cause appended.
fn with_caused(n: usize) -> Vec<Event> {
    let mut events = fixtures::events();
    let Some(Event::RunFinished(_)) = events.pop() else {
        panic!("the fixture ends with RunFinished");
    };
    let mut all = fixtures::cases();
    for i in 0..n {
        let mut case = all[0].clone();
        case.id = format!("caused[{i}]");
        case.outcome = Outcome::Blocked;
        case.reason = Some("POST u answered 404: is --target the API base?".into());
        case.cause = Some(crate::outcome::Cause {
            what: "POST u answered 404: is --target the API base?".into(),
            fix: Some("pass the API base".into()),
        });
        all.push(case.clone());
        events.push(Event::CaseFinished {
            index: 100 + i,
            result: Box::new(case),
        });
    }
    events.push(Event::RunFinished(fixtures::summary(&all, false)));
    events
}

#[test]
fn a_cause_of_many_cases_is_said_once_with_its_fix_and_their_ids_counted() {
    for quiet in [false, true] {
        let options = TerminalOptions {
            quiet,
            ..plain(false)
        };
        let text = render(options, &with_caused(10));
        assert_eq!(text.matches("POST u answered 404").count(), 1, "{text}");
        assert!(
            text.contains("BLOCKED 10 cases: POST u answered 404: is --target the API base?\n        fix: pass the API base\n"),
            "{text}"
        );
        assert!(
            text.contains("ids: caused[0] caused[1] caused[2] ... and 7 more"),
            "{text}"
        );
        let blocked = text.lines().find(|l| l.starts_with("blocked (")).unwrap();
        assert!(
            blocked.ends_with("(and 10 by the cause above)"),
            "{blocked}"
        );
    }
    let verbose = render(plain(true), &with_caused(10));
    let ids = (verbose.lines())
        .find(|l| l.trim_start().starts_with("ids: "))
        .unwrap();
    assert_eq!(ids.split_whitespace().count(), 11, "{ids}");
    assert!(
        verbose
            .lines()
            .any(|l| l.starts_with("blocked (") && l.contains("caused[9]"))
    );
}

#[test]
fn a_cause_of_one_or_two_cases_leaves_them_on_their_own_lines() {
    let text = render(plain(false), &with_caused(2));
    assert!(!text.contains(" cases: "), "{text}");
    assert!(
        text.contains("BLOCKED caused[0] (POST u answered 404"),
        "{text}"
    );
    assert!(
        text.contains("BLOCKED caused[1] (POST u answered 404"),
        "{text}"
    );
}
