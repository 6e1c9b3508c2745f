//! `mmconform witness`: only the witness. It prints its base URL before anything else,
//! judges every call it receives against the wire rules (`witness::rules`), one case
//! per call, and stops after `--count` calls, `--duration` seconds or Ctrl-C. Reports
//! go through the same reporters as a run; the exit code is `exit::decide`'s, except
//! that no call at all is exit 3 with its own explanation.

use super::args::WitnessArgs;
use super::{CliError, runtime};
use crate::event::{Event, RunInfo, RunSummary};
use crate::exit::{self, Ending, RunFacts};
use crate::outcome::{EvidenceView, Outcome};
use crate::redact::Redactor;
use crate::report::fanout::FanOut;
use crate::report::{JsonReporter, JunitReporter, Reporter, TerminalOptions, TerminalReporter};
use crate::runner::{now_rfc3339, verdict};
use crate::stop::{Stop, StopReason};
use crate::witness::{Limits, RunningWitness, Witness, WitnessConfig, case};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Why the witness stopped listening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Count,
    Duration,
    Interrupted,
}

pub fn witness(args: &WitnessArgs, color: bool) -> Result<Ending, CliError> {
    super::destination::check(&[("--junit", &args.junit), ("--report", &args.report)])?;
    let duration = match args.duration {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            return Err(CliError::Usage(format!(
                "--duration must be a positive number of seconds, got {s}"
            )));
        }
        Some(s) => Some(Duration::from_secs_f64(s.min(1e9))),
        None => None,
    };
    if args.max_body_bytes == 0 {
        return Err(CliError::Usage(
            "--max-body-bytes must be at least 1".into(),
        ));
    }
    let config = WitnessConfig {
        listen: args.listen,
        allow_non_loopback: args.allow_remote,
        limits: Limits {
            max_body_bytes: args.max_body_bytes,
            ..Limits::default()
        },
        ..WitnessConfig::default()
    };
    let mut fanout = FanOut::new(Redactor::new(Vec::<String>::new()), reporters(args, color));
    runtime()?.block_on(async move {
        let running = Witness::start(config).await.map_err(CliError::Usage)?;
        // First, before any report line: scripts and people read the URL from here.
        super::out::line(format_args!(
            "mmconform witness listening: {}",
            running.base_url()
        ));
        let started = Instant::now();
        fanout.handle(&Event::RunStarted(Box::new(run_info(&running, args))));
        let stop = Stop::watch(duration.map(|d| tokio::time::Instant::now() + d));
        let (end, counts) = judge_calls(&running, args.count, &stop, &mut fanout).await;
        tokio::select! {
            () = running.shutdown() => {}
            // A second Ctrl-C: out now, without waiting for reports.
            () = stop.abandoned() => return Ok(Ending::Interrupted),
        }
        let summary = summary(&counts, end, duration, started);
        fanout.handle(&Event::RunFinished(summary.clone()));
        let failures = fanout.finish();
        Ok(if failures.is_empty() {
            Ending::Run(summary.exit_code)
        } else {
            Ending::ReportsUnwritten(failures.iter().map(|f| f.to_string()).collect())
        })
    })
}

fn reporters(args: &WitnessArgs, color: bool) -> Vec<Box<dyn Reporter>> {
    let mut reporters: Vec<Box<dyn Reporter>> = vec![Box::new(TerminalReporter::new(
        TerminalOptions {
            color,
            verbose: args.verbose,
            progress: false,
            quiet: false,
        },
        Box::new(std::io::stdout()),
    ))];
    if let Some(path) = &args.junit {
        reporters.push(Box::new(JunitReporter::new(path.clone())));
    }
    if let Some(path) = &args.report {
        reporters.push(Box::new(JsonReporter::new(path.clone())));
    }
    reporters
}

/// Judges each call as it arrives, until `count` calls, or the stop signal.
async fn judge_calls(
    running: &RunningWitness,
    count: Option<u64>,
    stop: &Stop,
    fanout: &mut FanOut,
) -> (End, BTreeMap<Outcome, usize>) {
    let mut counts: BTreeMap<Outcome, usize> = BTreeMap::new();
    let mut judged: u64 = 0;
    let mut last_seq = 0;
    loop {
        if count.is_some_and(|n| judged >= n) {
            return (End::Count, counts);
        }
        let calls = tokio::select! {
            calls = running.wait_for_calls(last_seq, Duration::from_secs(3600)) => calls,
            reason = stop.wait() => {
                let end = match reason {
                    StopReason::Deadline => End::Duration,
                    StopReason::Interrupted => End::Interrupted,
                };
                return (end, counts);
            }
        };
        for call in calls {
            if count.is_some_and(|n| judged >= n) {
                break;
            }
            last_seq = call.seq;
            // The standalone witness judges calls, not a run: never --strict.
            let observed = verdict::Findings::observed(case::observe(&call));
            let result = verdict::decide(observed, false);
            *counts.entry(result.outcome).or_default() += 1;
            fanout.handle(&Event::CaseFinished {
                index: judged as usize,
                result: Box::new(result),
            });
            judged += 1;
        }
        // Judged: the log may let them go, so it never fills in a long session.
        running.forget_through(last_seq);
    }
}

