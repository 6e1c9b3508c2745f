//! No page names a release tag that does not exist: until a tag is pushed, every pin is a
//! commit (`--rev`), and a page that says `--tag v0.1.0` or `uses: OWNER/mmconform@v0.1.0`
//! sends the reader to an error. Future tags are written `vX.Y.Z`.

use std::process::Command;

/// Tags the repository has (none until a release is cut).
fn tags() -> Vec<String> {
    let out = Command::new("git")
        .args(["tag", "--list"])
        .current_dir(super::repository())
        .output();
    match out {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Each `vN.N.N` word in `text` named as a pin: after `@`, `--tag `, `:` or `=`.
fn pinned_tags(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices('v') {
        let before = text[..i].trim_end_matches(['"', '\'', ' ']);
        let pin = before.ends_with('@')
            || before.ends_with("--tag")
            || before.ends_with(':')
            || before.ends_with('=');
        let word: String = text[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
            .collect();
        // A release tag has three numbers (`v0.1.0`); `@v0.3` is a case id's version tag
        // (A2A's `@v0.3` twins), not a pin.
        let numbers: Vec<&str> = word[1..].split('.').collect();
        let numbered = numbers.len() == 3
            && numbers
                .iter()
                .all(|n| n.starts_with(|c: char| c.is_ascii_digit()));
        if pin && numbered {
            found.push(word);
        }
    }
    found
}

#[test]
fn no_page_pins_a_tag_that_does_not_exist() {
    let tags = tags();
    let mut pages = super::markdown_files();
    pages.push(super::repository().join("action.yml"));
    // The changelog names the versions it describes, released or not.
    pages.retain(|p| !p.ends_with("CHANGELOG.md"));
    for page in pages {
        let text = super::read(&page);
        for tag in pinned_tags(&text) {
            assert!(
                tags.contains(&tag),
                "{} pins {tag}, which is not a tag of this repository (pin a commit with --rev, or write vX.Y.Z)",
                page.display()
            );
        }
    }
}

#[test]
fn pins_are_found_where_a_page_would_write_them() {
    let text = "uses: o/mmconform@v0.1.0\ncargo install --tag v1.2.3\nKEY: v2.0.1\nnot v3.0 here\nname = \"v4.0.0\"";
    assert_eq!(pinned_tags(text), ["v0.1.0", "v1.2.3", "v2.0.1", "v4.0.0"]);
    assert!(pinned_tags("a vX.Y.Z tag, @vX.Y.Z").is_empty());
    assert!(pinned_tags("the case's twins (`@http-json`, `@v0.3`)").is_empty());
}
