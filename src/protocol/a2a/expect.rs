//! `expect.a2a`: what only an A2A answer (or card) can show, each present field one
//! assertion. The refusal a case asks for is named by what came instead: another
//! error (`-32602`), a task that failed, or an acceptance; on HTTP+JSON an A2A error
//! is told apart by its `google.rpc.ErrorInfo` reason (§11.6), and a content type
//! refused with HTTP 415 (the 1.0.0 text's mapping) is taken and said.

use super::answer::{Object, code_name, is_interrupted, is_terminal};
use super::classify::Reading;
use super::interface::Binding;
use crate::observation::Unjudged;
use crate::outcome::AssertionResult;
use serde::Deserialize;

/// The ErrorInfo domain of A2A errors (§11.6).
pub const DOMAIN: &str = "a2a-protocol.org";

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct A2aExpectation {
    #[serde(default)]
    pub error: Option<A2aError>,
    #[serde(default)]
    pub error_info: bool,
    #[serde(default)]
    pub answer: Option<AnswerRule>,
    #[serde(default)]
    pub spelled: bool,
    #[serde(default)]
    pub card: Vec<CardCheck>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum A2aError {
    ContentTypeNotSupported,
    UnsupportedOperation,
    VersionNotSupported,
}

impl A2aError {
    fn code(self) -> i64 {
        match self {
            A2aError::ContentTypeNotSupported => -32005,
            A2aError::UnsupportedOperation => -32004,
            A2aError::VersionNotSupported => -32009,
        }
    }

    fn reason(self) -> &'static str {
        match self {
            A2aError::ContentTypeNotSupported => "CONTENT_TYPE_NOT_SUPPORTED",
            A2aError::UnsupportedOperation => "UNSUPPORTED_OPERATION",
            A2aError::VersionNotSupported => "VERSION_NOT_SUPPORTED",
        }
    }

    fn name(self) -> &'static str {
        code_name(self.code()).unwrap_or("the A2A error")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnswerRule {
    Terminal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CardCheck {
    WellKnownPath,
    MediaTypes,
}

/// `expect.a2a`, a key only this protocol reads (`Description::expect_keys`).
pub static A2A: crate::protocol::description::ExpectKey = crate::protocol::description::ExpectKey {
    key: "a2a",
    about: "judges an A2A agent's answers and card",
    check: crate::protocol::description::reads_as::<A2aExpectation>,
};

/// Reads the case's `expect.a2a` (`Err`: a scenario defect, named).
pub fn read(
    expect: &crate::scenario::model::Expectations,
) -> Result<Option<A2aExpectation>, String> {
    expect.protocol_key(A2A.key)
}

/// What judging an answer gave: assertions, notes, and what could not be judged.
#[derive(Debug, Default)]
pub struct Judged {
    pub assertions: Vec<AssertionResult>,
    pub notes: Vec<String>,
    pub unjudged: Vec<Unjudged>,
}

/// Judges an answer's `expect.a2a` (not `card`, which the card cases judge).
pub fn judge_answer(
    expect: &A2aExpectation,
    binding: Binding,
    reading: &Reading,
    out: &mut Judged,
) {
    if let Some(wanted) = expect.error {
        judge_error(wanted, binding, reading, out);
    }
    // JSON-RPC errors are told apart by their code; ErrorInfo is what HTTP+JSON has.
    if expect.error_info && binding == Binding::HttpJson {
        judge_error_info(reading, out);
    }
    if expect.answer == Some(AnswerRule::Terminal) {
        judge_terminal(reading, out);
    }
    if expect.spelled {
        match reading.first {
            Some(_) => out.assertions.push(AssertionResult::new(
                "a2a.spelled",
                "objects spelled as the interface's version spells them".into(),
                if reading.spelling.is_empty() {
                    reading.line()
                } else {
                    reading.spelling.join("; ")
                },
                reading.spelling.is_empty(),
            )),
            None => out.unjudged.push(Unjudged::answer(&format!(
                "no task or message to read the spelling of ({})",
                reading.line()
            ))),
        }
    }
}

/// What came instead of an error, named for a refusal case.
fn instead(reading: &Reading) -> String {
    use crate::scenario::stream::StreamClass::*;
    match reading.classification {
        Completed => format!("accepted: {}", reading.summary),
        RunError => format!(
            "accepted, then {} (a task that failed is no refusal)",
            reading.summary
        ),
        _ => reading.line(),
    }
}

fn judge_error(wanted: A2aError, binding: Binding, reading: &Reading, out: &mut Judged) {
    let expected = match binding {
        Binding::JsonRpc => format!("{} ({})", wanted.name(), wanted.code()),
        Binding::HttpJson => format!(
            "{} (HTTP 400, ErrorInfo {})",
            wanted.name(),
            wanted.reason()
        ),
    };
    let Some(seen) = &reading.error else {
        out.assertions.push(AssertionResult::new(
            "a2a.error",
            expected,
            instead(reading),
            false,
        ));
        return;
    };
    let by_code = seen.code == Some(wanted.code());
    let by_reason = seen.reason.as_deref() == Some(wanted.reason());
    let by_415 = wanted == A2aError::ContentTypeNotSupported && seen.http == 415;
    let passed = match binding {
        Binding::JsonRpc => by_code,
        Binding::HttpJson => (by_reason || by_code || by_415) && (400..500).contains(&seen.http),
    };
    if passed && binding == Binding::HttpJson && seen.http != 400 {
        out.notes.push(if by_415 {
            format!(
                "refused with HTTP 415, as the 1.0.0 text mapped {}; 1.0 maps it to 400 with ErrorInfo {} (§5.4, §11.6)",
                wanted.name(),
                wanted.reason()
            )
        } else {
            format!("refused with HTTP {}; §5.4 maps {} to 400", seen.http, wanted.name())
        });
    }
    let actual = if passed {
        seen.describe()
    } else {
        format!("refused with {}, not {}", seen.describe(), wanted.name())
    };
    out.assertions
        .push(AssertionResult::new("a2a.error", expected, actual, passed));
}

fn judge_error_info(reading: &Reading, out: &mut Judged) {
    let Some(seen) = &reading.error else {
        out.unjudged.push(Unjudged::answer(&format!(
            "the agent answered no error, so no ErrorInfo could be seen ({})",
            reading.line()
        )));
        return;
    };
    let passed = seen.reason.is_some() && seen.domain.as_deref() == Some(DOMAIN);
    let actual = match (&seen.reason, &seen.domain) {
        (Some(reason), Some(domain)) => {
            format!("{} (ErrorInfo {reason}, domain {domain})", seen.describe())
        }
        (Some(reason), None) => format!("ErrorInfo {reason} without a domain"),
        _ => format!(
            "{}: no google.rpc.ErrorInfo in the details",
            seen.describe()
        ),
    };
    out.assertions.push(AssertionResult::new(
        "a2a.error_info",
        format!("a google.rpc.ErrorInfo detail with a reason and domain {DOMAIN}"),
        actual,
        passed,
    ));
}

fn judge_terminal(reading: &Reading, out: &mut Judged) {
    let expected = "a message, or a task already terminal or interrupted".to_string();
    match &reading.first {
        Some(Object::Message) => out.assertions.push(AssertionResult::new(
            "a2a.answer",
            expected,
            "a message".into(),
            true,
        )),
        Some(object @ Object::Task { state, .. }) => {
            let done = object
                .state()
                .is_some_and(|s| is_terminal(s) || is_interrupted(s));
            let actual = if done {
                format!("a task, {state}")
            } else {
                format!("a task still {state}: a blocking send returned before the task ended")
            };
            out.assertions
                .push(AssertionResult::new("a2a.answer", expected, actual, done));
        }
        _ => out.unjudged.push(Unjudged::answer(&format!(
            "the send answered neither a task nor a message ({})",
            reading.line()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::a2a::answer::ErrorSeen;
    use crate::scenario::stream::StreamClass;

    fn refused(http: u16, code: Option<i64>, reason: Option<&str>) -> Reading {
        let mut reading = Reading::new(StreamClass::Rejected, http, "refused".into());
        reading.error = Some(ErrorSeen {
            http,
            code,
            reason: reason.map(str::to_string),
            domain: reason.map(|_| DOMAIN.to_string()),
            message: None,
        });
        reading
    }

    /// A case's `expect:` holding `a2a: value`.
    fn expectations(value: serde_json::Value) -> crate::scenario::model::Expectations {
        serde_json::from_value(serde_json::json!({ "a2a": value })).unwrap()
    }

    fn judged(expect: serde_json::Value, binding: Binding, reading: &Reading) -> Judged {
        let expect = read(&expectations(expect)).unwrap().unwrap();
        let mut out = Judged::default();
        judge_answer(&expect, binding, reading, &mut out);
        out
    }

    #[test]
    fn the_refusal_is_named_by_what_came_instead() {
        let want = serde_json::json!({"error": "content-type-not-supported"});
        assert!(
            judged(
                want.clone(),
                Binding::JsonRpc,
                &refused(200, Some(-32005), None)
            )
            .assertions[0]
                .passed
        );
        let wrong = judged(
            want.clone(),
            Binding::JsonRpc,
            &refused(200, Some(-32602), None),
        );
        assert!(!wrong.assertions[0].passed);
        assert!(
            wrong.assertions[0].actual.contains("InvalidParamsError"),
            "{:?}",
            wrong.assertions
        );
        let rest = judged(
            want.clone(),
            Binding::HttpJson,
            &refused(400, None, Some("CONTENT_TYPE_NOT_SUPPORTED")),
        );
        assert!(rest.assertions[0].passed && rest.notes.is_empty());
        let old = judged(want.clone(), Binding::HttpJson, &refused(415, None, None));
        assert!(old.assertions[0].passed);
        assert!(old.notes[0].contains("1.0.0"), "{:?}", old.notes);
        let accepted = Reading::new(
            StreamClass::Completed,
            200,
            "a task, TASK_STATE_COMPLETED".into(),
        );
        let silent = judged(want, Binding::JsonRpc, &accepted);
        assert!(
            silent.assertions[0].actual.starts_with("accepted"),
            "{:?}",
            silent.assertions
        );
    }

    #[test]
    fn error_info_is_judged_on_an_error_only() {
        let want = serde_json::json!({"error_info": true});
        assert!(
            judged(
                want.clone(),
                Binding::HttpJson,
                &refused(400, None, Some("X"))
            )
            .assertions[0]
                .passed
        );
        assert!(
            !judged(want.clone(), Binding::HttpJson, &refused(415, None, None)).assertions[0]
                .passed
        );
        let accepted = Reading::new(StreamClass::Completed, 200, "ok".into());
        let none = judged(want, Binding::HttpJson, &accepted);
        assert!(none.assertions.is_empty() && none.unjudged.len() == 1);
    }

    #[test]
    fn a_blocking_send_must_not_answer_a_working_task() {
        let want = serde_json::json!({"answer": "terminal", "spelled": true});
        let mut working = Reading::new(StreamClass::Unfinished, 200, "a task".into());
        working.first = Some(Object::Task {
            id: None,
            state: "TASK_STATE_WORKING".into(),
        });
        let out = judged(want.clone(), Binding::JsonRpc, &working);
        assert!(!out.assertions[0].passed && out.assertions[1].passed);
        working.first = Some(Object::Task {
            id: None,
            state: "TASK_STATE_INPUT_REQUIRED".into(),
        });
        working.spelling.push("the state ...".into());
        let out = judged(want, Binding::JsonRpc, &working);
        assert!(out.assertions[0].passed && !out.assertions[1].passed);
        assert!(read(&expectations(serde_json::json!({"nope": 1}))).is_err());
    }
}
