//! The FAQ's and the glossary's "excluded" say every way a run excludes a case: each
//! reason the runs below give an excluded case names an option (`--filter`,
//! `--offline`, `--allow-external-probe-urls`, `--openwop-major`), and both entries
//! name it too. A run with no filter at all excludes some (the public-URL case), which
//! a definition of "left out by --filter" alone denied.

use crate::common::run;
use std::collections::BTreeSet;

/// The options named in the reasons of the excluded cases of runs with `args`.
fn options_in_excluded_reasons(runs: &[&[&str]]) -> BTreeSet<String> {
    let mut options = BTreeSet::new();
    for args in runs {
        let r = run(args);
        let reasons: Vec<String> = (r.cases().iter())
            .filter(|c| c["outcome"] == "excluded")
            .map(|c| c["reason"].as_str().unwrap().to_string())
            .collect();
        assert!(!reasons.is_empty(), "{args:?} excluded nothing");
        for reason in reasons {
            let named: Vec<String> = (reason.split(|c: char| c.is_whitespace() || c == '('))
                .filter_map(|w| w.strip_prefix("--"))
                .map(|w| format!("--{}", w.trim_end_matches([')', ',', ':'])))
                .collect();
            assert!(!named.is_empty(), "{reason} names no option");
            options.extend(named);
        }
    }
    options
}

/// The paragraph of `text` that starts with `start`, up to the next list item or blank line.
fn entry<'a>(text: &'a str, start: &str) -> &'a str {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in the page"));
    let rest = &text[from..];
    let end = rest[1..]
        .find("\n- ")
        .or_else(|| rest.find("\n\n"))
        .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

#[test]
fn the_definition_of_excluded_names_every_reason_a_run_gives() {
    let options = options_in_excluded_reasons(&[
        &["--target", "reference"],
        &["--target", "reference", "--openwop-major", "1"],
        &["--offline"],
        &["--target", "reference", "--filter", "level(MUST)"],
    ]);
    for expected in [
        "--filter",
        "--offline",
        "--allow-external-probe-urls",
        "--openwop-major",
    ] {
        assert!(options.contains(expected), "{options:?}");
    }
    let faq = super::read(&super::repository().join("docs/guide/faq.md"));
    let glossary = super::read(&super::repository().join("docs/guide/glossary.md"));
    let faq = entry(&faq, "- **excluded**");
    let term = entry(&glossary, "**excluded**");
    let row = glossary
        .lines()
        .find(|l| l.starts_with("| excluded |"))
        .unwrap();
    for option in &options {
        assert!(
            faq.contains(option.as_str()),
            "the FAQ leaves out {option}: {faq}"
        );
        assert!(
            term.contains(option.as_str()),
            "the glossary leaves out {option}: {term}"
        );
        assert!(
            row.contains(option.as_str()),
            "the outcome table leaves out {option}: {row}"
        );
    }
}
