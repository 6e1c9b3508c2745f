//! Rerunning what a saved run left to look at: `--rerun-failed REPORT` selects its
//! failed, errored and blocked cases (with any `--filter`, all of them); `--from-report
//! REPORT` lends its outcomes to `outcome(..)` in `--filter`. And the command a run
//! ends with to rerun exactly its own: the command line as typed, without its
//! selection and its outputs (a rerun must not replace the reports it came from).

use crate::config::RunConfig;
use crate::outcome::Outcome;
use crate::plan::filter::Filter;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What `--rerun-failed` selects in its report.
pub const RERUN_FILTER: &str = "outcome(fail) or outcome(error) or outcome(blocked)";

/// Largest report read (a report is a few MiB at most; this bounds a wrong file).
const MAX_REPORT_BYTES: u64 = 256 * 1024 * 1024;

/// A saved report's profile and its outcomes by case id.
fn saved_outcomes(flag: &str, path: &Path) -> Result<(String, HashMap<String, Outcome>), String> {
    let shown = path.display();
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{flag} {shown}: {e}"))?
        .len();
    if size > MAX_REPORT_BYTES {
        return Err(format!(
            "{flag} {shown}: {size} bytes is no mmconform report"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{flag} {shown}: {e}"))?;
    let report: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{flag} {shown}: not a JSON report ({e})"))?;
    let cases = report["cases"]
        .as_array()
        .ok_or_else(|| format!("{flag} {shown}: no `cases` list: not a `run --report` file"))?;
    let mut outcomes = HashMap::new();
    for case in cases {
        let id = case["id"].as_str();
        let outcome = serde_json::from_value::<Outcome>(case["outcome"].clone()).ok();
        if let (Some(id), Some(outcome)) = (id, outcome) {
            outcomes.insert(id.to_string(), outcome);
        }
    }
    let profile = report["run"]["profile"].as_str().unwrap_or_default();
    Ok((profile.to_string(), outcomes))
}

/// Binds `config.filters` to the saved report (`rerun_failed` or `from_report`), adds
/// the rerun's own filter, and refuses `outcome(..)` without a report.
pub fn apply(
    config: &mut RunConfig,
    rerun_failed: Option<&Path>,
    from_report: Option<&Path>,
) -> Result<(), String> {
    let (flag, path) = match (rerun_failed, from_report) {
        (Some(path), _) => ("--rerun-failed", path),
        (None, Some(path)) => ("--from-report", path),
        (None, None) => {
            if config.filters.iter().any(Filter::uses_outcome) {
                return Err(
                    "--filter uses outcome(..), which is judged on a saved report: add \
                     --from-report REPORT (or --rerun-failed REPORT)"
                        .into(),
                );
            }
            return Ok(());
        }
    };
    let (profile, outcomes) = saved_outcomes(flag, path)?;
    let ours = config
        .protocol
        .unwrap_or_else(|| crate::registry::default_protocol().name());
    if !profile.is_empty() && profile != ours {
        return Err(format!(
            "{flag} {}: a report of --profile {profile}, and this run is --profile {ours}",
            path.display()
        ));
    }
    if rerun_failed.is_some() {
        let rerun = Filter::parse(RERUN_FILTER)?;
        config.filters.push(rerun);
        config.filter_text.push(format!(
            "{RERUN_FILTER} (--rerun-failed {})",
            path.display()
        ));
        let left = (outcomes.values())
            .filter(|o| matches!(o, Outcome::Fail | Outcome::Error | Outcome::Blocked))
            .count();
        if left == 0 {
            super::out::error_line(format_args!(
                "note: --rerun-failed {}: no case failed, errored or was blocked there; nothing to rerun",
                path.display()
            ));
        }
    }
    let outcomes = Arc::new(outcomes);
    config.filters = std::mem::take(&mut config.filters)
        .into_iter()
        .map(|f| f.with_outcomes(outcomes.clone()))
        .collect();
    Ok(())
}

/// Options a rerun drops: the selection (replaced by the rerun's) and the outputs.
const DROPPED: [&str; 8] = [
    "--filter",
    "--rerun-failed",
    "--from-report",
    "--report",
    "--junit",
    "--github-summary",
    "--html",
    "--export-hurl",
];

/// The command line `argv` (the program first) as a rerun starts from: `mmconform`,
/// then every argument but the dropped options and their values.
pub fn base_command(argv: &[String]) -> Vec<String> {
    let mut out = vec!["mmconform".to_string()];
    let mut args = argv.iter().skip(1);
    while let Some(arg) = args.next() {
        let dropped = DROPPED
            .iter()
            .find(|flag| arg == *flag || arg.starts_with(&format!("{flag}=")));
        match dropped {
            Some(flag) if arg == flag => {
                args.next();
            }
            Some(_) => {}
            None => out.push(arg.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn the_rerun_starts_from_the_command_without_selection_and_outputs() {
        let base = base_command(&argv(
            "/usr/bin/mmconform run --target http://h --filter x --report=r.json --junit j.xml -q --rerun-failed old.json --strict",
        ));
        assert_eq!(
            base,
            ["mmconform", "run", "--target", "http://h", "-q", "--strict"]
        );
    }

    fn report(dir: &Path, profile: &str) -> std::path::PathBuf {
        let path = dir.join("report.json");
        let cases = serde_json::json!([
            {"id": "a", "outcome": "fail"},
            {"id": "b", "outcome": "pass"},
            {"id": "c", "outcome": "blocked"},
            {"id": "d", "outcome": "warn"},
        ]);
        let text = serde_json::json!({"run": {"profile": profile}, "cases": cases});
        std::fs::write(&path, text.to_string()).unwrap();
        path
    }

    fn selected(config: &RunConfig) -> Vec<&'static str> {
        ["a", "b", "c", "d"]
            .into_iter()
            .filter(|id| {
                let subject = crate::plan::filter::Subject {
                    id,
                    case_id: id,
                    level: crate::outcome::Level::Must,
                    source: "s",
                    profile: None,
                };
                crate::plan::filter::selects(&config.filters, &subject, None)
            })
            .collect()
    }

    #[test]
    fn rerun_failed_selects_the_report_s_failed_and_blocked_cases() {
        let dir = tempfile::tempdir().unwrap();
        let path = report(dir.path(), "openwop");
        let mut config = RunConfig::new(crate::config::Target::Offline);
        apply(&mut config, Some(&path), None).unwrap();
        assert_eq!(selected(&config), ["a", "c"]);
        let mut config = RunConfig::new(crate::config::Target::Offline);
        config.filters = vec![Filter::parse("outcome(warn) or b").unwrap()];
        apply(&mut config, None, Some(&path)).unwrap();
        assert_eq!(selected(&config), ["b", "d"]);
    }

    #[test]
    fn outcome_without_a_report_and_a_report_of_another_profile_are_refused() {
        let mut config = RunConfig::new(crate::config::Target::Offline);
        config.filters = vec![Filter::parse("outcome(fail)").unwrap()];
        let error = apply(&mut config, None, None).unwrap_err();
        assert!(error.contains("--from-report"), "{error}");
        let dir = tempfile::tempdir().unwrap();
        let path = report(dir.path(), "agui");
        let mut config = RunConfig::new(crate::config::Target::Offline);
        let error = apply(&mut config, Some(&path), None).unwrap_err();
        assert!(error.contains("--profile agui"), "{error}");
        std::fs::write(&path, "{}").unwrap();
        let error = apply(&mut config, Some(&path), None).unwrap_err();
        assert!(error.contains("no `cases` list"), "{error}");
    }
}
