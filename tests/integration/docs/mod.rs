//! The documentation is checked like code: every relative link and `#anchor` in the
//! README, CONTRIBUTING.md and `docs/` resolves (`links`), every code block marked
//! runnable is run with the built binary and must end as it says (`runnable`), and the
//! composite GitHub Action is well formed and passes only flags `run` has (`action`),
//! no page pins a release tag that does not exist (`tags`), the project file's profile
//! error lists every profile (`profiles`), and "excluded" is defined as runs use it
//! (`excluded`).

mod action;
mod excluded;
mod links;
mod profiles;
mod runnable;
mod tags;

use std::path::{Path, PathBuf};

pub fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CONTRIBUTING.md and every Markdown file under docs/, sorted.
pub fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = repository();
    let mut files = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    walk(&root.join("docs"), &mut files);
    files.sort();
    files
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` relative to the repository, for messages.
pub fn shown(path: &Path) -> String {
    path.strip_prefix(repository())
        .unwrap_or(path)
        .display()
        .to_string()
}
