//! Output files are checked before anything is sent: a run that cannot write its
//! report should say so at once (exit 2, naming the path), not after every case ran.

use super::CliError;
use crate::report::check_writable;
use std::path::PathBuf;

/// Exit 2 naming the first destination (`--junit`, `--report`, `-o`, ...) that cannot be
/// written.
pub fn check(destinations: &[(&str, &Option<PathBuf>)]) -> Result<(), CliError> {
    for (flag, path) in destinations {
        if let Some(path) = path {
            // A missing directory is created (CI jobs write `out/junit.xml` on a fresh
            // checkout), but said: a typo in a path should not vanish without a word.
            let missing = path
                .parent()
                .filter(|dir| !dir.as_os_str().is_empty() && !dir.exists());
            if let Some(dir) = missing {
                super::out::error_line(format_args!(
                    "note: {flag} {}: creating the missing directory {}",
                    path.display(),
                    dir.display()
                ));
            }
            check_writable(path).map_err(|e| {
                CliError::Usage(format!(
                    "{flag} {}: cannot write a file there ({e})",
                    path.display()
                ))
            })?;
        }
    }
    Ok(())
}

/// `--github-summary FILE` replaces FILE; without it, under GitHub Actions, the job's
/// `$GITHUB_STEP_SUMMARY` is appended to (other steps write there too).
pub(super) fn github_summary(
    given: Option<&std::path::PathBuf>,
    env: super::resolve::Env,
) -> Option<(std::path::PathBuf, crate::config::SummaryWrite)> {
    use crate::config::SummaryWrite;
    match given {
        Some(path) => Some((path.clone(), SummaryWrite::Replace)),
        None => env("GITHUB_STEP_SUMMARY")
            .filter(|path| !path.is_empty())
            .map(|path| (path.into(), SummaryWrite::Append)),
    }
}
