//! What to start: argv (split as a shell would from `--target-cmd`, never run by one),
//! an optional working directory, and variables added to the parent environment.

use std::path::PathBuf;

/// A program to start, once per request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The program and its arguments; never empty.
    pub argv: Vec<String>,
    /// Where it runs (`--target-cwd`); `None`: a fresh temporary directory per run.
    pub cwd: Option<PathBuf>,
}

impl Command {
    /// Splits `line` as a POSIX shell would (quotes, backslashes), without expanding
    /// anything: `Err` for an empty line or unbalanced quotes.
    pub fn parse(line: &str, cwd: Option<PathBuf>) -> Result<Command, String> {
        let argv = shlex::split(line).ok_or_else(|| {
            format!(
                "`{line}` does not split into arguments: an unclosed quote or a trailing backslash"
            )
        })?;
        if argv.is_empty() {
            return Err("the command is empty".into());
        }
        Ok(Command { argv, cwd })
    }

    /// The command as a shell line (for reports and for pasting into a terminal).
    pub fn shown(&self) -> String {
        shlex::try_join(self.argv.iter().map(String::as_str))
            .unwrap_or_else(|_| self.argv.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_splits_as_a_shell_would_without_expanding_anything() {
        let c = Command::parse(
            r#"node bridge.mjs --runtime "./my runtime.mjs" $HOME 'a b'"#,
            None,
        )
        .unwrap();
        assert_eq!(
            c.argv,
            [
                "node",
                "bridge.mjs",
                "--runtime",
                "./my runtime.mjs",
                "$HOME",
                "a b"
            ]
        );
        assert_eq!(
            c.shown(),
            "node bridge.mjs --runtime './my runtime.mjs' '$HOME' 'a b'"
        );
    }

    #[test]
    fn empty_and_unbalanced_lines_are_refused() {
        assert!(Command::parse("   ", None).unwrap_err().contains("empty"));
        assert!(
            Command::parse("node 'x", None)
                .unwrap_err()
                .contains("unclosed quote")
        );
    }
}
