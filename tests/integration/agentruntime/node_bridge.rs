//! The Node bridge of `examples/agentruntime/` (dependency-free, protocol v1) driving
//! its fake runtime, whose model is the witness: every case that applies passes. Node
//! is on CI; elsewhere a machine without it skips with a message (under `CI=true` a
//! missing node fails, so CI can never skip it silently).

use crate::common::run;
use std::path::Path;

fn node_available() -> bool {
    std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_node_bridge_passes_with_the_fake_runtime() {
    if !node_available() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(
            !ci,
            "node is not installed, and CI=true: the Node bridge test must run on CI"
        );
        eprintln!("skipped: node is not installed (the Node bridge test needs Node 20+)");
        return;
    }
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agentruntime");
    let command = format!(
        "node {} {}",
        examples.join("bridge.mjs").display(),
        examples.join("fake-runtime.mjs").display()
    );
    let r = run(&[
        "--profile",
        "agentruntime",
        "--target-cmd",
        &command,
        "--witness",
        "127.0.0.1:0",
        // A representative subset keeps the test light on a loaded machine: describe,
        // the contract, abort, each attachment form, a document, resume, undeclared.
        "--filter",
        "agentruntime.describe or agentruntime.contract or agentruntime.abort or agentruntime.delivery?image/png,* or agentruntime.delivery?application/pdf,both? or agentruntime.resume?document? or agentruntime.undeclared?video/mp4?",
        "-j",
        "4",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    for outcome in ["fail", "warn", "blocked", "error"] {
        assert!(r.ids_with(outcome).is_empty(), "{outcome}: {}", r.context());
    }
    for id in [
        "agentruntime.abort",
        "agentruntime.delivery[image/png,filePath]",
        "agentruntime.resume[document]",
    ] {
        assert_eq!(r.outcome(id), "pass", "{id}");
    }
}
