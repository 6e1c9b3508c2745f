//! `mmconform serve-reference ARGS --port 0` as a child process the test keeps running,
//! with the base URL its banner names; killed when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct Served {
    child: Child,
    /// The URL the banner names (the openai and anthropic servers' API base, `.../v1`).
    pub url: String,
    pub banner: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `serve-reference --port 0 ARGS` with `env` added, and waits for its banner.
pub fn serve_with_env(args: &[&str], env: &[(&str, &str)]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmconform"))
        .args(["serve-reference", "--port", "0"])
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut banner = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut banner)
        .unwrap();
    let url = banner
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {banner:?}"))
        .to_string();
    Served { child, url, banner }
}

pub fn serve(args: &[&str]) -> Served {
    serve_with_env(args, &[])
}
