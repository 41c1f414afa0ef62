//! The store watches its own file.
//!
//! SQLite keeps using the file it opened even after that file is deleted or
//! replaced: writes then succeed into an unlinked inode and vanish at
//! restart, while new pool connections open a fresh, empty file at the
//! path. So the store remembers which file it opened (device and inode)
//! and checks, before every write and again before acknowledging it, and
//! on every health check, that the file at its path is still that file.

use std::path::{Path, PathBuf};

use crate::StoreError;

/// The identity of the SQLite file a store opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileWatch {
    path: PathBuf,
    id: Option<FileId>,
}

/// What makes a file the same file: device and inode on Unix; elsewhere
/// only its presence is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
}

impl FileWatch {
    /// Remembers the file now at `path`.
    pub(crate) fn new(path: &Path) -> Result<FileWatch, StoreError> {
        let id = file_id(path).map_err(|e| StoreError::FileReplaced {
            path: path.display().to_string(),
            reason: format!("cannot read it after opening: {e}"),
        })?;
        Ok(FileWatch {
            path: path.to_owned(),
            id,
        })
    }

    /// Whether the file at the path is still the one opened.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        let replaced = |reason: String| StoreError::FileReplaced {
            path: self.path.display().to_string(),
            reason,
        };
        match file_id(&self.path) {
            Ok(now) if now == self.id => Ok(()),
            Ok(_) => Err(replaced(
                "another file has taken its place since the server opened it".into(),
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(replaced(
                "it was deleted while the server had it open".into(),
            )),
            Err(e) => Err(replaced(format!("cannot read it: {e}"))),
        }
    }
}

#[cfg(unix)]
fn file_id(path: &Path) -> std::io::Result<Option<FileId>> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path)?;
    Ok(Some(FileId {
        dev: meta.dev(),
        ino: meta.ino(),
    }))
}

#[cfg(not(unix))]
fn file_id(path: &Path) -> std::io::Result<Option<FileId>> {
    std::fs::metadata(path).map(|_| None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deleted_or_replaced_file_is_noticed() {
        let dir = std::env::temp_dir().join(format!("mangekyo-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.db");
        std::fs::write(&path, b"x").unwrap();
        let watch = FileWatch::new(&path).unwrap();
        watch.check().unwrap();
        // A new file at the same path is not the one opened (made while
        // the first exists, so it cannot reuse its inode number).
        std::fs::write(dir.join("b.db"), b"y").unwrap();
        std::fs::rename(dir.join("b.db"), &path).unwrap();
        if cfg!(unix) {
            let err = watch.check().unwrap_err().to_string();
            assert!(err.contains("another file"), "{err}");
        }
        std::fs::remove_file(&path).unwrap();
        let err = watch.check().unwrap_err().to_string();
        assert!(err.contains("deleted"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
