//! The AgentRuntime fault table: every single-fault variant of the reference runtime
//! breaks one rule of bridge protocol v1 or the #385 contract, and the case that checks
//! it must catch it (see `crate::fault_table`). Delivery is seen only by the witness,
//! so every row runs with `--witness`. The other way round (every agentruntime case is
//! caught by some fault) is `mmconform calibrate`'s job.

use crate::fault_table::{MUST, Row, SHOULD, Table, check_coverage, check_every_row};

const TABLE: Table = Table {
    profile: "agentruntime",
    base: &["--profile", "agentruntime", "--target", "reference"],
    rows: ROWS,
    // transformed.rs: faithful transformations, which no case may fail.
    elsewhere: &["reencodes-images", "resizes-large-tool-images"],
};

const W: &[&str] = &["--witness", "127.0.0.1:0", "--witness-wait", "2"];
const NARROW: &[&str] = &[
    "--witness",
    "127.0.0.1:0",
    "--witness-wait",
    "2",
    "--reference-accepts",
    "audio/mpeg,video/",
];

const OUT: &[&str] = &[
    "--witness",
    "127.0.0.1:0",
    "--witness-wait",
    "2",
    "--reference-emits-outbound",
];

/// The tool-media faults show on the tool-media cases alone.
const TOOLS: &[&str] = &[
    "--witness",
    "127.0.0.1:0",
    "--witness-wait",
    "2",
    "--filter",
    "agentruntime.tool-media*",
];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    ("drops-base64-only", W, "agentruntime.delivery[image/png,base64]", MUST),
    ("drops-base64-only", W, "agentruntime.delivery[application/pdf,base64]", MUST),
    ("ignores-file-path", W, "agentruntime.delivery[image/jpeg,filePath]", MUST),
    ("ignores-file-path", W, "agentruntime.delivery[audio/wav,filePath]", MUST),
    ("drops-media-on-resume", W, "agentruntime.resume[image]", SHOULD),
    ("pdf-as-image", W, "agentruntime.delivery[application/pdf,both]", SHOULD),
    ("swallows-prompt", W, "agentruntime.delivery[image/webp,both]", MUST),
    ("skips-model", W, "agentruntime.text-only", MUST),
    ("skips-model", W, "agentruntime.delivery[image/gif,base64]", MUST),
    ("truncates-media", W, "agentruntime.delivery[image/png,filePath]", MUST),
    ("image-placeholder", W, "agentruntime.delivery[image/gif,base64]", MUST),
    ("emits-undeclared-media", W, "agentruntime.outbound", MUST),
    ("outbound-without-mime", OUT, "agentruntime.outbound", MUST),
    ("outbound-file-missing", OUT, "agentruntime.outbound", MUST),
    ("outbound-bad-base64", OUT, "agentruntime.outbound", MUST),
    ("outbound-mislabelled", OUT, "agentruntime.outbound", MUST),
    ("result-media-not-list", OUT, "agentruntime.outbound", MUST),
    ("no-done", W, "agentruntime.contract", MUST),
    ("two-dones", W, "agentruntime.contract", MUST),
    ("non-json-line", W, "agentruntime.contract", MUST),
    ("line-after-done", W, "agentruntime.contract", MUST),
    ("exits-one-after-done", W, "agentruntime.contract", MUST),
    ("result-missing-fields", W, "agentruntime.contract", MUST),
    ("error-without-message", W, "agentruntime.contract", MUST),
    ("crashes-on-audio", W, "agentruntime.delivery[audio/wav,base64]", MUST),
    ("crashes-on-audio", NARROW, "agentruntime.delivery[audio/mpeg,both]", MUST),
    ("errors-on-undeclared", W, "agentruntime.undeclared[video/mp4]", MUST),
    ("errors-on-undeclared", NARROW, "agentruntime.undeclared[image/png]", MUST),
    ("malformed-capabilities", W, "agentruntime.describe", MUST),
    ("ignores-abort", W, "agentruntime.abort", SHOULD),
    ("hangs-on-abort", W, "agentruntime.abort", MUST),
    ("drops-tool-images", TOOLS, "agentruntime.tool-media.png", MUST),
    ("drops-tool-images-with-structured", TOOLS, "agentruntime.tool-media.image-structured", MUST),
    ("claims-tool-image", TOOLS, "agentruntime.tool-media.jpeg", MUST),
    ("tool-audio-as-note", TOOLS, "agentruntime.tool-media.wav", SHOULD),
    ("drops-tool-blobs", TOOLS, "agentruntime.tool-media.pdf-blob", MUST),
    ("drops-tool-results", TOOLS, "agentruntime.tool-media.text-only", MUST),
];

#[test]
fn every_runtime_fault_fails_its_case() {
    check_every_row(&TABLE);
}

#[test]
fn every_listed_runtime_fault_has_a_row() {
    check_coverage(&TABLE);
}
