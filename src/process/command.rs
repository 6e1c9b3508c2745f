//! What to start: argv (split as a shell would from `--target-cmd`, never run by one)
//! and an optional working directory; and starting it, with the environment
//! [`Environment`] makes, as the leader of a process group of its own.

use super::environment::Environment;
use super::group::ProcessGroup;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use tokio::process::Child;

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

    /// Starts the program in `dir` with `environment`, its three streams piped, leading
    /// a process group of its own. `Err`: it could not be started.
    pub fn start(
        &self,
        dir: &Path,
        environment: &Environment,
    ) -> Result<(Child, ProcessGroup), String> {
        let program = &self.argv[0];
        let mut command = tokio::process::Command::new(program);
        command.args(&self.argv[1..]).current_dir(dir);
        environment.apply(&mut command);
        let child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start `{program}` (in {}): {e}", dir.display()))?;
        let group = ProcessGroup::of(&child);
        Ok((child, group))
    }

    /// The command as a shell line (for reports and for pasting into a terminal).
    pub fn shown(&self) -> String {
        shlex::try_join(self.argv.iter().map(String::as_str))
            .unwrap_or_else(|_| self.argv.join(" "))
    }
}

/// This program, to start again as a reference host (`serve-reference`). Linux names
/// an executable replaced since the process started (a rebuild during a long
/// calibration) `PATH (deleted)`, where no program is: `/proc/self/exe` still reaches
/// the running image then, and a child started from it is this same build.
pub fn this_program() -> Result<String, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find this program to start a reference host: {e}"))?;
    let shown = exe.to_string_lossy().into_owned();
    let replaced = shown.ends_with(" (deleted)") && !exe.exists();
    let running_image = std::path::Path::new("/proc/self/exe");
    Ok(if replaced && running_image.exists() {
        running_image.to_string_lossy().into_owned()
    } else {
        shown
    })
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
    fn this_program_is_a_file_that_exists() {
        let program = this_program().unwrap();
        assert!(std::path::Path::new(&program).exists(), "{program}");
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
