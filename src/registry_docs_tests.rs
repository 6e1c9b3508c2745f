//! Lists of profiles, hosts and wires written in the docs, held to the registries: each
//! test fails with the line to fix when a profile (or a wire) is missing from a page that
//! lists them all. Generated lists (`--help`, the man page, the CLI reference) need no
//! test; these are the ones a person writes.

use super::*;

/// Reads a repository file.
fn read(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The first line of `path` containing `marker`.
fn line_of(path: &str, marker: &str) -> String {
    read(path)
        .lines()
        .find(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("{path}: no line contains {marker:?}"))
        .to_string()
}

/// Whether `text` names `name` as a whole word (`openai` is not in `openai-responses`).
fn names(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// Asserts `text` (the line at `marker` of `path`) names every registered profile.
fn lists_every_profile(path: &str, marker: &str) {
    let text = line_of(path, marker);
    let missing: Vec<&str> = profile_names()
        .into_iter()
        .filter(|name| !names(&text, name))
        .collect();
    assert!(
        missing.is_empty(),
        "{path}: the line with {marker:?} lists the profiles but not {missing:?}; add them:\n{text}"
    );
}

#[test]
fn every_page_listing_the_profiles_lists_them_all() {
    lists_every_profile("docs/guide/glossary.md", "**profile**");
    lists_every_profile("docs/guide/ci.md", "| `profile` | `--profile` |");
    lists_every_profile("docs/guide/ci.md", "profile = \"openwop\"");
    lists_every_profile("docs/guide/scenarios.md", "profile: openwop ");
    lists_every_profile("action.yml", "Empty means mmconform.toml's");
}

#[test]
fn every_profile_has_its_guide_page_its_pack_and_its_fault_table() {
    for name in profile_names() {
        for path in [
            format!("docs/guide/profiles/{name}.md"),
            format!("scenarios/{name}"),
            format!("tests/integration/{name}/faults.rs"),
        ] {
            let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&path);
            assert!(full.exists(), "--profile {name} has no {path}");
        }
        let index = read("docs/guide/README.md");
        assert!(
            index.contains(&format!("(profiles/{name}.md)")),
            "docs/guide/README.md does not link profiles/{name}.md"
        );
    }
}

#[test]
fn the_reference_crate_names_every_host_it_holds() {
    let lib = read("crates/reference-hosts/src/lib.rs");
    let doc: String = lib
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join(" ");
    for host in reference_hosts().into_iter().skip(1) {
        let link = format!("[`{}`]", host.name());
        assert!(
            doc.contains(&link),
            "crates/reference-hosts/src/lib.rs's module comment does not name {link}"
        );
    }
}

#[test]
fn the_witness_page_names_every_wire_it_hears() {
    let page = read("docs/guide/witness.md");
    let opening: String = page.lines().take(8).collect::<Vec<_>>().join(" ");
    for wire in crate::witness::record::Wire::MODEL_WIRES {
        let title = wire.title();
        assert!(
            opening.contains(title),
            "docs/guide/witness.md's opening does not name the {title} wire the witness hears"
        );
    }
}
