//! Every JUnit file the tests write is validated against the Jenkins xUnit schema
//! (`tests/fixtures/junit/junit-10.xsd`) with `xmllint` (Debian's `libxml2-utils`,
//! which `.ci/run` installs). Without `xmllint` the check fails under `CI=true`, so CI
//! cannot pass without it; elsewhere it is skipped with a loud note.
//!
//! Only `std`: the crate's unit tests include this file too (`src/report/junit_tests.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub fn junit_xsd() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/junit/junit-10.xsd")
}

fn xmllint_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    *PRESENT.get_or_init(|| {
        Command::new("xmllint")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| matches!(v.trim(), "true" | "1"))
}

/// Panics unless `path` is valid against `junit-10.xsd`. Returns whether it was
/// checked (false only outside CI, without `xmllint`).
pub fn assert_junit_valid(path: &Path) -> bool {
    if !xmllint_present() {
        assert!(
            !in_ci(),
            "xmllint is missing: under CI=true every JUnit file must be validated against \
             junit-10.xsd (apt-get install libxml2-utils; .ci/run does)"
        );
        eprintln!(
            "WARNING: xmllint not found: {} NOT validated against junit-10.xsd \
             (apt-get install libxml2-utils)",
            path.display()
        );
        return false;
    }
    let out = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(junit_xsd())
        .arg(path)
        .output()
        .expect("xmllint runs");
    assert!(
        out.status.success(),
        "{} does not validate against junit-10.xsd:\n{}\n{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(path).unwrap_or_default()
    );
    true
}
