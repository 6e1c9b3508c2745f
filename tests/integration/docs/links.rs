//! Every relative link and `#anchor` in the README, CONTRIBUTING.md and docs/ resolves,
//! offline (external links are not fetched). Anchors follow GitHub's heading slugs.

use super::{markdown_files, read, shown};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// GitHub's anchor for a heading's text: lower-cased, punctuation other than `-` and `_`
/// dropped, each space a `-`.
pub fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A page's links (destination, line) and its anchors (a repeated heading gets `-1`, `-2`).
struct Page {
    links: Vec<(String, usize)>,
    anchors: BTreeSet<String>,
}

fn parse(text: &str) -> Page {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut links = Vec::new();
    let mut anchors = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    let options = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES;
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                if let Some(id) = id {
                    anchors.insert(id.to_string());
                }
                heading = Some(String::new());
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                anchors.insert(if *n == 0 { base } else { format!("{base}-{n}") });
                *n += 1;
            }
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push((dest_url.to_string(), line_of(range.start)));
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                // `<a id="...">` anchors, which some pages set by hand.
                for part in html.split("id=\"").skip(1) {
                    if let Some(end) = part.find('"') {
                        anchors.insert(part[..end].to_string());
                    }
                }
            }
            _ => {}
        }
    }
    Page { links, anchors }
}

fn external(link: &str) -> bool {
    link.contains("://") || link.starts_with("mailto:")
}

/// The links in `files` that do not resolve, and how many relative links were checked.
fn broken_links(files: &[PathBuf]) -> (Vec<String>, usize) {
    let pages: BTreeMap<PathBuf, Page> = files
        .iter()
        .map(|f| (f.canonicalize().unwrap(), parse(&read(f))))
        .collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for (file, page) in &pages {
        for (link, line) in &page.links {
            if external(link) {
                continue;
            }
            checked += 1;
            let (path, anchor) = link.split_once('#').unwrap_or((link, ""));
            let target = if path.is_empty() {
                file.clone()
            } else {
                match file.parent().unwrap().join(path).canonicalize() {
                    Ok(target) => target,
                    Err(_) => {
                        broken.push(format!("{}:{line}: {link}: no such file", shown(file)));
                        continue;
                    }
                }
            };
            // Anchors into other kinds of file (source lines, schemas) are not headings.
            if let Some(page) = pages.get(&target)
                && !anchor.is_empty()
                && !page.anchors.contains(anchor)
            {
                broken.push(format!(
                    "{}:{line}: {link}: no heading with the anchor #{anchor} in {}",
                    shown(file),
                    shown(&target)
                ));
            }
        }
    }
    (broken, checked)
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let (broken, checked) = broken_links(&markdown_files());
    assert!(
        checked > 50,
        "only {checked} relative links found: is the parser reading the pages?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_guide_page_is_reachable_from_the_readme() {
    let root = super::repository();
    let mut reached = BTreeSet::new();
    let mut queue = vec![root.join("README.md").canonicalize().unwrap()];
    while let Some(file) = queue.pop() {
        if !reached.insert(file.clone()) || file.extension().is_none_or(|e| e != "md") {
            continue;
        }
        for (link, _) in parse(&read(&file)).links {
            let path = link.split('#').next().unwrap_or("");
            if external(&link) || path.is_empty() {
                continue;
            }
            if let Ok(target) = file.parent().unwrap().join(path).canonicalize() {
                queue.push(target);
            }
        }
    }
    let unreached: Vec<String> = super::markdown_files()
        .into_iter()
        .filter(|f| f.starts_with(root.join("docs/guide")))
        .filter(|f| !reached.contains(&f.canonicalize().unwrap()))
        .map(|f| shown(&f))
        .collect();
    assert!(
        unreached.is_empty(),
        "guide pages no link reaches: {unreached:?}"
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("Did the media reach the model?"),
        "did-the-media-reach-the-model"
    );
    assert_eq!(
        slug("AG-UI agents (--profile agui)"),
        "ag-ui-agents---profile-agui"
    );
    assert_eq!(slug("mmconform run"), "mmconform-run");
    assert_eq!(
        slug("Exit codes (stable contract)"),
        "exit-codes-stable-contract"
    );
    assert_eq!(slug("snake_case and 2.0"), "snake_case-and-20");
    let page = parse("# A\n\n## A\n\n[x](#a-1)\n");
    assert!(page.anchors.contains("a") && page.anchors.contains("a-1"));
    assert_eq!(page.links, vec![("#a-1".to_string(), 5)]);
}

/// The check catches what it exists for: a missing file, a missing anchor in another
/// page and in the same page, and lets a good link through.
#[test]
fn a_broken_link_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.md");
    let b = dir.path().join("b.md");
    std::fs::write(
        &a,
        "# Title\n\n[gone](missing.md) [anchor](b.md#nowhere) [here](#nothing) [ok](b.md#second-part)\n",
    )
    .unwrap();
    std::fs::write(&b, "# First\n\n## Second part\n").unwrap();
    let (broken, checked) = broken_links(&[a, b]);
    assert_eq!(checked, 4);
    assert_eq!(broken.len(), 3, "{broken:?}");
    assert!(broken[0].contains("missing.md: no such file"), "{broken:?}");
    assert!(broken[1].contains("#nowhere"), "{broken:?}");
    assert!(broken[2].contains("#nothing"), "{broken:?}");
}
