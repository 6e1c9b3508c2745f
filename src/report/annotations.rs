//! `--annotations github` (on by default under GitHub Actions): one `::error` workflow
//! command per failed or errored case and one `::warning` per warned case, so the
//! failures show on the run's page and in a pull request without opening the log.
//! GitHub shows at most 10 of each kind per step: past [`CAP`] the rest are counted in
//! one `::notice`. Everything is escaped as GitHub's toolkit does, so a host's text
//! cannot end a command early or start one of its own.

use super::evidence::failure_summary;
use super::{ReportError, Reporter};
use crate::event::Event;
use crate::outcome::{CaseResult, Outcome};
use std::io::Write;
use std::path::PathBuf;

/// Annotations of each kind written at most (GitHub shows 10 per step).
pub const CAP: usize = 10;

pub struct AnnotationsReporter {
    out: Box<dyn Write + Send>,
    errors: usize,
    warnings: usize,
}

impl AnnotationsReporter {
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        AnnotationsReporter {
            out,
            errors: 0,
            warnings: 0,
        }
    }

    fn write(&mut self, line: &str) -> Result<(), ReportError> {
        (self.out.write_all(line.as_bytes()))
            .and_then(|()| self.out.flush())
            .map_err(|source| ReportError {
                kind: "annotations",
                path: PathBuf::from("<stdout>"),
                source,
            })
    }

    fn case(&mut self, case: &CaseResult) -> Result<(), ReportError> {
        let (command, seen) = match case.outcome {
            Outcome::Fail | Outcome::Error => ("error", &mut self.errors),
            Outcome::Warn => ("warning", &mut self.warnings),
            _ => return Ok(()),
        };
        *seen += 1;
        if *seen > CAP {
            return Ok(());
        }
        let line = annotation(command, case);
        self.write(&line)
    }

    fn finished(&mut self) -> Result<(), ReportError> {
        let left =
            |seen: usize, word: &str| (seen > CAP).then(|| format!("{} more {word}", seen - CAP));
        let left: Vec<String> = [left(self.errors, "failed"), left(self.warnings, "warned")]
            .into_iter()
            .flatten()
            .collect();
        if left.is_empty() {
            return Ok(());
        }
        let line = format!(
            "::notice title=mmconform::{}\n",
            data(&format!(
                "{} case(s) not annotated (GitHub shows {CAP} of each kind): see the step summary, the JUnit and the JSON reports",
                left.join(" and ")
            ))
        );
        self.write(&line)
    }
}

impl Reporter for AnnotationsReporter {
    fn handle(&mut self, event: &Event) -> Result<(), ReportError> {
        match event {
            Event::CaseFinished { result, .. } => self.case(result),
            Event::RunFinished(_) => self.finished(),
            _ => Ok(()),
        }
    }
}

/// `::error title=FAIL case::[MUST source] what failed: requirement`.
fn annotation(command: &str, case: &CaseResult) -> String {
    let req = &case.requirement;
    let title = format!("{} {}", case.outcome.as_str().to_uppercase(), case.id);
    let message = format!(
        "[{} {}] {}\n{}",
        req.level,
        req.source,
        failure_summary(case).unwrap_or_default(),
        req.text
    );
    format!(
        "::{command} title={}::{}\n",
        property(&title),
        data(&message)
    )
}

/// A command's message, as GitHub's toolkit escapes it.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command's property value: its message's escaping, and `:` and `,` too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures::{self as fixtures, SharedBuf};

    fn written(events: &[Event]) -> String {
        let buf = SharedBuf::default();
        let mut reporter = AnnotationsReporter::new(Box::new(buf.clone()));
        fixtures::feed(&mut reporter, events);
        buf.text()
    }

    #[test]
    fn one_error_per_failed_case_and_one_warning_per_warned_case() {
        let events = fixtures::events();
        let text = written(&events);
        let failed = (fixtures::cases().iter())
            .filter(|c| matches!(c.outcome, Outcome::Fail | Outcome::Error))
            .count();
        let warned = (fixtures::cases().iter())
            .filter(|c| c.outcome == Outcome::Warn)
            .count();
        assert_eq!(text.matches("::error ").count(), failed, "{text}");
        assert_eq!(text.matches("::warning ").count(), warned, "{text}");
        assert!(text.contains(
            "::error title=FAIL openwop.rfc0091.reject-unadvertised[audio]::[MUST RFC 0091 §A] status: expected 400; got 200%0AA host MUST refuse"
        ), "{text}");
        assert!(!text.contains("::notice"), "{text}");
    }

    #[test]
    fn a_host_s_text_cannot_end_the_command_or_start_another() {
        let mut case = fixtures::cases().remove(1);
        case.id = "a,b:c".into();
        case.reason = Some("100% done\r\n::error::injected".into());
        let line = annotation("error", &case);
        assert_eq!(line.matches('\n').count(), 1, "{line}");
        assert!(line.starts_with("::error title=FAIL a%2Cb%3Ac::"), "{line}");
        assert!(
            line.contains("100%25 done%0D%0A::error::injected"),
            "{line}"
        );
    }

    #[test]
    fn past_the_cap_the_rest_are_counted_once() {
        let mut events = vec![Event::RunStarted(Box::new(fixtures::run_info()))];
        let template = fixtures::cases().remove(1);
        for i in 0..CAP + 4 {
            let mut case = template.clone();
            case.id = format!("c{i}");
            events.push(Event::CaseFinished {
                index: i,
                result: Box::new(case),
            });
        }
        events.push(Event::RunFinished(fixtures::summary(&[], false)));
        let text = written(&events);
        assert_eq!(text.matches("::error ").count(), CAP);
        assert!(text.ends_with(
            "::notice title=mmconform::4 more failed case(s) not annotated (GitHub shows 10 of each kind): see the step summary, the JUnit and the JSON reports\n"
        ), "{text}");
    }
}
