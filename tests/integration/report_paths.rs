//! Report destinations are checked before anything is sent (exit 2, naming the path),
//! and reports get the user's umask, not a temporary file's 0600.

use crate::common::{assert_junit_valid, bin};
use std::net::TcpListener;
use std::path::Path;

/// A target that records whether anything connected to it.
struct Listener(TcpListener);

impl Listener {
    fn new() -> Listener {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        Listener(listener)
    }

    fn url(&self) -> String {
        format!("http://{}", self.0.local_addr().unwrap())
    }

    /// The kernel completes connections into the backlog without `accept`, so a
    /// connection made during the run is still waiting here afterwards.
    fn contacted(&self) -> bool {
        self.0.accept().is_ok()
    }
}

fn run_with(flag: &str, path: &Path, target: &Listener) -> (i32, String) {
    let out = bin()
        .args(["run", "--target", &target.url(), "--timeout", "2"])
        .arg(flag)
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_unwritable_destination_is_exit_2_naming_it_before_any_request() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let cases = [
        ("--junit", Path::new("/proc/x.xml").to_path_buf()),
        ("--report", dir.path().to_path_buf()),
        ("--junit", file.join("junit.xml")),
    ];
    for (flag, path) in cases {
        let target = Listener::new();
        let (code, stderr) = run_with(flag, &path, &target);
        assert_eq!(code, 2, "{flag} {}: {stderr}", path.display());
        let named = format!("{flag} {}", path.display());
        assert!(stderr.contains(&named), "{named} not named: {stderr}");
        assert!(!target.contacted(), "a request was sent for {named}");
    }
    // The check leaves nothing behind.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

#[test]
fn other_commands_check_their_output_first_too() {
    let out = bin()
        .args(["calibrate", "--report", "/proc/calibration.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--report /proc/calibration.json"));
    // The witness checks its reports before it listens.
    let out = bin()
        .args([
            "witness",
            "--listen",
            "127.0.0.1:0",
            "--junit",
            "/proc/w.xml",
        ])
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--junit /proc/w.xml"));
}

#[cfg(unix)]
#[test]
fn reports_get_the_users_umask() {
    use std::os::unix::fs::PermissionsExt;
    let exe = assert_cmd::cargo::cargo_bin("mmconform");
    for (umask, expected) in [("022", 0o644), ("027", 0o640), ("002", 0o664)] {
        let dir = tempfile::tempdir().unwrap();
        let (junit, report) = (dir.path().join("j.xml"), dir.path().join("r.json"));
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
            .arg(&exe)
            .args(["run", "--offline", "--junit"])
            .arg(&junit)
            .arg("--report")
            .arg(&report)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(status.status.code(), Some(0), "{status:?}");
        assert_junit_valid(&junit);
        for file in [&junit, &report] {
            let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
            assert_eq!(
                mode,
                expected,
                "umask {umask}: {} is {mode:o}",
                file.display()
            );
        }
    }
}
