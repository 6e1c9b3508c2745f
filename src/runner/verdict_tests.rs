use super::*;
use crate::event_fixtures::{case, exchange, requirement};

fn passed(check: &str) -> AssertionResult {
    AssertionResult::new(check, "a".into(), "a".into(), true)
}

fn failed(check: &str) -> AssertionResult {
    AssertionResult::new(check, "a".into(), "b".into(), false)
}

/// A record at `level` holding `assertions`, its outcome set to something the verdict
/// must not read.
fn record(level: Level, assertions: Vec<AssertionResult>) -> CaseResult {
    let mut r = case("c", "c", requirement("s", level, "t"), Outcome::Xfail);
    r.reason = Some("stale".into());
    r.assertions = assertions;
    r
}

fn judged(level: Level, assertions: Vec<AssertionResult>) -> Findings {
    Findings::observed(Observation::judged(record(level, assertions)))
}

#[test]
fn outcome_follows_level_and_strictness() {
    let failed = vec![failed("s")];
    assert_eq!(outcome_of(&[], Level::Must, false), Outcome::Blocked);
    assert_eq!(outcome_of(&failed, Level::Must, false), Outcome::Fail);
    assert_eq!(outcome_of(&failed, Level::Should, false), Outcome::Warn);
    assert_eq!(outcome_of(&failed, Level::Should, true), Outcome::Fail);
    assert_eq!(outcome_of(&failed, Level::May, true), Outcome::Warn);
}

#[test]
fn an_assertion_of_its_own_level_counts_at_the_weaker_one() {
    let should = failed("w").at_level(Level::Should);
    let must = failed("s");
    assert_eq!(
        outcome_of(&[passed("s"), should.clone()], Level::Must, false),
        Outcome::Warn
    );
    assert_eq!(
        outcome_of(std::slice::from_ref(&should), Level::Must, true),
        Outcome::Fail
    );
    assert_eq!(
        outcome_of(&[should.clone(), must], Level::Must, false),
        Outcome::Fail
    );
    // Never stronger than the case: a SHOULD check in a MAY case is a MAY.
    assert_eq!(should.effective_level(Level::May), Level::May);
    assert_eq!(outcome_of(&[should], Level::May, true), Outcome::Warn);
}

#[test]
fn the_reason_names_the_strongest_failure_and_a_pass_has_none() {
    let weak = AssertionResult::new("w", "x".into(), "y".into(), false).at_level(Level::Should);
    let strong = AssertionResult::new("s", "4xx".into(), "200".into(), false);
    let result = decide(judged(Level::Must, vec![weak, strong]), false);
    assert_eq!(result.outcome, Outcome::Fail);
    assert_eq!(result.reason.as_deref(), Some("expected 4xx; got 200"));
    let result = decide(judged(Level::Must, vec![passed("s")]), false);
    assert_eq!((result.outcome, result.reason), (Outcome::Pass, None));
    let result = decide(judged(Level::Must, vec![]), false);
    assert_eq!(result.outcome, Outcome::Blocked);
    assert_eq!(
        result.reason.as_deref(),
        Some("the case executed no assertion")
    );
}

#[test]
fn nothing_to_judge_blocks_and_a_defect_errs_whatever_the_assertions_say() {
    let read_cut = Observation::blocked(record(Level::Must, vec![passed("s")]), "deadline");
    let result = decide(Findings::observed(read_cut), false);
    assert_eq!(result.outcome, Outcome::Blocked);
    assert_eq!(result.reason.as_deref(), Some("deadline"));
    assert_eq!(result.assertions.len(), 1, "what ran stays in the record");
    let defect = Observation::error(record(Level::Must, vec![failed("s")]), "bad template");
    let result = decide(Findings::observed(defect), true);
    assert_eq!(result.outcome, Outcome::Error);
    assert_eq!(result.reason.as_deref(), Some("bad template"));
}

