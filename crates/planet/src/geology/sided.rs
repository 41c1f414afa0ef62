//! [`Boundaries::Sided`]: each side of a plate boundary with its own
//! profile, across the nearest boundary only (frozen with versions 2 to
//! 4; `joined.rs` beside it is the next version's).

use super::*;

/// [`Boundaries::Sided`]: each side's profile alone, across the nearest
/// boundary only.
pub(super) fn uplift_block_sided(
    inputs: &UpliftInputs<'_>,
    dirs: &[Dir],
    land: &[f32],
    out: &mut GeologySamples,
) {
    let plates = inputs.plates;
    let n = dirs.len();
    let q = plates.warped(dirs, inputs.radius, inputs.level);
    let among = plates.candidates(&q, 2);
    let points: Vec<PlatePoint> = q
        .iter()
        .map(|&q| plates.locate_among(q, among.iter().copied()))
        .collect();
    let sutures = plates.suture_candidates(&q);
    // The crust across the boundary: the land field at the point mirrored
    // over it (a little past, so the far side's coast counts).
    let mut mirror: [Vec<f64>; 3] = Default::default();
    let near: Vec<usize> = (0..n)
        .filter(|&i| points[i].distance_km < PROFILE_REACH_KM)
        .collect();
    for &i in &near {
        let (d, p) = (dirs[i], &points[i]);
        let s = 2.0 * p.distance_km / KM_PER_RADIAN + 0.015;
        let m = normalise([
            d[0] + s * p.normal[0],
            d[1] + s * p.normal[1],
            d[2] + s * p.normal[2],
        ]);
        for a in 0..3 {
            mirror[a].push(m[a] * inputs.radius);
        }
    }
    let mut gathered = vec![0.0f32; near.len()];
    let [mx, my, mz] = &mirror;
    match inputs.detail.octaves(Layer::Continent) {
        _ if near.is_empty() => {}
        0 => {}
        // Crust type is a large-scale property: the first octaves of the
        // continent field decide it (the coast's detail does not matter
        // hundreds of km away), at well under half the cost.
        k => inputs.backend.fill(
            Layer::Continent,
            k.min(CRUST_OCTAVES),
            Positions {
                x: mx,
                y: my,
                z: mz,
            },
            &mut gathered,
        ),
    }
    // Far from every boundary no profile reads the far side's crust.
    let mut across = vec![inputs.threshold; n];
    for (&i, &g) in near.iter().zip(&gathered) {
        across[i] = g;
    }
    for i in 0..n {
        let p = &points[i];
        let crust = Crust {
            here: continental(land[i]),
            across: continental(across[i] - inputs.threshold),
            here_sinks: plates.sinks(p.plate as usize, p.other as usize),
        };
        let u = boundary_uplift(p.distance_km, p.convergence, crust)
            + crust.here * plates.suture_among(q[i], sutures.iter().copied());
        out.plate.push(p.plate);
        out.uplift.push((inputs.activity * u) as f32);
    }
}
