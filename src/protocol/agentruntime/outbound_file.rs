//! Reading a file a runtime named as outbound media (`filePath`), on the runtime's say-so
//! but never beyond its own working folder.
//!
//! The path is resolved against the folder the bridge ran in, without the file system:
//! `..` may not climb out of it, and an absolute path must lie inside it; anything else
//! is "a path outside its working folder", worded the same whether or not such a file
//! exists, and nothing is opened. Inside, the folders on the way are opened one by one
//! from the working folder (`openat`), none of them a link, and the file itself without
//! following a final link and without blocking (`O_NOFOLLOW | O_NONBLOCK`): a FIFO swapped
//! in opens at once and is refused by the type of the opened descriptor (`fstat`), never
//! read. All of it runs off the async runtime, under the case's timeout and the run's
//! stop.

use super::attachment::HEAD_BYTES;
use crate::stop::Stop;
use nix::errno::Errno;
use nix::fcntl::{AtFlags, OFlag, openat};
use nix::sys::stat::{Mode, SFlag, fstat, fstatat};
use std::io::Read as _;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// What reading a named file gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRead {
    /// Its first bytes.
    Head(Vec<u8>),
    /// Why it is no file to judge: the runtime's doing (outside its folder, a link, not
    /// a regular file, not there).
    Refused(String),
    /// Why it could not be judged: our timeout, or the run's stop.
    Unjudged(String),
}

/// The first [`HEAD_BYTES`] of `path` as a runtime named it (enough for its signature;
/// what the file holds beyond is not judged), inside `workdir`.
pub async fn read_head(workdir: &Path, path: &str, timeout: Duration, stop: &Stop) -> FileRead {
    let Some(parts) = inside(workdir, Path::new(path)) else {
        return FileRead::Refused("a path outside its working folder (not read)".into());
    };
    let root = workdir.to_path_buf();
    let reading = tokio::task::spawn_blocking(move || read_confined(&root, &parts));
    tokio::select! {
        read = reading => match read {
            Ok(Ok(head)) => FileRead::Head(head),
            Ok(Err(why)) => FileRead::Refused(why),
            Err(e) => FileRead::Unjudged(format!("reading it failed: {e}")),
        },
        _ = tokio::time::sleep(timeout) => FileRead::Unjudged(format!(
            "reading it took longer than --timeout ({} s)",
            timeout.as_secs_f32()
        )),
        reason = stop.wait() => FileRead::Unjudged(format!("the run stopped ({reason})")),
    }
}

/// `path`'s components below `workdir`, resolved without the file system; `None` when
/// it leaves the folder. An absolute path is taken relative to the folder it names
/// (the folder as given, or as the program saw it: its canonical form).
fn inside(workdir: &Path, path: &Path) -> Option<Vec<PathBuf>> {
    let relative = if path.is_absolute() {
        let canonical = workdir.canonicalize().ok();
        path.strip_prefix(workdir)
            .ok()
            .or_else(|| canonical.as_deref().and_then(|c| path.strip_prefix(c).ok()))?
            .to_path_buf()
    } else {
        path.to_path_buf()
    };
    let mut parts: Vec<PathBuf> = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(name) => parts.push(PathBuf::from(name)),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts)
}

/// Opens `parts` below `root` one folder at a time, none a link, and reads the head of
/// the regular file at the end.
fn read_confined(root: &Path, parts: &[PathBuf]) -> Result<Vec<u8>, String> {
    let Some((name, folders)) = parts.split_last() else {
        return Err("its working folder itself, not a file".into());
    };
    let directory = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC;
    let mut dir: OwnedFd = std::fs::File::open(root)
        .map_err(|e| format!("its working folder cannot be opened ({e})"))?
        .into();
    for folder in folders {
        dir = match openat(
            &dir,
            folder.as_path(),
            directory | OFlag::O_NOFOLLOW,
            Mode::empty(),
        ) {
            Ok(next) => next,
            // O_DIRECTORY meets a link before O_NOFOLLOW does: say which it was.
            Err(Errno::ENOTDIR) if is_link(&dir, folder) => {
                return Err(refused(Errno::ELOOP, "a folder on its path"));
            }
            Err(e) => return Err(refused(e, "a folder on its path")),
        };
    }
    let file_flags = OFlag::O_RDONLY
        | OFlag::O_NOFOLLOW
        | OFlag::O_NONBLOCK
        | OFlag::O_NOCTTY
        | OFlag::O_CLOEXEC;
    let fd = openat(&dir, name.as_path(), file_flags, Mode::empty())
        .map_err(|e| refused(e, "the file"))?;
    let stat = fstat(&fd).map_err(|e| e.desc().to_string())?;
    if SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT != SFlag::S_IFREG {
        return Err("not a regular file (not read)".into());
    }
    let mut head = Vec::new();
    std::fs::File::from(fd)
        .take(HEAD_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|e| e.to_string())?;
    Ok(head)
}

