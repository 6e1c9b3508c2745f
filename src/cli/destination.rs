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
