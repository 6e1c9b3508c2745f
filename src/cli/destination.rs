//! Output files are checked before anything is sent: a run that cannot write its
//! report should say so at once (exit 2, naming the path), not after every case ran.

use super::CliError;
use crate::report::check_writable;
use std::path::PathBuf;

/// Exit 2 naming the first destination (`--junit`, `--report`, `-o`, ...) that cannot be
/// written.
pub fn check(destinations: &[(&str, &Option<PathBuf>)]) -> Result<(), CliError> {
    distinct(destinations)?;
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

/// Exit 2 when two reports would be written to one file: the last writer would
/// silently replace the other. Paths are compared as the file system resolves them
/// (`./x`, `out/../x` and a symlink to `x` are all `x`).
fn distinct(destinations: &[(&str, &Option<PathBuf>)]) -> Result<(), CliError> {
    let mut seen: Vec<(&str, &PathBuf, PathBuf)> = Vec::new();
    for (flag, path) in destinations {
        let Some(path) = path else { continue };
        let key = resolved(path);
        if let Some((first, first_path, _)) = seen.iter().find(|(_, _, k)| *k == key) {
            return Err(CliError::Usage(format!(
                "{first} {} and {flag} {} name the same file: give each report its own path",
                first_path.display(),
                path.display()
            )));
        }
        seen.push((flag, path, key));
    }
    Ok(())
}

/// `path` as the file system resolves it: absolute, `.` and `..` gone, symlinks of an
/// existing file or directory followed.
fn resolved(path: &std::path::Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    match (
        clean.parent().and_then(|p| p.canonicalize().ok()),
        clean.file_name(),
    ) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => clean,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_reports_in_one_file_are_refused_however_the_path_is_spelled() {
        let dir = tempfile::tempdir().unwrap();
        let x = dir.path().join("x");
        let spelled = dir.path().join("sub").join("..").join(".").join("x");
        for (a, b) in [(x.clone(), x.clone()), (x.clone(), spelled)] {
            let err = distinct(&[("--report", &Some(a)), ("--junit", &Some(b))]).unwrap_err();
            let CliError::Usage(message) = err else {
                panic!("a usage error");
            };
            assert!(
                message.contains("--report") && message.contains("--junit"),
                "{message}"
            );
            assert!(message.contains("same file"), "{message}");
        }
        std::fs::write(&x, "").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&x, &link).unwrap();
        assert!(distinct(&[("--report", &Some(x.clone())), ("--junit", &Some(link))]).is_err());
        let y = dir.path().join("y");
        assert!(
            distinct(&[
                ("--report", &Some(x)),
                ("--junit", &Some(y)),
                ("--html", &None)
            ])
            .is_ok()
        );
    }
}
