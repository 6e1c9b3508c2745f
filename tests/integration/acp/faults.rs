//! The ACP fault table: every single-fault variant of the reference ACP agent breaks
//! one rule of the acp pack, and the case that checks it must catch it (see
//! `crate::fault_table`). Delivery is seen only by the witness, so every row runs with
//! `--witness`. The other way round (every acp case is caught by some fault) is
//! `mmconform calibrate`'s job.

use crate::fault_table::{MUST, Row, SHOULD, Table, check_coverage, check_every_row};

const TABLE: Table = Table {
    profile: "acp",
    base: &[
        "--profile",
        "acp",
        "--target",
        "reference",
        "--timeout",
        "3",
    ],
    rows: ROWS,
    // transformed.rs: a faithful transformation, which no case may fail.
    elsewhere: &["resizes-large-tool-images"],
};

const W: &[&str] = &["--witness", "127.0.0.1:0", "--witness-wait", "2"];
/// A fault that hangs every turn costs `--timeout` per case: one case is enough.
const TEXT: &[&str] = &["--witness", "127.0.0.1:0", "--filter", "acp.text"];
const TEXT_ONLY: &[&str] = &[
    "--witness",
    "127.0.0.1:0",
    "--witness-wait",
    "2",
    "--reference-accepts",
    "none",
];

/// The tool-media faults show on the tool-media cases alone.
const TOOLS: &[&str] = &[
    "--witness",
    "127.0.0.1:0",
    "--witness-wait",
    "2",
    "--filter",
    "acp.tool-media*",
];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    ("malformed-initialize", W, "acp.initialize", MUST),
    ("drops-image", W, "acp.delivery[image/png]", MUST),
    ("audio-as-image", W, "acp.delivery[audio/wav]", SHOULD),
    ("ignores-resources", W, "acp.delivery[application/pdf]", MUST),
    ("drops-prompt-text", W, "acp.text-reaches-model", MUST),
    ("accepts-unadvertised", TEXT_ONLY, "acp.unadvertised[audio]", SHOULD),
    ("accepts-missing-mime-type", W, "acp.malformed-no-mime-type", MUST),
    ("ignores-unknown-blocks", W, "acp.malformed-unknown-type", MUST),
    ("crashes-on-bad-base64", W, "acp.malformed-bad-base64", MUST),
    ("never-answers-prompt", TEXT, "acp.text", MUST),
    ("malformed-frame", TEXT, "acp.text", MUST),
    ("ignores-cancel", W, "acp.cancel", MUST),
    ("drops-tool-images", TOOLS, "acp.tool-media.png", MUST),
    ("drops-tool-images-with-structured", TOOLS, "acp.tool-media.image-structured", MUST),
    ("claims-tool-image", TOOLS, "acp.tool-media.jpeg", MUST),
    ("tool-audio-as-note", TOOLS, "acp.tool-media.wav", SHOULD),
    ("drops-tool-blobs", TOOLS, "acp.tool-media.pdf-blob", MUST),
    ("drops-tool-results", TOOLS, "acp.tool-media.text-only", MUST),
];

#[test]
fn every_acp_fault_fails_its_case() {
    check_every_row(&TABLE);
}

#[test]
fn every_listed_acp_fault_has_a_row() {
    check_coverage(&TABLE);
}
