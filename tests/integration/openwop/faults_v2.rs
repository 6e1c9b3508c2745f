//! Every classic fault stays visible at major 2: the fault table's rows run again with
//! `--openwop-major 2`, each against the case that checks the same rule at v2 (the v1
//! discovery shapes have v2 twins; everything sent to a seam keeps its id). A tester
//! whose v2 run let a silent drop or a crash through would be worse than none.

use super::faults::ROWS;
use crate::fault_table::{MUST, Row, SHOULD, Table, check_every_row};

/// The classic faults whose v1 case does not run at v2, and the v2 case that catches
/// them instead.
#[rustfmt::skip]
const RENAMED: &[Row] = &[
    ("discovery-missing-required", &[], "openwop.rfc0021.limits-caps", MUST),
    ("discovery-envelopes-not-array", &[], "openwop.v2.rfc0021.supported-envelopes-record", MUST),
    ("discovery-wrong-schema-version", &[], "openwop.v2.rfc0021.universal-schema-versions", SHOULD),
    ("wrapper-only-discovery", &[], "openwop.v2.discovery.root", MUST),
    ("out-of-enum-modality", &[], "openwop.v2.discovery.root", MUST),
];

/// Classic faults that break no v2 rule, and why.
const NOT_FAULTS_AT_V2: &[(&str, &str)] = &[(
    "discovery-missing-universal-envelopes",
    "v2: universal kinds need not be listed in supportedEnvelopes.kinds (supportedEnvelopes facet)",
)];

/// Cases judged only at major 1 (their v2 twins are in `RENAMED`).
const V1_ONLY_CASES: &[&str] = &[
    "openwop.discovery.document",
    "openwop.rfc0021.supported-envelopes-shape",
    "openwop.rfc0021.universal-kind-advertised[error]",
    "openwop.rfc0021.universal-schema-version[error]",
];

fn is_v2_fault(fault: &str) -> bool {
    fault.starts_with("v2-")
        || fault.starts_with("v1-document")
        || fault.starts_with("unknown-major")
        || matches!(fault, "discovery-without-etag" | "ignores-if-none-match")
}

/// The classic rows whose case also runs at v2, then the renamed ones.
fn v2_rows() -> Vec<Row> {
    let kept = ROWS.iter().filter(|(fault, _, case, _)| {
        !is_v2_fault(fault)
            && !V1_ONLY_CASES.contains(case)
            && !NOT_FAULTS_AT_V2.iter().any(|(f, _)| f == fault)
    });
    kept.copied().chain(RENAMED.iter().copied()).collect()
}

#[test]
fn every_classic_fault_fails_its_case_at_major_2() {
    let rows: &'static [Row] = Box::leak(v2_rows().into_boxed_slice());
    check_every_row(&Table {
        profile: "openwop",
        base: &["--target", "reference", "--openwop-major", "2"],
        rows,
        elsewhere: &[],
    });
}

#[test]
fn every_classic_fault_has_a_v2_row_or_a_reason() {
    let rows = v2_rows();
    let missing: Vec<&str> = ROWS
        .iter()
        .map(|row| row.0)
        .filter(|fault| !is_v2_fault(fault))
        .filter(|fault| !rows.iter().any(|row| row.0 == *fault))
        .filter(|fault| !NOT_FAULTS_AT_V2.iter().any(|(f, _)| f == fault))
        .collect();
    assert!(
        missing.is_empty(),
        "classic faults with no v2 row: {missing:?}"
    );
}
