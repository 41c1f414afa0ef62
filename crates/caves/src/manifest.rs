//! What a client needs before streaming a cave world's chunks: the bound on
//! chunk coordinates, the chunk layers that can hold a surface, the height
//! a flying camera may climb to, and a spawn point above a karst shaft.
//!
//! These are facts about the field, cached forever behind pinned URLs, so
//! they are computed here, under the generator crates' determinism lints,
//! and every edge (the service's manifest, `mangekyo caves`) reads them
//! from one place.

use crate::{CHUNK, CaveError, CaveField, CaveParams, ChunkCoord, Version, wire};
use mangekyo_core::{ParamError, Seed};

/// Largest |chunk coordinate|: 2²⁰ chunks is 2²⁵ voxels, where f32
/// chunk-local positions and f64 noise inputs are still exact enough.
pub const MAX_CHUNK_COORD: i32 = 1 << 20;

/// Largest |coordinate| of a point query, voxels (the same extent).
pub const MAX_POINT_COORD: f64 = (MAX_CHUNK_COORD as f64) * CHUNK as f64;

/// Voxels above the highest possible surface a flying camera may climb.
pub const CEILING_MARGIN: f64 = 48.0;

/// Voxels above the surface the spawn point sits.
pub const SPAWN_HEIGHT: f64 = 6.0;

/// How far from the origin, and on what grid, the spawn search looks for a
/// karst shaft to start above (voxels): 257² columns over ±512 voxels;
/// only the few percent the entrance mask opens are ray cast. Shafts are
/// rare with the default parameters (about a dozen per km² for seed 42),
/// so the search has to reach this far.
const SHAFT_SEARCH: (i32, f64) = (128, 4.0);

/// A column counts as a shaft when a ray down from the surface runs this
/// many voxels through air.
const SHAFT_DEPTH: f64 = 6.0;

impl ChunkCoord {
    /// The chunk at `(x, y, z)`, refused (naming `cx`, `cy` or `cz`) beyond
    /// ±[`MAX_CHUNK_COORD`].
    pub fn checked(x: i32, y: i32, z: i32) -> Result<ChunkCoord, CaveError> {
        for (name, v) in [("cx", x), ("cy", y), ("cz", z)] {
            if !(-MAX_CHUNK_COORD..=MAX_CHUNK_COORD).contains(&v) {
                return Err(CaveError::Param(ParamError::new(
                    name,
                    v,
                    "in -1048576..=1048576 (±2^20 chunks)",
                )));
            }
        }
        Ok(ChunkCoord::new(x, y, z))
    }
}

/// A cave world's streaming facts (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifest {
    /// The lowest and highest chunk layer (`cy`) that can hold a surface.
    pub chunk_y: [i64; 2],
    /// The lowest and highest surface height the parameters allow, voxels.
    pub surface_range: [f64; 2],
    /// How high a flying camera may climb, voxels.
    pub ceiling: f64,
    /// Where to start: above the karst shaft nearest the origin (or above
    /// the origin's column if none is near), voxels.
    pub spawn: [f64; 3],
    /// The generator version of the field (its worlds differ by version).
    pub version: Version,
}

impl Manifest {
    /// The manifest of `field`.
    pub fn of(field: &CaveField) -> Manifest {
        let p = field.params();
        let (lo, hi) = (
            f64::from(p.base_height - p.amplitude),
            f64::from(p.base_height + p.amplitude),
        );
        let chunk = CHUNK as f64;
        // Every chunk layer that can hold a surface: the solid floor's up to
        // the highest hilltop's (one voxel of slack either side: a surface on
        // a chunk boundary is meshed by the chunk below it).
        let floor = f64::from(p.floor_level);
        let chunk_y = [
            ((floor.min(lo) - 1.0) / chunk).floor() as i64,
            ((hi + 1.0) / chunk).floor() as i64,
        ];
        Manifest {
            chunk_y,
            surface_range: [lo, hi],
            ceiling: hi + CEILING_MARGIN,
            spawn: spawn_point(field),
            version: field.version(),
        }
    }

    /// The manifest as the JSON document every edge serves (the service's
    /// `/v1/caves/{seed}`, the WebAssembly package's `cavesManifest`): the
    /// generator and wire versions, the seed, the parameters and the facts
    /// above. Keys come out sorted, so the bytes are one function of the
    /// world.
    pub fn document(
        &self,
        seed: Seed,
        params: &CaveParams,
    ) -> Result<serde_json::Value, serde_json::Error> {
        Ok(serde_json::json!({
            "generator": "caves",
            "version": self.version.code(),
            "wire_version": wire::FORMAT_VERSION,
            "seed": seed.value(),
            "params": serde_json::to_value(params)?,
            "chunk": CHUNK,
            "chunk_y": self.chunk_y,
            "surface_range": self.surface_range,
            "ceiling": self.ceiling,
            "spawn": self.spawn,
        }))
    }
}

/// [`SPAWN_HEIGHT`] above the surface at [`nearest_shaft`] (or the
/// origin's column).
pub fn spawn_point(field: &CaveField) -> [f64; 3] {
    let [x, z] = nearest_shaft(field).unwrap_or([0.5, 0.5]);
    [x, f64::from(field.surface_height(x, z)) + SPAWN_HEIGHT, z]
}

/// The nearest column to the origin (on the search grid) where the ground
/// opens into a shaft: where a camera should start, looking down into the
/// caves.
pub fn nearest_shaft(field: &CaveField) -> Option<[f64; 2]> {
    let (reach, step) = SHAFT_SEARCH;
    let mut columns: Vec<[f64; 2]> = (-reach..=reach)
        .flat_map(|i| {
            (-reach..=reach).map(move |k| [f64::from(i) * step + 0.5, f64::from(k) * step + 0.5])
        })
        .collect();
    // By squared distance: the columns sit on quarter voxels within ±2^10,
    // so x² + z² is exact and the order needs no libm (a stable sort keeps
    // equal distances in grid order).
    columns.sort_by(|a, b| (a[0] * a[0] + a[1] * a[1]).total_cmp(&(b[0] * b[0] + b[1] * b[1])));
    columns
        .into_iter()
        .filter(|&[x, z]| field.entrance_open(x, z))
        .find(|&[x, z]| {
            let top = f64::from(field.surface_height(x, z)) + 1.0;
            match field.raycast([x, top, z], [0.0, -1.0, 0.0], 80.0) {
                Some(hit) => hit.distance > SHAFT_DEPTH + 1.0,
                None => true,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaveParams, Seed};

    #[test]
    fn chunk_coordinates_are_bounded_by_name() {
        assert!(ChunkCoord::checked(MAX_CHUNK_COORD, -MAX_CHUNK_COORD, 0).is_ok());
        let e = ChunkCoord::checked(0, 0, MAX_CHUNK_COORD + 1).unwrap_err();
        assert!(matches!(&e, CaveError::Param(p) if p.name == "cz"), "{e}");
    }

    #[test]
    fn the_spawn_sits_above_the_surface_inside_the_surface_layers() {
        let field = CaveField::new(&CaveParams::default(), Seed::from(42)).unwrap();
        let m = Manifest::of(&field);
        let [x, y, z] = m.spawn;
        assert_eq!(y, f64::from(field.surface_height(x, z)) + SPAWN_HEIGHT);
        assert!(m.chunk_y[0] <= m.chunk_y[1]);
        assert!(m.surface_range[1] < m.ceiling);
    }
}