/// Whether `name` in `dir` is a symbolic link (not followed to find out).
fn is_link(dir: &OwnedFd, name: &Path) -> bool {
    fstatat(dir, name, AtFlags::AT_SYMLINK_NOFOLLOW)
        .is_ok_and(|stat| SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT == SFlag::S_IFLNK)
}

fn refused(errno: Errno, what: &str) -> String {
    match errno {
        Errno::ELOOP => format!("{what} is a link (links are not followed)"),
        Errno::ENOTDIR => "a folder on its path is not a folder".into(),
        other => other.desc().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    async fn read(dir: &Path, path: &str) -> FileRead {
        read_head(dir, path, Duration::from_secs(5), &Stop::never()).await
    }

    fn refused_with(read: FileRead) -> String {
        match read {
            FileRead::Refused(why) => why,
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn a_file_inside_is_read_by_relative_or_absolute_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("out")).unwrap();
        std::fs::write(dir.path().join("out/a.png"), b"\x89PNG").unwrap();
        let want = FileRead::Head(b"\x89PNG".to_vec());
        assert_eq!(read(dir.path(), "out/a.png").await, want);
        assert_eq!(read(dir.path(), "./out/../out/a.png").await, want);
        let absolute = dir.path().join("out/a.png");
        assert_eq!(read(dir.path(), absolute.to_str().unwrap()).await, want);
        let canonical = absolute.canonicalize().unwrap();
        assert_eq!(read(dir.path(), canonical.to_str().unwrap()).await, want);
        assert!(refused_with(read(dir.path(), "out/none.png").await).contains("No such file"));
    }

    #[tokio::test]
    async fn a_path_outside_is_refused_alike_whether_or_not_it_exists() {
        let dir = tempfile::tempdir().unwrap();
        let outside = "a path outside its working folder (not read)";
        for path in [
            "/etc/shadow",
            "/etc/no-such-file-here",
            "../../../../etc/passwd",
            "../../../../etc/no-such-file-here",
            "a/../../x",
        ] {
            assert_eq!(
                refused_with(read(dir.path(), path).await),
                outside,
                "{path}"
            );
        }
    }

    #[tokio::test]
    async fn links_are_never_followed_whether_last_or_on_the_way() {
        let dir = tempfile::tempdir().unwrap();
        symlink("/etc/passwd", dir.path().join("passwd")).unwrap();
        symlink("/etc/shadow", dir.path().join("shadow")).unwrap();
        symlink("/etc", dir.path().join("etc")).unwrap();
        std::fs::write(dir.path().join("inside.png"), b"x").unwrap();
        symlink(dir.path().join("inside.png"), dir.path().join("alias.png")).unwrap();
        for path in ["passwd", "shadow", "alias.png"] {
            assert_eq!(
                refused_with(read(dir.path(), path).await),
                "the file is a link (links are not followed)",
                "{path}"
            );
        }
        assert_eq!(
            refused_with(read(dir.path(), "etc/passwd").await),
            "a folder on its path is a link (links are not followed)"
        );
    }

    #[tokio::test]
    async fn a_fifo_is_refused_without_blocking_and_the_folder_is_no_file() {
        let dir = tempfile::tempdir().unwrap();
        nix::unistd::mkfifo(&dir.path().join("pipe"), Mode::S_IRWXU).unwrap();
        let started = std::time::Instant::now();
        assert_eq!(
            refused_with(read(dir.path(), "pipe").await),
            "not a regular file (not read)"
        );
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(refused_with(read(dir.path(), ".").await).contains("working folder itself"));
    }
}
