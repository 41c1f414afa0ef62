//! Atomic file writes: every file the CLI writes goes through here.
//!
//! The bytes go to a hidden temporary file in the target's own directory
//! (so the rename cannot cross file systems), are flushed and fsynced, and
//! the temporary file is renamed over the target; the directory is then
//! fsynced so the rename itself survives a power cut. A failure at any
//! step removes the temporary file and leaves the previous file untouched.
//! A process killed mid-write leaves the previous file untouched too; only
//! its hidden `.NAME.tmp-PID-N` file can remain.
//!
//! [`Staged`] does the same for files that belong together (a heightmap
//! and its JSON sidecar): every file is written aside first, and only when
//! all are complete are they renamed into place.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;

/// Writes `bytes` to `path` atomically.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_with(path, |out| out.write_all(bytes))
}

/// Writes what `fill` writes to `path` atomically: the previous file (if
/// any) stays in place until `fill` has finished and the bytes are on disk.
pub(crate) fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let temp = write_aside(path, fill)?;
    temp.commit()
}

/// Files written aside, renamed into place together by [`Staged::commit`];
/// dropped uncommitted, they are removed.
#[derive(Debug, Default)]
pub(crate) struct Staged {
    files: Vec<Temp>,
}

impl Staged {
    /// Nothing staged yet.
    pub(crate) fn new() -> Staged {
        Staged::default()
    }

    /// Writes `bytes` aside for `path`.
    pub(crate) fn add(&mut self, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        self.files
            .push(write_aside(path, |out| out.write_all(bytes))?);
        Ok(())
    }

    /// Renames every staged file into place, in the order staged.
    pub(crate) fn commit(mut self) -> anyhow::Result<()> {
        for temp in std::mem::take(&mut self.files) {
            temp.commit()?;
        }
        Ok(())
    }
}

/// A complete temporary file waiting to be renamed over `target`; removed
/// if dropped first.
#[derive(Debug)]
struct Temp {
    path: PathBuf,
    target: PathBuf,
    done: bool,
}

impl Temp {
    fn commit(mut self) -> anyhow::Result<()> {
        std::fs::rename(&self.path, &self.target)
            .with_context(|| format!("writing {}", self.target.display()))?;
        self.done = true;
        sync_dir(&self.target);
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Writes a complete, fsynced temporary file beside `target`.
fn write_aside(
    target: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> anyhow::Result<Temp> {
    let context = || format!("writing {}", target.display());
    let name = target
        .file_name()
        .with_context(|| format!("writing {}: not a file name", target.display()))?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(
        ".tmp-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let path = dir.join(temp_name);
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .with_context(context)?;
    // From here on, dropping `temp` removes the file.
    let temp = Temp {
        path,
        target: target.to_owned(),
        done: false,
    };
    let mut out = BufWriter::new(file);
    fill(&mut out).with_context(context)?;
    let file = out
        .into_inner()
        .map_err(|e| e.into_error())
        .with_context(context)?;
    file.sync_all().with_context(context)?;
    Ok(temp)
}

/// Makes a rename in `target`'s directory durable (best effort: not every
/// platform can open a directory).
fn sync_dir(target: &Path) {
    #[cfg(unix)]
    {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = target;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mangekyo-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_whole() {
        let dir = scratch("replace");
        let path = dir.join("a.txt");
        write(&path, b"first").unwrap();
        write(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(entries(&dir), ["a.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failing_writer_leaves_the_previous_file_and_no_stray_file() {
        let dir = scratch("fail");
        let path = dir.join("save.json");
        write(&path, b"{\"good\": true}").unwrap();
        let err = write_with(&path, |out| {
            out.write_all(&[b'x'; 100_000])?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert!(format!("{err:#}").contains("disk full"), "{err:#}");
        assert_eq!(std::fs::read(&path).unwrap(), b"{\"good\": true}");
        assert_eq!(entries(&dir), ["save.json"], "no temporary file is left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn staged_files_appear_together_or_not_at_all() {
        let dir = scratch("staged");
        let (png, json) = (dir.join("c.png"), dir.join("c.png.json"));
        {
            let mut staged = Staged::new();
            staged.add(&png, b"png").unwrap();
            // The sidecar fails (its directory does not exist): dropping
            // the batch removes the PNG written aside.
            assert!(staged.add(&dir.join("missing/c.png.json"), b"{}").is_err());
        }
        assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
        let mut staged = Staged::new();
        staged.add(&png, b"png").unwrap();
        staged.add(&json, b"{}").unwrap();
        staged.commit().unwrap();
        assert_eq!(entries(&dir), ["c.png", "c.png.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Set in the child of [`a_save_killed_midway_leaves_the_previous_save_loadable`].
    const CHILD: &str = "MANGEKYO_ATOMIC_KILL_CHILD";

    /// In the child (with [`CHILD`] set): saves to that path slowly through
    /// the game's own save function, 64 KiB at a time, and stops after
    /// 64 MiB if never killed. Run directly, the same writer saves 128 KiB
    /// to a scratch file, which must then hold exactly those bytes.
    #[test]
    fn child_writes_until_killed() {
        let killed_by_parent = std::env::var_os(CHILD);
        let rounds = if killed_by_parent.is_some() { 1024 } else { 2 };
        let dir = scratch("child");
        let path = killed_by_parent
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| dir.join("save.json"));
        crate::cmd::island_play::write_save(&path, |out| {
            for _ in 0..rounds {
                out.write_all(&[b'x'; 64 * 1024])?;
                out.flush()?;
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap().len(), rounds * 64 * 1024);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Kills the child when dropped (a failed assertion included).
    struct Killed(std::process::Child);

    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// Bytes in the files of `dir`.
    fn bytes_in(dir: &Path) -> u64 {
        std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok()?.metadata().ok())
            .map(|m| m.len())
            .sum()
    }

    #[test]
    fn a_save_killed_midway_leaves_the_previous_save_loadable() {
        let dir = scratch("kill");
        let path = dir.join("save.json");
        let defs = mangekyo_island::load_definitions(mangekyo_island::example::sources()).unwrap();
        let game = mangekyo_world::Game::new(&defs, "island", mangekyo_core::Seed::new(7)).unwrap();
        let previous = game.save();
        crate::cmd::island_play::write_save(&path, |o| o.write_all(previous.as_bytes())).unwrap();
        let before = bytes_in(&dir);
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "atomic::tests::child_writes_until_killed",
                "--nocapture",
            ])
            .env(CHILD, &path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut child = Killed(child);
        // Kill it once a good part of the new save is on disk, wherever the
        // save function puts it.
        let started = std::time::Instant::now();
        while bytes_in(&dir) < before + 256 * 1024 {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(60),
                "the child never started writing"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        child.0.kill().unwrap();
        child.0.wait().unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert_eq!(after, previous, "the previous save is untouched");
        let loaded = mangekyo_world::Game::load(&defs, &after).unwrap();
        assert_eq!(loaded.save(), previous, "and it loads");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