#[test]
fn what_could_not_be_judged_blocks_a_pass_and_is_a_note_on_a_failure() {
    let schema = Unjudged::answer("schema x does not compile");
    let pass =
        Observation::judged(record(Level::Must, vec![passed("s")])).leaving_out(schema.clone());
    let result = decide(Findings::observed(pass), false);
    assert_eq!(result.outcome, Outcome::Blocked);
    assert_eq!(
        result.reason.as_deref(),
        Some("cannot judge the answer: schema x does not compile")
    );
    assert!(result.notes.is_empty());
    let fail = Observation::judged(record(Level::Must, vec![failed("s")])).leaving_out(schema);
    let result = decide(Findings::observed(fail), false);
    assert_eq!(result.outcome, Outcome::Fail);
    assert_eq!(
        result.notes,
        ["part of the answer was not judged: schema x does not compile"]
    );
    // Several: the last one that blocks gives the reason.
    let first = Unjudged {
        reason: "first".into(),
        note: "not judged: first".into(),
    };
    let both = Observation::judged(record(Level::Must, vec![passed("s")]))
        .leaving_out(first)
        .leaving_out(Unjudged::answer("second"));
    let result = decide(Findings::observed(both), false);
    assert_eq!(
        result.reason.as_deref(),
        Some("cannot judge the answer: second")
    );
}

#[test]
fn the_witness_assertions_join_the_protocols_and_decide_together() {
    let mut findings = judged(Level::Must, vec![passed("status")]);
    findings.witness = WitnessFinding::Judged(vec![failed("witness.reached")]);
    let result = decide(findings, false);
    assert_eq!(result.outcome, Outcome::Fail);
    assert_eq!(result.assertions.len(), 2);
    assert_eq!(result.reason.as_deref(), Some("expected a; got b"));
    let mut findings = judged(Level::Must, vec![passed("status")]);
    findings.witness = WitnessFinding::Blocked("log full".into());
    let result = decide(findings, false);
    assert_eq!(result.outcome, Outcome::Blocked);
    assert_eq!(result.reason.as_deref(), Some("log full"));
    let mut findings = judged(Level::Must, vec![passed("status")]);
    findings.witness = WitnessFinding::NotJudged("not evaluated".into());
    let result = decide(findings, false);
    assert_eq!(result.outcome, Outcome::Pass);
    assert_eq!(result.notes, ["not evaluated"]);
}

#[test]
fn an_authentication_answer_blocks_whatever_came_before_except_an_error() {
    let mut findings = judged(Level::Must, vec![passed("status")]);
    findings.auth_refused = Some(401);
    let result = decide(findings, false);
    assert_eq!(result.outcome, Outcome::Blocked);
    assert!(auth::is_refused(&result));
    assert!(result.notes[0].contains("would have been pass"));
    let mut findings = Findings::observed(Observation::blocked(record(Level::Must, vec![]), "x"));
    findings.auth_refused = Some(403);
    let result = decide(findings, false);
    assert!(auth::is_refused(&result));
    assert!(result.notes.is_empty(), "a blocked case needs no note");
    let mut findings = Findings::observed(Observation::error(record(Level::Must, vec![]), "x"));
    findings.auth_refused = Some(401);
    let result = decide(findings, false);
    assert_eq!(result.outcome, Outcome::Error);
}

#[test]
fn a_failure_gets_its_hint_and_a_pass_does_not() {
    let mut findings = judged(Level::Must, vec![failed("s")]);
    findings.hint = Some("check the proxy".into());
    assert_eq!(decide(findings, false).notes, ["hint: check the proxy"]);
    let mut findings = judged(Level::Must, vec![passed("s")]);
    findings.hint = Some("check the proxy".into());
    assert!(decide(findings, false).notes.is_empty());
}

#[test]
fn a_case_on_an_endpoint_the_probe_found_unusable_takes_its_verdict_unjudged() {
    let mut r = record(Level::Must, vec![failed("status")]);
    r.exchanges = vec![exchange("ai/call", Some(404), "")];
    r.notes = vec!["a note of the answer".into()];
    let mut findings = Findings::observed(Observation::judged(r));
    findings.witness = WitnessFinding::Judged(vec![failed("witness.reached")]);
    findings.probe_unusable = Some((Outcome::Blocked, "seam POST /ai/call answered 404".into()));
    let result = decide(findings, false);
    assert_eq!(result.outcome, Outcome::Blocked);
    assert_eq!(
        result.reason.as_deref(),
        Some("seam POST /ai/call answered 404")
    );
    assert!(result.assertions.is_empty());
    assert_eq!(result.notes.len(), 1);
    assert!(result.notes[0].contains("being probed"));
    assert_eq!(
        result.exchanges.len(),
        1,
        "what was sent stays in the record"
    );
}
