//! Writing report files so a reader never sees half of one.
//!
//! CI jobs pick up JUnit and JSON files as soon as they exist; an interrupted run must
//! leave either the previous file or the complete new one, never a truncated document.
//! Writing a temporary file in the same directory and renaming it over the target gives
//! that, because a rename within one filesystem is atomic.
//!
//! A report gets the mode any new file of the user's gets (0666 less the umask), not
//! the 0600 of a temporary file: a CI job's artifact uploader may run as another user.
//! [`check_writable`] lets a command find out, before it sends anything, that a
//! destination cannot be written.

use std::io::Write;
use std::path::Path;

/// The directory a report at `path` is written in.
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A temporary file in `dir`, created with the mode a new file of the user's gets.
fn temporary_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".mmconform-");
    // The kernel applies the process umask to the mode given to open(2).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder.tempfile_in(dir)
}

/// Whether a report can later be written to `path`: it is not a directory, its
/// directory exists (missing ones are created, as the write would) and a file can be
/// created there (one is, and removed). The error says why not.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    if path.is_dir() {
        return Err(std::io::Error::other("is a directory"));
    }
    let dir = directory_of(path);
    std::fs::create_dir_all(dir)?;
    temporary_in(dir)?.close()
}

/// Write `bytes` to `path` via a synced temporary sibling and a rename.
///
/// Missing parent directories are created, so `--junit out/ci/report.xml` works on a
/// fresh checkout.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // The temporary file must live in the target's directory: a rename across
    // filesystems (e.g. from /tmp) is a copy, which is not atomic.
    let dir = directory_of(path);
    std::fs::create_dir_all(dir)?;
    let mut file = temporary_in(dir)?;
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
    fn a_writable_destination_is_checked_without_a_trace() {
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("new/junit.xml")).unwrap();
        assert_eq!(
            std::fs::read_dir(dir.path().join("new")).unwrap().count(),
            0
        );
        let taken = dir.path().join("taken");
        std::fs::create_dir(&taken).unwrap();
        assert!(check_writable(&taken).is_err());
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        assert!(check_writable(&file.join("junit.xml")).is_err());
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
