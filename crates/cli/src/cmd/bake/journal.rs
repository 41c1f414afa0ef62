//! A shard's checkpoints: what it wrote since the last one, as numbered
//! objects under `_bake/journal/` (object stores cannot append, so each
//! checkpoint is a new small object; a restart reads them all).

use super::plan::{Manifest, Output};
use super::target::Target;

/// The checkpoints of one shard: numbered objects, each holding the
/// outputs written since the previous one (object stores cannot append).
pub(super) struct Journal<'a> {
    target: &'a Target,
    runtime: &'a tokio::runtime::Runtime,
    head: Manifest,
    pending: Vec<Output>,
    written: Vec<String>,
    every: usize,
    next: u64,
}

impl<'a> Journal<'a> {
    /// The journal of the shard `me` names, numbering after any
    /// checkpoints a killed run of it left; flushes every `every` outputs.
    pub(super) fn new(
        target: &'a Target,
        me: &Manifest,
        runtime: &'a tokio::runtime::Runtime,
        every: usize,
    ) -> anyhow::Result<Journal<'a>> {
        let label = me.shard.clone().unwrap_or_default();
        let existing = runtime.block_on(target.list("_bake/journal"))?;
        let mine: Vec<String> = existing
            .into_iter()
            .filter(|n| n.starts_with(&format!("{label}-")))
            .map(|n| format!("_bake/journal/{n}"))
            .collect();
        Ok(Journal {
            target,
            runtime,
            head: me.clone(),
            pending: Vec::new(),
            next: mine.len() as u64,
            written: mine,
            every,
        })
    }

    /// Records outputs just written, checkpointing when enough are pending.
    pub(super) fn add(&mut self, outputs: Vec<Output>) -> anyhow::Result<()> {
        self.pending.extend(outputs);
        if self.pending.len() >= self.every {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the pending outputs as the next checkpoint.
    pub(super) fn flush(&mut self) -> anyhow::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let label = self.head.shard.clone().unwrap_or_default();
        let path = format!("_bake/journal/{label}-{:08}.json", self.next);
        let mut m = self.head.clone();
        m.items = self.pending.len() as u64;
        m.outputs = std::mem::take(&mut self.pending);
        let bytes = serde_json::to_vec(&m)?;
        self.runtime.block_on(self.target.put(&path, bytes))?;
        self.written.push(path);
        self.next += 1;
        Ok(())
    }

    /// Deletes this shard's checkpoints (its shard manifest holds them now).
    pub(super) async fn clear(&self) -> anyhow::Result<()> {
        for path in &self.written {
            self.target.delete(path).await?;
        }
        Ok(())
    }
}
