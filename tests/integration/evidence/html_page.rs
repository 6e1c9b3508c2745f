//! The HTML page, read with an HTML tokenizer as a browser would read it.

use super::html_tree;
use super::support::{evidence, five_hosts};
use serde_json::Value;

#[test]
fn the_html_page_is_self_contained_and_its_matrix_reads_without_colour() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut args = vec![
        "merge",
        "--format",
        "html",
        "--criteria",
        "rfc0091",
        "-o",
        "merge.html",
    ];
    args.extend(five_hosts(d));
    let out = evidence(d, &args);
    assert_eq!(out.code, 1, "{}", out.context());
    let html = std::fs::read_to_string(d.join("merge.html")).unwrap();
    let (document, doctype) = html_tree::parse(&html).unwrap_or_else(|p| panic!("{p:#?}"));
    assert_eq!(doctype, "html");
    let page = document.kids("html")[0];
    assert_eq!(page.attr("lang"), Some("en"));

    assert_self_contained(&document);
    let all = document.descendants();
    let verdict = all
        .iter()
        .find(|e| e.attr("id") == Some("verdict"))
        .unwrap();
    assert!(
        verdict.text().contains("Verdict: ✗ NOT MET"),
        "{}",
        verdict.text()
    );

    let cases = assert_matrix_reads_without_colour(&document);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("text-image.json")).unwrap()).unwrap();
    // Cases excluded in every report (a run of the other openwop major) are not shown.
    let shown = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] != "excluded")
        .count();
    assert_eq!(cases, shown);
    let inputs = document
        .all("table")
        .into_iter()
        .find(|t| t.has_class("inputs"))
        .unwrap();
    let integrity = report["integrity"]["canonical_sha256"].as_str().unwrap();
    assert!(
        inputs.text().contains(integrity),
        "every input is cited by its digest"
    );
}

fn assert_self_contained(document: &html_tree::Element) {
    // Self-contained: no script, nothing loaded from anywhere.
    for element in document.descendants() {
        assert!(
            !["script", "link", "iframe", "img", "object", "embed"]
                .contains(&element.name.as_str()),
            "<{}>",
            element.name
        );
        assert!(
            element.attr("src").is_none() && element.attr("href").is_none(),
            "{element:?}"
        );
        assert!(
            !element.attrs.keys().any(|k| k.starts_with("on")),
            "{element:?}"
        );
    }
    let style = document.all("style");
    assert_eq!(style.len(), 1);
    assert!(!style[0].text().contains("url(") && !style[0].text().contains("@import"));
}

/// Checks the matrix's shape and cells; returns how many case rows it has.
fn assert_matrix_reads_without_colour(document: &html_tree::Element) -> usize {
    // The matrix: one column per host, one row per case, each cell saying its outcome
    // in words (colour is an extra), with its detail on hover (title) and click (details).
    let matrix = document
        .all("table")
        .into_iter()
        .find(|t| t.has_class("matrix"))
        .unwrap();
    let head: Vec<&html_tree::Element> = matrix.kids("thead")[0].kids("tr")[0].kids("th");
    assert_eq!(head.len(), 6);
    assert!(
        head[1].text().starts_with("H1reference"),
        "{}",
        head[1].text()
    );
    let groups = matrix.kids("tbody");
    assert!(groups.len() > 40, "{}", groups.len());
    let mut cases = 0;
    for group in &groups {
        let rows = group.kids("tr");
        assert!(rows[0].has_class("req"));
        assert_eq!(rows[0].kids("td").len(), 5);
        for row in &rows[1..] {
            cases += 1;
            let cells = row.kids("td");
            assert_eq!(cells.len(), 5);
            for td in cells {
                let class = td.attr("class").unwrap();
                let outcome = class
                    .split_whitespace()
                    .find_map(|c| c.strip_prefix("o-"))
                    .unwrap();
                let summary = td.all("summary")[0].text();
                assert!(summary.contains(outcome), "{summary} vs {class}");
                assert!(td.attr("title").unwrap().contains(outcome));
                assert!(!td.all("li").is_empty());
            }
        }
    }
    cases
}
