//! The coarse tiers of planets on disk, so only the first command for a
//! planet waits for its tier (seconds); the next reads it in milliseconds.
//!
//! Where: `MANGEKYO_CACHE_DIR`, else `$XDG_CACHE_HOME/mangekyo`, else
//! `~/.cache/mangekyo`; `--no-cache` leaves it alone. A tier is the file
//! `t1/KEY` there, named as the server's store names the same blob
//! (`t1/` and [`CoarseTier::key`] in hex): the key covers the version,
//! every parameter's exact bits and the graph's N.
//!
//! Files are written through `atomic.rs` (a temporary file beside the
//! target, then a rename), so concurrent runs each leave a whole file, and
//! read back through [`CoarseTier::from_bytes`], which checks the blob's
//! own hash: a corrupt, truncated or foreign file is ignored and written
//! again, never trusted. Deleting the directory is always safe, since the
//! tier is computed again bit for bit.
//!
//! Planets of an unreleased version (`next`) are never cached: their tier
//! is a function of this build, and another build's file would match its
//! key (the server's store skips them for the same reason).

use mangekyo_planet::Planet;
use mangekyo_planet::tier::CoarseTier;
use std::path::{Path, PathBuf};

/// The cache directory the environment names, or `None` when it names
/// none (no `MANGEKYO_CACHE_DIR`, `XDG_CACHE_HOME` or `HOME`).
pub(crate) fn dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var("MANGEKYO_CACHE_DIR") {
        return Some(dir);
    }
    // The XDG spec says to ignore a relative XDG_CACHE_HOME.
    if let Some(xdg) = var("XDG_CACHE_HOME").filter(|p| p.is_absolute()) {
        return Some(xdg.join("mangekyo"));
    }
    var("HOME").map(|home| home.join(".cache").join("mangekyo"))
}

/// The file that holds the tier of `planet`, or `None` when its tier must
/// not be cached (an unreleased version).
fn file(dir: &Path, planet: &Planet) -> Option<PathBuf> {
    if !planet.version().is_released() {
        return None;
    }
    let key = CoarseTier::key(planet.params());
    Some(dir.join("t1").join(format!("{key:016x}")))
}

/// The cached tier of `planet`, when a whole one of its key is there. A
/// file that is not (corrupt, truncated, another key) is reported and
/// ignored; the caller computes the tier and [`save`] replaces it.
pub(crate) fn load(dir: &Path, planet: &Planet) -> Option<CoarseTier> {
    let path = file(dir, planet)?;
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            errln!("note: cannot read the cached tier {}: {e}", path.display());
            return None;
        }
    };
    let why = match CoarseTier::from_bytes(&bytes) {
        Ok(tier) if tier.key == CoarseTier::key(planet.params()) => return Some(tier),
        Ok(tier) => format!("it holds the tier of key {:016x}", tier.key),
        Err(e) => e.to_string(),
    };
    errln!(
        "note: ignoring the cached tier {} ({why}); computing it again",
        path.display()
    );
    None
}

/// Writes `tier` for `planet` (nothing for an unreleased version). A
/// failure costs only a recomputation next time, so it is reported and
/// not an error.
pub(crate) fn save(dir: &Path, planet: &Planet, tier: &CoarseTier) {
    let Some(path) = file(dir, planet) else {
        return;
    };
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .map_err(anyhow::Error::from)
        .and_then(|()| crate::atomic::write(&path, &tier.to_bytes()));
    if let Err(e) = written {
        errln!(
            "note: cannot cache the coarse tier in {}: {e:#}",
            path.display()
        );
    }
}
