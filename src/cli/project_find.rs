//! Which project file `run` and `list` read: `--config FILE`, else `$MMCONFORM_CONFIG`,
//! else the first `mmconform.toml` from the current directory up to the repository
//! root (the nearest directory holding `.git`; outside a repository, the current
//! directory only, so a file in some unrelated parent is never picked up). When none is
//! found, where it was looked for, for the message of a run that then has no target.

use std::path::{Path, PathBuf};

/// The file `run` and `list` look for.
pub const FILE_NAME: &str = "mmconform.toml";

/// The variable that names the project file when `--config` is absent.
pub const ENV: &str = "MMCONFORM_CONFIG";

/// A project file and how it was chosen.
#[derive(Debug, PartialEq, Eq)]
pub struct Chosen {
    pub path: PathBuf,
    /// `--config`, `$MMCONFORM_CONFIG`, or where it was found.
    pub how: String,
}

/// The file to read, or (`Err`) where `mmconform.toml` was looked for in vain.
pub fn find(explicit: Option<&Path>, env: Option<String>, cwd: &Path) -> Result<Chosen, String> {
    if let Some(path) = explicit {
        return Ok(Chosen {
            path: path.to_path_buf(),
            how: "--config".into(),
        });
    }
    if let Some(path) = env.filter(|v| !v.trim().is_empty()) {
        return Ok(Chosen {
            path: PathBuf::from(path.trim()),
            how: format!("${ENV}"),
        });
    }
    let searched = search_path(cwd);
    for dir in &searched {
        let candidate = dir.join(FILE_NAME);
        if candidate.is_file() {
            let here = dir == cwd;
            return Ok(Chosen {
                // In the current directory it is named as before; above it, in full.
                path: if here {
                    PathBuf::from(FILE_NAME)
                } else {
                    candidate
                },
                how: if here {
                    "the current directory".into()
                } else {
                    "a parent of the current directory".into()
                },
            });
        }
    }
    let top = searched.last().unwrap_or(&searched[0]);
    Err(if searched.len() > 1 {
        format!(
            "no {FILE_NAME} in {} or its parents up to the repository root {} (nor ${ENV}, nor --config)",
            cwd.display(),
            top.display()
        )
    } else {
        format!(
            "no {FILE_NAME} in {} (not in a repository, so no parent was searched; nor ${ENV}, nor --config)",
            cwd.display()
        )
    })
}

/// The directories searched, nearest first: up to the one holding `.git`, or only
/// `cwd` when no ancestor does.
fn search_path(cwd: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for dir in cwd.ancestors() {
        dirs.push(dir.to_path_buf());
        if dir.join(".git").exists() {
            return dirs;
        }
    }
    vec![cwd.to_path_buf()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_file_up_to_the_repository_root() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        let deep = repo.join("a").join("b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir(repo.join(".git")).unwrap();
        // Above the repository: never read.
        std::fs::write(root.path().join(FILE_NAME), "").unwrap();
        let missing = find(None, None, &deep).unwrap_err();
        assert!(
            missing.contains(&format!(
                "in {} or its parents up to the repository root {}",
                deep.display(),
                repo.display()
            )),
            "{missing}"
        );
        std::fs::write(repo.join(FILE_NAME), "").unwrap();
        let found = find(None, None, &deep).unwrap();
        assert_eq!(found.path, repo.join(FILE_NAME));
        assert_eq!(found.how, "a parent of the current directory");
        std::fs::write(deep.join(FILE_NAME), "").unwrap();
        assert_eq!(
            find(None, None, &deep).unwrap().path,
            PathBuf::from(FILE_NAME)
        );
        // The variable, then --config, win.
        let named = find(None, Some("ci/x.toml".into()), &deep).unwrap();
        assert_eq!(
            (named.path, named.how),
            (PathBuf::from("ci/x.toml"), "$MMCONFORM_CONFIG".to_string())
        );
        assert_eq!(
            find(None, Some("  ".into()), &deep).unwrap().path,
            PathBuf::from(FILE_NAME)
        );
        let given = find(Some(Path::new("y.toml")), Some("x".into()), &deep).unwrap();
        assert_eq!(given.how, "--config");
    }

    #[test]
    fn outside_a_repository_only_the_current_directory() {
        let root = tempfile::tempdir().unwrap();
        let below = root.path().join("below");
        std::fs::create_dir(&below).unwrap();
        std::fs::write(root.path().join(FILE_NAME), "").unwrap();
        let missing = find(None, None, &below).unwrap_err();
        assert!(missing.contains("not in a repository"), "{missing}");
    }
}
