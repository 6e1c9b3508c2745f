//! The evidence matches the wire: the report lists every request the run sent, in the
//! order sent (discovery, the seam probes, every case), each case cites its request by
//! number, the discovery answer is cited by the cases judged on it rather than shown as
//! fetched again, and a body shortened in the transcript keeps its length and digest.

use crate::common::run;
use serde_json::Value;
use std::collections::BTreeSet;

#[test]
fn the_report_lists_every_request_in_the_order_sent() {
    let r = run(&["--target", "reference", "-j", "2"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let report = r.report.as_ref().unwrap();
    let requests = report["requests"].as_array().expect("a request list");
    let seqs: Vec<u64> = requests
        .iter()
        .map(|q| q["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=requests.len() as u64).collect::<Vec<_>>());
    // The default (`--openwop-major auto`) reads the v1 document, then the v2 root the
    // reference host lists.
    assert_eq!(requests[0]["purpose"], "discovery");
    assert_eq!(requests[1]["purpose"], "discovery@v2");
    let probes: BTreeSet<&str> = requests
        .iter()
        .filter_map(|q| q["purpose"].as_str().unwrap().strip_prefix("probe "))
        .collect();
    assert_eq!(
        probes,
        BTreeSet::from([
            "/v1/host/sample/ai/call",
            "/v1/host/sample/envelope/accept",
            "/conformance/seams/sample/ai/call",
            "/conformance/seams/sample/envelope/accept",
        ]),
        "the ai-call and envelope-accept seams are probed once each, at each major"
    );

    let listed: BTreeSet<u64> = seqs.iter().copied().collect();
    let mut cited_discovery = 0;
    for case in report["cases"].as_array().unwrap() {
        for exchange in case["exchanges"].as_array().unwrap() {
            let seq = exchange["seq"]
                .as_u64()
                .expect("every exchange cites its request");
            assert!(listed.contains(&seq), "{seq} not in the request list");
            let request = &requests[seq as usize - 1];
            if exchange["cached"] == true {
                // A v2 case is judged on the v2 root, the v1 ones on the v1 document.
                let fetched = match case["requirement"]["source"].as_str() {
                    _ if case["id"].as_str().unwrap().starts_with("openwop.v2.") => "discovery@v2",
                    Some(s) if s.ends_with("(openwop 2)") => "discovery@v2",
                    _ => "discovery",
                };
                assert_eq!(request["purpose"], fetched, "{}", case["id"]);
                cited_discovery += 1;
            } else {
                assert_eq!(request["purpose"], case["id"], "{request}");
            }
        }
    }
    assert!(
        cited_discovery >= 2,
        "discovery cases cite the one discovery request"
    );
    for purpose in ["discovery", "discovery@v2"] {
        let fetched = requests.iter().filter(|q| q["purpose"] == purpose).count();
        assert_eq!(fetched, 1, "{purpose} is fetched once");
    }
}

#[test]
fn a_shortened_body_keeps_its_length_and_digest() {
    let r = run(&["--target", "reference", "--filter", "limit.at-max-accepted"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let report = r.report.as_ref().unwrap();
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "openwop.rfc0091.limit.at-max-accepted")
        .unwrap();
    let request = &case["exchanges"][0]["request"];
    let shown = request["body"].as_str().unwrap();
    let sent: &Value = &request["sent"];
    assert_eq!(sent["elided"], true, "{sent}");
    // A 65 536-byte part is more than 87 000 bytes of base64 on the wire.
    assert!(sent["bytes"].as_u64().unwrap() > 87_000, "{sent}");
    assert!(
        shown.len() < 4_096,
        "the transcript shows the body shortened"
    );
    assert_eq!(sent["sha256"].as_str().unwrap().len(), 64);
}
