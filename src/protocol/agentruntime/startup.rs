//! A bridge that cannot run at all: it printed no line and exited on its own with a
//! failure (a runtime file that is not there, a missing dependency). Judging each case
//! on such a run would fail them all for one setup mistake, with the reason only under
//! `-v`; instead the probe names it once, with its stderr's telling line, and every
//! case is blocked with it (the target cannot be used, as an unreachable host).

use crate::process::{Ending, Finished};

/// Longest stderr excerpt quoted.
const EXCERPT: usize = 300;

/// Why `finished` shows a bridge that dies before its first line, when it does. A
/// run we ended (timeout, a bound, the run's stop) or one that exited 0 is no such
/// death.
pub fn died_before_first_line<T>(finished: &Finished<T>) -> Option<String> {
    if !finished.lines.is_empty() || finished.ended_by.is_some() {
        return None;
    }
    let ending = match finished.ending {
        Ending::Exited(0) => return None,
        Ending::Exited(code) => format!("exited {code}"),
        Ending::Signalled(signal) => format!("was ended by signal {signal}"),
        Ending::Unknown => "ended".to_string(),
    };
    let said = match telling_line(&finished.stderr.text) {
        Some(line) => format!(": {line}"),
        None => " (its stderr is empty)".to_string(),
    };
    Some(format!("the bridge {ending} before its first line{said}"))
}

/// The stderr line that says what went wrong: the first that speaks of an error (an
/// interpreter prints where it was first), else the first that is not blank.
fn telling_line(stderr: &str) -> Option<String> {
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    let line = lines()
        .find(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| lines().next())?;
    Some(line.chars().take(EXCERPT).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::run::WorkDir;
    use crate::process::stderr::Captured;
    use crate::process::{EndedBy, ReadEnd};
    use std::time::Duration;

    fn finished(ending: Ending, stderr: &str) -> Finished<()> {
        Finished {
            lines: Vec::new(),
            read_end: ReadEnd::Eof,
            ending,
            ended_by: None,
            abort: None,
            stderr: Captured {
                text: stderr.into(),
                dropped: 0,
            },
            elapsed: Duration::from_millis(5),
            workdir: WorkDir::given(std::env::temp_dir()),
        }
    }

    #[test]
    fn a_silent_failing_exit_is_a_death_named_by_its_error_line() {
        let node = "node:internal/modules/esm/resolve:283\n\n  throw err;\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '/x/runtime.mjs'\n    at finalizeResolution";
        assert_eq!(
            died_before_first_line(&finished(Ending::Exited(1), node)).as_deref(),
            Some(
                "the bridge exited 1 before its first line: Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/x/runtime.mjs'"
            )
        );
        assert_eq!(
            died_before_first_line(&finished(Ending::Signalled(9), "\n")).as_deref(),
            Some("the bridge was ended by signal 9 before its first line (its stderr is empty)")
        );
        assert!(
            died_before_first_line(&finished(Ending::Exited(2), "usage: bridge RUNTIME"))
                .unwrap()
                .ends_with(": usage: bridge RUNTIME")
        );
    }

    #[test]
    fn a_clean_exit_a_printed_line_or_our_own_ending_is_no_death() {
        assert_eq!(
            died_before_first_line(&finished(Ending::Exited(0), "")),
            None
        );
        let mut timed_out = finished(Ending::Signalled(15), "");
        timed_out.ended_by = Some(EndedBy::Timeout);
        assert_eq!(died_before_first_line(&timed_out), None);
    }
}
