//! Running the binary for the evidence tests: reports of the reference host, merges,
//! and reading the merged JSON.

use crate::common::bin;
use serde_json::Value;
use std::path::Path;

/// The reference host's shapes and variants the tests merge, as `run` arguments.
pub const TEXT_ONLY: &[&str] = &["--reference-modalities", "text"];
pub const TEXT_IMAGE: &[&str] = &[];
pub const ALL: &[&str] = &["--reference-modalities", "text,image,audio,document"];
/// Advertises aiProviders only inside the deprecated `capabilities` wrapper.
pub const WRAPPER_ONLY: &[&str] = &["--reference-fault", "wrapper-only-discovery"];
/// Advertises text,image,audio and answers 200 to unadvertised (document) parts.
pub const DROPS: &[&str] = &[
    "--reference-modalities",
    "text,image,audio",
    "--reference-fault",
    "silently-drops-unadvertised",
];

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    pub fn context(&self) -> String {
        format!(
            "exit {}\nstdout:\n{}\nstderr:\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}\n{}", self.context()))
    }
}

/// `mmconform run --target reference --require ARGS --report DIR/NAME`; returns its exit code.
pub fn report(dir: &Path, name: &str, args: &[&str]) -> i32 {
    let out = bin()
        .args([
            "run",
            "--target",
            "reference",
            "--require",
            "-j",
            "4",
            "--report",
        ])
        .arg(dir.join(name))
        .args(args)
        .output()
        .unwrap();
    assert!(dir.join(name).exists(), "{name}: no report written");
    out.status.code().unwrap_or(-1)
}

/// `mmconform evidence ARGS` run in `dir`, so file names stay relative.
pub fn evidence(dir: &Path, args: &[&str]) -> Out {
    let out = bin()
        .current_dir(dir)
        .arg("evidence")
        .args(args)
        .output()
        .unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The built-in criteria `name`, with the embedded host counted: its exclusion is
/// replaced by a steward origin that no input has.
pub fn counting_reference(dir: &Path, name: &str) -> String {
    let shown = evidence(dir, &["criteria", "--show", name]);
    assert_eq!(shown.code, 0, "{}", shown.context());
    let text = shown
        .stdout
        .replacen("\n  - reference\n", "\n  - https://steward.example\n", 1);
    assert_ne!(
        text, shown.stdout,
        "the built-in excludes the embedded host"
    );
    let file = format!("{name}-counting-reference.yaml");
    std::fs::write(dir.join(&file), text).unwrap();
    file
}

/// Five reports: three faithful shapes and two faulty variants, all with --require.
pub fn five_hosts(dir: &Path) -> Vec<&'static str> {
    let runs: [(&str, &[&str]); 5] = [
        ("text-only.json", TEXT_ONLY),
        ("text-image.json", TEXT_IMAGE),
        ("all.json", ALL),
        ("wrapper-only.json", WRAPPER_ONLY),
        ("drops.json", DROPS),
    ];
    for (name, args) in runs {
        // --require fails every skip, so even the faithful shapes exit 1.
        assert_eq!(report(dir, name, args), 1, "{name}");
    }
    runs.iter().map(|(n, _)| *n).collect()
}

pub fn requirement<'a>(merged: &'a Value, text_starts: &str) -> &'a Value {
    merged["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["text"].as_str().unwrap().starts_with(text_starts))
        .unwrap_or_else(|| panic!("no requirement starting {text_starts:?}"))
}

pub fn cell<'a>(merged: &'a Value, case: &str, host: &str) -> &'a Value {
    merged["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["cases"].as_array().unwrap())
        .find(|c| c["id"] == case)
        .unwrap_or_else(|| panic!("no case {case}"))["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["host"] == host)
        .unwrap()
}

pub fn ids(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

pub fn criterion<'a>(merged: &'a Value, id: &str) -> &'a Value {
    merged["verdict"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap()
}

pub fn valid_against(schema_file: &str, document: &Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(schema_file);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = validator
        .iter_errors(document)
        .take(5)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}