fn run_info(running: &RunningWitness, args: &WitnessArgs) -> RunInfo {
    let mut warnings = Vec::new();
    if !running.addr().ip().to_canonical().is_loopback() {
        warnings.push(format!(
            "the witness listens on {}, not loopback: whoever reaches it is answered and recorded",
            running.addr()
        ));
    }
    let mut stops = Vec::new();
    if let Some(n) = args.count {
        stops.push(format!("after {n} call(s)"));
    }
    if let Some(s) = args.duration {
        stops.push(format!("after {s} s"));
    }
    stops.push("on Ctrl-C".into());
    RunInfo {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        profile: "witness".into(),
        target: format!("clients of {}", running.base_url()),
        protocol_options: serde_json::Map::new(),
        strict: false,
        require: false,
        opted_out_profiles: Vec::new(),
        filters: Vec::new(),
        concurrency: running.config().limits.max_concurrent,
        started_at: now_rfc3339(),
        nonce: String::new(),
        scenario_set_sha256: crate::scenario::suite::set_sha256(&[]),
        scenario_files: Vec::new(),
        declared: None,
        baseline: None,
        warnings,
        insecure_tls: false,
        witness: None,
        // A witness's cases are the calls clients make: there is no run to repeat.
        rerun_base: Vec::new(),
        report_file: (args.report.as_ref()).map(|p| p.display().to_string()),
        protocol_view: EvidenceView {
            summary: format!("stops {}", stops.join(", ")),
            properties: Vec::new(),
            lines: Vec::new(),
        },
    }
}

fn summary(
    counts: &BTreeMap<Outcome, usize>,
    end: End,
    duration: Option<Duration>,
    started: Instant,
) -> RunSummary {
    let facts = RunFacts {
        interrupted: end == End::Interrupted,
        ..RunFacts::default()
    };
    let mut decision = exit::decide(counts, &facts);
    let calls: usize = counts.values().sum();
    if calls == 0 && end != End::Interrupted {
        decision.explanation = match duration {
            Some(d) => format!("no model call arrived in {} s", d.as_secs_f64()),
            None => "no model call arrived".to_string(),
        };
    } else if decision.code == exit::PASSED {
        decision.explanation = format!("every one of {calls} model call(s) met the wire rules");
    } else if decision.code == exit::CONFORMANCE_FAILURE {
        let failed = counts.get(&Outcome::Fail).copied().unwrap_or(0);
        decision.explanation = format!("{failed} of {calls} model call(s) broke a wire rule");
    }
    RunSummary {
        counts: counts.clone(),
        self_checks: BTreeMap::new(),
        exit_code: decision.code,
        verdict: decision.verdict.to_string(),
        explanation: decision.explanation,
        duration_ms: started.elapsed().as_millis() as u64,
        finished_at: now_rfc3339(),
        incomplete: end == End::Interrupted,
        baseline_drift: Vec::new(),
        flaky: 0,
        deadline_reached: false,
        advice: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(list: &[(Outcome, usize)]) -> BTreeMap<Outcome, usize> {
        list.iter().copied().collect()
    }

    #[test]
    fn the_exit_code_says_whether_calls_met_the_rules_or_none_came() {
        let now = Instant::now();
        let s = summary(&counts(&[(Outcome::Pass, 2)]), End::Count, None, now);
        assert_eq!((s.exit_code, s.incomplete), (0, false));
        assert_eq!(
            s.explanation,
            "every one of 2 model call(s) met the wire rules"
        );
        let s = summary(
            &counts(&[(Outcome::Pass, 2), (Outcome::Fail, 1)]),
            End::Duration,
            None,
            now,
        );
        assert_eq!(s.exit_code, 1);
        assert_eq!(s.explanation, "1 of 3 model call(s) broke a wire rule");
        let s = summary(
            &counts(&[]),
            End::Duration,
            Some(Duration::from_secs(2)),
            now,
        );
        assert_eq!(s.exit_code, 3);
        assert_eq!(s.explanation, "no model call arrived in 2 s");
        let s = summary(&counts(&[(Outcome::Fail, 1)]), End::Interrupted, None, now);
        assert_eq!((s.exit_code, s.incomplete), (130, true));
    }
}
