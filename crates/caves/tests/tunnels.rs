//! The worms really are tunnels, and caves reach the sky only where the
//! entrance mask lets them.

mod common;

use common::field;
use mangekyo_caves::{CaveField, CaveMode, CaveParams, Sampler, Seed, VoxelBox};

/// Sizes of the region searched: 4 × 2 × 4 chunks.
const REGION: [usize; 3] = [128, 64, 128];

/// The 6-connected components of carved air (air below the column's
/// surface), as (voxel count, chunks touched, x extent, z extent), largest first.
fn components(f: &CaveField) -> Vec<(usize, usize, usize, usize)> {
    let b = VoxelBox {
        min: [0, 0, 0],
        size: REGION,
    };
    let s = Sampler::new().sample(f, b);
    let [nx, ny, nz] = REGION;
    let idx = |i: usize, j: usize, k: usize| (k * ny + j) * nx + i;
    let mut carved = vec![false; b.len()];
    for k in 0..nz {
        for i in 0..nx {
            let h = s.surface(i, k).unwrap();
            for j in 0..ny {
                carved[idx(i, j, k)] = s.get(i, j, k) <= 0.0 && (j as f32) < h;
            }
        }
    }
    let mut seen = vec![false; b.len()];
    let mut out = Vec::new();
    for start in 0..b.len() {
        if !carved[start] || seen[start] {
            continue;
        }
        let (mut stack, mut count) = (vec![start], 0);
        let mut chunks = std::collections::BTreeSet::new();
        let (mut lo, mut hi) = ([usize::MAX; 3], [0usize; 3]);
        seen[start] = true;
        while let Some(v) = stack.pop() {
            let p = [v % nx, (v / nx) % ny, v / (nx * ny)];
            count += 1;
            chunks.insert(p.map(|c| c / 32));
            for a in 0..3 {
                lo[a] = lo[a].min(p[a]);
                hi[a] = hi[a].max(p[a]);
            }
            for (a, d) in [(0, -1i64), (0, 1), (1, -1), (1, 1), (2, -1), (2, 1)] {
                let mut q = p.map(|c| c as i64);
                q[a] += d;
                if q[a] < 0 || q[a] >= REGION[a] as i64 {
                    continue;
                }
                let n = idx(q[0] as usize, q[1] as usize, q[2] as usize);
                if carved[n] && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        out.push((count, chunks.len(), hi[0] - lo[0] + 1, hi[2] - lo[2] + 1));
    }
    out.sort_by(|a, b| b.cmp(a));
    out
}

#[test]
fn the_largest_cave_spans_several_chunks() {
    for mode in [CaveMode::Tubes, CaveMode::Sheets] {
        let comps = components(&field(mode, 42));
        let (count, chunks, dx, dz) = comps[0];
        let total: usize = comps.iter().map(|c| c.0).sum();
        // A connected network, not isolated bubbles: the largest component
        // reaches across at least 4 chunks and most of the region, and
        // holds a good share of all the carved space.
        assert!(
            chunks >= 4,
            "{mode:?}: largest cave touches {chunks} chunks ({comps:?})"
        );
        assert!(
            dx >= 64 || dz >= 64,
            "{mode:?}: largest cave spans only {dx}×{dz}"
        );
        assert!(
            count * 5 >= total,
            "{mode:?}: largest cave {count} of {total} carved voxels"
        );
    }
}

#[test]
fn caves_reach_the_sky_only_where_the_entrance_mask_allows() {
    // A lower threshold than the seed's 0.5 widens the mask, so a 512²
    // area holds enough entrances for the test to bite.
    for mode in [CaveMode::Tubes, CaveMode::Sheets] {
        let params = CaveParams {
            mode,
            entrance_threshold: 0.3,
            ..CaveParams::default()
        };
        let f = CaveField::new(&params, Seed::new(42)).unwrap();
        let (mut openings, mut masked) = (0, 0);
        for z in (0..512).step_by(2) {
            for x in (0..512).step_by(2) {
                let h = f.surface_height(x as f64, z as f64);
                let top = h.ceil() as i64 - 1;
                let open = f.entrance_open(x as f64, z as f64);
                masked += open as usize;
                if top > f.params().floor_level as i64 && f.density(x, top, z) <= 0.0 {
                    assert!(
                        open,
                        "{mode:?}: cave opens to the sky at ({x}, {top}, {z}) outside the entrance mask"
                    );
                    openings += 1;
                }
            }
        }
        // The test can fail: openings exist, and the mask is not everywhere.
        assert!(
            openings > 20,
            "{mode:?}: only {openings} openings ({masked} masked columns)"
        );
        assert!(
            masked < 256 * 256 / 4,
            "{mode:?}: mask covers {masked} columns"
        );
    }
}
