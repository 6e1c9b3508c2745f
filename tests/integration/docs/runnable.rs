//! The commands the README and the guide show are run, extracted from the pages (never
//! copied into a test), with the built binary first on `PATH`.
//!
//! Two markers, HTML comments a forge does not render, sit on the line before a fence:
//! - `<!-- runnable -->` before a ```` ```sh ```` block: every command in it whose comment
//!   says `exits N` is run (in the page's own scratch directory, in page order) and must
//!   exit N. Commands without it need the reader's own host and are only shown.
//! - `<!-- file: NAME -->` before any block: its text is written to NAME in that
//!   directory first (a project file, a claims file), so the commands after it read it.

use super::{markdown_files, read, shown};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One step of a page: a file to write or a command to run.
#[derive(Debug, PartialEq)]
enum Step {
    File {
        name: String,
        text: String,
    },
    Command {
        line: usize,
        command: String,
        exit: i32,
    },
}

/// The steps of one page, in order.
fn steps(text: &str) -> Vec<Step> {
    let lines: Vec<&str> = text.lines().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        // A block may sit in a list item: markers and fences may be indented alike.
        let marker = lines[i].trim();
        let fence = lines.get(i + 1).copied().unwrap_or("");
        let indent = fence.len() - fence.trim_start().len();
        let fenced = fence.trim_start().starts_with("```");
        let file = marker
            .strip_prefix("<!-- file:")
            .and_then(|m| m.strip_suffix("-->"));
        if !fenced || (marker != "<!-- runnable -->" && file.is_none()) {
            i += 1;
            continue;
        }
        let body_start = i + 2;
        let body_end = (body_start..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .unwrap_or_else(|| panic!("line {}: unclosed code block", i + 2));
        let body: Vec<&str> = lines[body_start..body_end]
            .iter()
            .map(|l| l.strip_prefix(&fence[..indent]).unwrap_or(l))
            .collect();
        match file {
            Some(name) => steps.push(Step::File {
                name: name.trim().to_string(),
                text: body.iter().map(|l| format!("{l}\n")).collect(),
            }),
            None => steps.extend(commands(&body, body_start + 1)),
        }
        i = body_end + 1;
    }
    steps
}

/// The commands of a runnable block that say how they exit (`\` continues a line).
fn commands(body: &[&str], first_line: usize) -> Vec<Step> {
    let mut out = Vec::new();
    let mut pending = String::new();
    let mut start = first_line;
    for (n, line) in body.iter().enumerate() {
        if pending.is_empty() {
            start = first_line + n;
        }
        if let Some(continued) = line.strip_suffix('\\') {
            pending.push_str(continued);
            continue;
        }
        pending.push_str(line);
        let command = std::mem::take(&mut pending);
        let Some((command, comment)) = split_comment(&command) else {
            continue;
        };
        if let Some(exit) = exits(comment) {
            out.push(Step::Command {
                line: start,
                command: command.trim().to_string(),
                exit,
            });
        }
    }
    out
}

/// `command  # comment`, split at the first ` #` outside quotes.
fn split_comment(line: &str) -> Option<(&str, &str)> {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if i > 0 && line[..i].ends_with(' ') => {
                return Some((&line[..i], &line[i..]));
            }
            _ => {}
        }
    }
    None
}

/// `exits 3` (or `exit 3`) in a comment.
fn exits(comment: &str) -> Option<i32> {
    let words: Vec<&str> = comment
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .find(|w| w[0] == "exits" || w[0] == "exit")
        .and_then(|w| w[1].parse().ok())
}

/// Runs `command` with `sh -c` in `dir`, the built binary first on PATH, within a minute.
fn run(dir: &Path, command: &str) -> (Option<i32>, String) {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_mmconform")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh");
    child
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for variable in [
        "OPENWOP_BASE_URL",
        "AGUI_TARGET_URL",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        "OPENWOP_API_KEY",
        "OPENWOP_REQUIRE_BEHAVIOR",
        "OPENWOP_OPTED_OUT_PROFILES",
        "GITHUB_STEP_SUMMARY",
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        child.env_remove(variable);
    }
    let mut child = child.spawn().unwrap();
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            return (status.code(), text);
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            return (None, "still running after 120 s: killed".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The last lines of a command's output, for a failure message.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

#[test]
fn every_runnable_command_in_the_docs_exits_as_it_says() {
    let pages: Vec<(PathBuf, Vec<Step>)> = markdown_files()
        .into_iter()
        .map(|page| {
            let steps = steps(&read(&page));
            (page, steps)
        })
        .filter(|(_, steps)| !steps.is_empty())
        .collect();
    // Pages are independent (each has its own scratch directory) and their commands
    // mostly wait on timeouts and hosts, so a few pages run at once; a page's own
    // commands run in order.
    let results = crate::common::parallel::in_parallel(&pages, PAGES_AT_ONCE, |(page, steps)| {
        run_page(page, steps)
    });
    let ran: usize = results.iter().map(|(ran, _)| ran).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|(_, f)| f).collect();
    assert!(ran >= 20, "only {ran} runnable commands found in the docs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// How many pages run their commands at the same time.
const PAGES_AT_ONCE: usize = 3;

/// Runs one page's steps in its own scratch directory: how many commands ran, and what
/// went wrong.
fn run_page(page: &Path, steps: &[Step]) -> (usize, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let (mut ran, mut failures) = (0, Vec::new());
    for step in steps {
        match step {
            Step::File { name, text } => {
                let path = dir.path().join(name);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            Step::Command {
                line,
                command,
                exit,
            } => {
                ran += 1;
                let (code, output) = run(dir.path(), command);
                if code != Some(*exit) {
                    failures.push(format!(
                        "{}:{line}: `{command}` exited {code:?}, the page says {exit}\n{}",
                        shown(page),
                        tail(&output)
                    ));
                }
            }
        }
    }
    (ran, failures)
}

#[test]
fn markers_comments_and_continuations_are_read_as_documented() {
    let page = "text\n  <!-- file: ci/x.toml -->\n  ```toml\n  a = 1\n  ```\n\
                <!-- runnable -->\n```sh\nmmconform run --target reference   # exits 0\n\
                mmconform run --target http://localhost:8080   # your host\n\
                mmconform run --filter 'a # b' \\\n    --target reference   # (exits 3)\n```\n\
                ```sh\nmmconform lint   # exits 2, not marked\n```\n";
    assert_eq!(
        steps(page),
        vec![
            Step::File {
                name: "ci/x.toml".into(),
                text: "a = 1\n".into()
            },
            Step::Command {
                line: 8,
                command: "mmconform run --target reference".into(),
                exit: 0
            },
            Step::Command {
                line: 10,
                command: "mmconform run --filter 'a # b'     --target reference".into(),
                exit: 3
            },
        ]
    );
}

/// The runner reports a command that does not exit as the page says.
#[test]
fn a_wrong_exit_code_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(run(dir.path(), "mmconform lint").0, Some(0));
    assert_eq!(run(dir.path(), "mmconform run --no-such-flag").0, Some(2));
}
