//! What the hostile bridges and agents share: a program written to a file (so its
//! script needs no quoting on a command line), every output a run wrote, the secrets
//! they try to leak, and whether the processes they started are still running.

use super::RunResult;
use std::path::Path;

/// Values of secret-looking variables in mmconform's environment that a hostile
/// target prints everywhere it can.
pub const SECRETS: [(&str, &str); 3] = [
    ("OPENAI_API_KEY", "sk-canary-openai-8Jd2w"),
    ("GH_TOKEN", "ghp_canaryGithub77x"),
    ("MY_APP_SECRET", "app-secret-canary-Q3v"),
];

/// Writes `body` as a `sh` script in `dir`; the `--target-cmd` that runs it.
pub fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

/// The extra arguments that make a run write every output it can: verbose terminal,
/// the hurl export and the CI summary (beside the report and JUnit file).
pub fn all_outputs_args(dir: &Path) -> Vec<String> {
    vec![
        "-v".into(),
        "--export-hurl".into(),
        dir.join("run.hurl").display().to_string(),
        "--github-summary".into(),
        dir.join("summary.md").display().to_string(),
    ]
}

/// (name, text) of the terminal output and of every file the run wrote in `dirs`.
pub fn every_output(r: &RunResult, dirs: &[&Path]) -> Vec<(String, String)> {
    let mut out = vec![
        ("stdout".to_string(), r.stdout.clone()),
        ("stderr".to_string(), r.stderr.clone()),
    ];
    let mut pending: Vec<std::path::PathBuf> = dirs.iter().map(|d| d.to_path_buf()).collect();
    pending.push(r.dir.path().to_path_buf());
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(text) = std::fs::read(&path) {
                out.push((
                    path.display().to_string(),
                    String::from_utf8_lossy(&text).into_owned(),
                ));
            }
        }
    }
    out
}

/// Asserts no secret of [`SECRETS`] (nor its first 12 characters) is in any output.
pub fn assert_no_secret(outputs: &[(String, String)]) {
    for (name, text) in outputs {
        for (var, value) in SECRETS {
            assert!(
                !text.contains(&value[..12]),
                "{name} holds {var}'s value:\n{text}"
            );
        }
    }
}

/// Whether `pid` is a running process (a zombie waiting for its reaper is not).
pub fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(") ").map(|(_, rest)| rest.chars().next());
        !matches!(state, Some(Some('Z' | 'X')))
    })
}

/// The pids written to `file`, one a line (none when it does not exist).
pub fn pids(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}
