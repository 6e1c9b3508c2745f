//! Running `mmconform witness` from tests: the built binary on 127.0.0.1:0, its
//! printed URL, blocking POSTs to it, and what it left when it ended.

use super::{assert_junit_valid, read_json};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `mmconform witness`, its base URL, and where its reports go.
pub struct Served {
    child: Child,
    pub url: String,
    /// The first stdout line (the URL line).
    pub first_line: String,
    /// Every later stdout line, as it comes.
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
    /// Taken by [`Served::wait`], so the reports outlive the process.
    dir: Option<tempfile::TempDir>,
}

pub struct Ended {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub report: Option<Value>,
    pub junit: Option<String>,
    pub report_path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Ended {
    pub fn cases(&self) -> Vec<Value> {
        self.report.as_ref().expect("a report")["cases"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    pub fn context(&self) -> String {
        format!(
            "exit {}\nstdout:\n{}\nstderr:\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    /// (id, outcome, failed checks) of every case.
    pub fn verdicts(&self) -> Vec<(String, String, Vec<String>)> {
        self.cases()
            .iter()
            .map(|c| {
                let failed = c["assertions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|a| a["passed"] == false)
                    .map(|a| a["check"].as_str().unwrap().to_string())
                    .collect();
                (
                    c["id"].as_str().unwrap().to_string(),
                    c["outcome"].as_str().unwrap().to_string(),
                    failed,
                )
            })
            .collect()
    }
}

pub fn mmconform() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mmconform"));
    cmd.env("NO_COLOR", "1");
    for proxy in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        cmd.env_remove(proxy);
    }
    cmd
}

impl Served {
    /// `mmconform witness --listen 127.0.0.1:0 --report .. --junit .. ARGS`.
    pub fn start(args: &[&str]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let mut child = mmconform()
            .args(["witness", "--listen", "127.0.0.1:0"])
            .arg("--report")
            .arg(dir.path().join("report.json"))
            .arg("--junit")
            .arg(dir.path().join("junit.xml"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first_line = String::new();
        stdout.read_line(&mut first_line).unwrap();
        let url = first_line
            .split_whitespace()
            .find(|w| w.starts_with("http://127.0.0.1:"))
            .unwrap_or_else(|| panic!("no URL in the first line {first_line:?}"))
            .to_string();
        // Keep reading, so a chatty run never blocks on a full pipe.
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Served {
            child,
            url,
            first_line,
            lines,
            seen: Vec::new(),
            dir: Some(dir),
        }
    }

    /// Waits (at most 30 s) for a stdout line containing `text`.
    pub fn wait_for_line(&mut self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.seen.iter().any(|l| l.contains(text)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(_) => panic!("no line with {text:?} in {:?}", self.seen),
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits (at most `limit`) for the witness to end by itself, and reads what it left.
    pub fn wait(mut self, limit: Duration) -> Ended {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > limit {
                let _ = self.child.kill();
                panic!("the witness was still running after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The process is gone, so its stdout ends: read the lines up to there.
        self.seen.extend(self.lines.iter());
        let rest: String = self.seen.iter().map(|l| format!("{l}\n")).collect();
        let mut stderr = String::new();
        let _ = self
            .child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr);
        let dir = self.dir.take().unwrap();
        let report_path = dir.path().join("report.json");
        let junit_path = dir.path().join("junit.xml");
        if junit_path.exists() {
            assert_junit_valid(&junit_path);
        }
        Ended {
            code: status.code().unwrap_or(-1),
            stdout: format!("{}{rest}", self.first_line),
            stderr,
            report: read_json(&report_path),
            junit: std::fs::read_to_string(dir.path().join("junit.xml")).ok(),
            report_path,
            _dir: dir,
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// POSTs `body` to `{url}{path}`; the status and the answer's text.
pub fn post(url: &str, path: &str, body: impl Into<reqwest::Body>) -> (u16, String) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let r = client()
            .post(format!("{url}{path}"))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    })
}
