//! Where a bake writes: a local directory or an S3-compatible bucket,
//! through the `object_store` crate, so one code path serves both.
//!
//! Writes are atomic on both (a local file is written aside and renamed;
//! an S3 PUT replaces the object whole), so an interrupted bake leaves
//! either a complete object or none — but a complete object may still be
//! stale or foreign, which is why the bake verifies content hashes.

use std::sync::Arc;

use anyhow::{Context, bail};
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};

/// An open bake destination.
#[derive(Debug, Clone)]
pub(super) struct Target {
    store: Arc<dyn ObjectStore>,
    root: Path,
    name: String,
    /// The directory of a local target: its writes go through
    /// [`crate::atomic`] (fsynced, then renamed) rather than the store.
    local: Option<std::path::PathBuf>,
}

impl Target {
    /// Opens `spec`: a directory path (created if missing), `file:///dir`,
    /// or `s3://bucket/prefix` (credentials, region and endpoint from the
    /// usual `AWS_*` variables: `AWS_ENDPOINT` and `AWS_ALLOW_HTTP=true`
    /// for MinIO, Ceph, R2 and other S3-compatible stores).
    pub(super) fn open(spec: &str) -> anyhow::Result<Target> {
        if let Some(rest) = spec.strip_prefix("s3://") {
            return open_s3(spec, rest);
        }
        if spec.contains("://") && !spec.starts_with("file://") {
            bail!("--output {spec:?}: expected a directory, file:///dir or s3://bucket/prefix");
        }
        let dir = spec.strip_prefix("file://").unwrap_or(spec);
        std::fs::create_dir_all(dir).with_context(|| format!("creating {dir}"))?;
        let store = LocalFileSystem::new_with_prefix(dir)
            .with_context(|| format!("opening {dir} for writing"))?;
        Ok(Target {
            store: Arc::new(store),
            root: Path::default(),
            name: dir.to_owned(),
            local: Some(std::path::PathBuf::from(dir)),
        })
    }

    /// Where this is, for messages.
    pub(super) fn name(&self) -> &str {
        &self.name
    }

    fn path(&self, rel: &str) -> Path {
        let mut path = self.root.clone();
        for part in rel.split('/').filter(|p| !p.is_empty()) {
            path = path.join(part);
        }
        path
    }

    /// The object at `rel`, or `None` if there is none.
    pub(super) async fn get(&self, rel: &str) -> anyhow::Result<Option<Vec<u8>>> {
        match self.store.get(&self.path(rel)).await {
            Ok(got) => {
                let bytes = got.bytes().await.with_context(|| self.at(rel))?;
                Ok(Some(bytes.to_vec()))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(e).with_context(|| self.at(rel)),
        }
    }

    /// Writes `bytes` to `rel`, replacing what was there.
    pub(super) async fn put(&self, rel: &str, bytes: Vec<u8>) -> anyhow::Result<()> {
        if let Some(dir) = &self.local {
            let mut file = dir.clone();
            file.extend(rel.split('/').filter(|p| !p.is_empty()));
            return tokio::task::spawn_blocking(move || {
                if let Some(parent) = file.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("creating {}", parent.display()))?;
                }
                crate::atomic::write(&file, &bytes)
            })
            .await
            .context("writing a bake output")?;
        }
        self.store
            .put(&self.path(rel), PutPayload::from(bytes))
            .await
            .with_context(|| format!("writing {}", self.at(rel)))?;
        Ok(())
    }

    /// Deletes `rel` (absent is fine).
    pub(super) async fn delete(&self, rel: &str) -> anyhow::Result<()> {
        match self.store.delete(&self.path(rel)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e).with_context(|| format!("deleting {}", self.at(rel))),
        }
    }

    /// Removes the folder `rel` of a local target if it is empty (an
    /// object store has no folders: a prefix with no objects is gone).
    /// A folder still holding something (another bake's records) stays.
    pub(super) fn remove_empty_folder(&self, rel: &str) -> anyhow::Result<()> {
        let Some(dir) = &self.local else {
            return Ok(());
        };
        let mut folder = dir.clone();
        folder.extend(rel.split('/').filter(|p| !p.is_empty()));
        match std::fs::remove_dir(&folder) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(_) if std::fs::read_dir(&folder).is_ok_and(|mut d| d.next().is_some()) => Ok(()),
            Err(e) => Err(e).with_context(|| format!("removing {}", folder.display())),
        }
    }

    /// The names of the objects directly under the folder `rel`, sorted.
    pub(super) async fn list(&self, rel: &str) -> anyhow::Result<Vec<String>> {
        let prefix = self.path(rel);
        let listed = match self.store.list_with_delimiter(Some(&prefix)).await {
            Ok(l) => l,
            Err(object_store::Error::NotFound { .. }) => return Ok(Vec::new()),
            Err(e) => return Err(e).with_context(|| format!("listing {}", self.at(rel))),
        };
        let mut names: Vec<String> = listed
            .objects
            .iter()
            .filter_map(|o| o.location.filename().map(str::to_owned))
            // A killed local write may leave a hidden temporary file.
            .filter(|n| !n.starts_with('.'))
            .collect();
        names.sort();
        Ok(names)
    }

    fn at(&self, rel: &str) -> String {
        format!("{}/{rel}", self.name.trim_end_matches('/'))
    }
}

#[cfg(feature = "s3")]
fn open_s3(spec: &str, rest: &str) -> anyhow::Result<Target> {
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        bail!("--output {spec:?}: no bucket name");
    }
    let store = object_store::aws::AmazonS3Builder::from_env()
        .with_bucket_name(bucket)
        .build()
        .with_context(|| {
            format!("opening {spec} (set AWS_* variables for credentials and endpoint)")
        })?;
    let root = prefix
        .split('/')
        .filter(|p| !p.is_empty())
        .fold(Path::default(), |p, part| p.join(part));
    Ok(Target {
        store: Arc::new(store),
        root,
        name: spec.to_owned(),
        local: None,
    })
}

#[cfg(not(feature = "s3"))]
fn open_s3(spec: &str, _rest: &str) -> anyhow::Result<Target> {
    bail!(
        "--output {spec:?}: this build has no S3 support (build the mangekyo binary with the `s3` feature)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn local_targets_round_trip_and_list() {
        let dir = std::env::temp_dir().join(format!("mk-bake-target-{}", std::process::id()));
        let t = Target::open(&dir.to_string_lossy()).unwrap();
        assert_eq!(t.get("a/b.bin").await.unwrap(), None);
        t.put("a/b.bin", b"xyz".to_vec()).await.unwrap();
        t.put("a/c.bin", b"1".to_vec()).await.unwrap();
        assert_eq!(t.get("a/b.bin").await.unwrap().unwrap(), b"xyz");
        assert_eq!(t.list("a").await.unwrap(), ["b.bin", "c.bin"]);
        assert!(t.list("none").await.unwrap().is_empty());
        t.delete("a/b.bin").await.unwrap();
        t.delete("a/b.bin").await.unwrap();
        assert_eq!(t.list("a").await.unwrap(), ["c.bin"]);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(Target::open("ftp://x/y").is_err());
    }
}
