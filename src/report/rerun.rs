//! The command a run ends with to rerun exactly its failed, errored and blocked cases:
//! `--rerun-failed REPORT` when it wrote a JSON report (which holds them), else their
//! ids as one `--filter` expression. The command line it starts from comes with the
//! run (`RunInfo::rerun_base`).

use crate::event::RunInfo;

/// The command, shell-quoted; `None` when the run has no command line to repeat or
/// nothing to rerun.
pub fn command(run: &RunInfo, ids: &[String]) -> Option<String> {
    if run.rerun_base.is_empty() || ids.is_empty() {
        return None;
    }
    let mut argv: Vec<String> = run.rerun_base.clone();
    match &run.report_file {
        Some(report) => argv.extend(["--rerun-failed".to_string(), report.clone()]),
        None => {
            let terms: Vec<String> = ids.iter().map(|id| format!("id(={id})")).collect();
            argv.extend(["--filter".to_string(), terms.join(" or ")]);
        }
    }
    shlex::try_join(argv.iter().map(String::as_str)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;

    #[test]
    fn the_rerun_names_the_report_or_else_the_ids() {
        let mut run = fixtures::run_info();
        let ids = vec!["a.b[x,y]".to_string(), "c@v2".to_string()];
        assert_eq!(
            command(&run, &ids).unwrap(),
            "mmconform run --target http://127.0.0.1:54321 --filter 'id(=a.b[x,y]) or id(=c@v2)'"
        );
        run.report_file = Some("out/evidence report.json".into());
        assert_eq!(
            command(&run, &ids).unwrap(),
            "mmconform run --target http://127.0.0.1:54321 --rerun-failed 'out/evidence report.json'"
        );
        assert_eq!(command(&run, &[]), None);
        run.rerun_base.clear();
        assert_eq!(command(&run, &ids), None);
    }
}
