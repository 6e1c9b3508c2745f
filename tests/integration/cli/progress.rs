//! The progress bar under a real pseudo-terminal (util-linux `script`): drawn when
//! stdout and stderr are both the terminal, never when stdout is piped (`| cat`, as
//! `| tee log` would), where it would interleave with the case lines.

use std::process::Command;

/// Runs `shell` under a pseudo-terminal and returns everything the terminal showed;
/// `None` (outside CI only) when `script` is not installed.
pub(super) fn under_pty(shell: &str) -> Option<String> {
    let probe = Command::new("script").arg("--version").output();
    if probe.is_err() {
        assert!(
            std::env::var("CI").is_err(),
            "util-linux `script` is needed for the pseudo-terminal tests"
        );
        eprintln!("skipping: util-linux `script` is not installed");
        return None;
    }
    let out = Command::new("script")
        .args(["-qec", shell, "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn command(pipe: bool) -> String {
    let bin = assert_cmd::cargo::cargo_bin("mmconform");
    // A paced run lasts long enough (about 3 s) for the bar to be drawn.
    let run = format!(
        "{} run --target reference --filter openwop.rfc0091.* --rate 20/s -j 1",
        bin.display()
    );
    if pipe { format!("{run} | cat") } else { run }
}

/// Whether `N/M cases`, as the bar's template writes it, is on the screen.
fn bar_drawn(screen: &str) -> bool {
    screen.split("cases").any(|before| {
        let tail = before.trim_end();
        let count: String = tail
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '/')
            .collect();
        count.contains('/') && count.len() >= 3
    })
}

#[test]
fn the_bar_is_drawn_on_a_terminal_and_never_into_a_pipe() {
    let Some(terminal) = under_pty(&command(false)) else {
        return;
    };
    assert!(terminal.contains("verdict: passed"), "{terminal}");
    assert!(bar_drawn(&terminal), "no bar on a terminal:\n{terminal}");
    let piped = under_pty(&command(true)).unwrap();
    assert!(piped.contains("verdict: passed"), "{piped}");
    assert!(!bar_drawn(&piped), "a bar was drawn into a pipe:\n{piped}");
}
