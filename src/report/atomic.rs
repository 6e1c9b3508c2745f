//! Writing report files so a reader never sees half of one.
//!
//! CI jobs pick up JUnit and JSON files as soon as they exist; an interrupted run must
//! leave either the previous file or the complete new one, never a truncated document.
//! Writing a temporary file in the same directory and renaming it over the target gives
//! that, because a rename within one filesystem is atomic.

use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path` via a synced temporary sibling and a rename.
///
/// Missing parent directories are created, so `--junit out/ci/report.xml` works on a
/// fresh checkout.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // The temporary file must live in the target's directory: a rename across
    // filesystems (e.g. from /tmp) is a copy, which is not atomic.
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    file.flush()?;
    // Sync before the rename so a crash cannot leave the new name on empty contents.
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_parent_directories_and_writes_the_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a/b/report.xml");
        write_atomically(&target, b"<testsuites/>").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"<testsuites/>");
    }

    #[test]
    fn replaces_an_existing_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("report.json");
        std::fs::write(&target, b"old contents that are longer").unwrap();
        write_atomically(&target, b"new").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("report.json")]);
    }

    #[test]
    fn fails_when_the_target_is_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("taken");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("keep"), b"x").unwrap();
        assert!(write_atomically(&target, b"data").is_err());
        // The directory and its contents survive the failed write.
        assert!(target.join("keep").exists());
    }
}
