//! [`Boundaries::Joined`]: plate boundaries whose profiles meet from both
//! sides, blended where the second-nearest plate changes and faded near
//! triple junctions, so the relief has no step anywhere (the next
//! version; `sided.rs` beside it is frozen with versions 2 to 4).

use super::*;

/// [`Boundaries::Joined`]: over this distance from a boundary its two
/// sides' profiles ease to their common value at it, km.
const JOIN_KM: f64 = 60.0;
/// [`Boundaries::Joined`]: where the second- and third-nearest plates are
/// this close (as distance, km), their boundaries' profiles are blended.
const FAN_KM: f64 = 120.0;
/// [`Boundaries::Joined`]: boundary profiles fade out within about this
/// (as km of dot product; some 50 km on the ground) of a triple
/// junction, and the third plate's boundary joins in only this far from
/// the nearest boundary.
const JUNCTION_KM: f64 = 25.0;

/// [`Boundaries::Joined`]'s profile: [`boundary_uplift`] on this side,
/// eased over [`JOIN_KM`] to the mean of both sides' values at the
/// boundary. `behind` is the crust the far side sees across (on this
/// side, a fixed distance back), so at distance 0 both sides compute the
/// same mean and the relief is continuous across every boundary.
fn joined_uplift(p: &PlatePoint, crust: Crust, behind: f64) -> f64 {
    let x = p.distance_km;
    let own = boundary_uplift(x, p.convergence, crust);
    if x >= JOIN_KM {
        return own;
    }
    let at_zero = boundary_uplift(0.0, p.convergence, crust);
    let theirs = boundary_uplift(
        0.0,
        p.convergence,
        Crust {
            here: crust.here,
            across: behind,
            here_sinks: !crust.here_sinks,
        },
    );
    own + 0.5 * (theirs - at_zero) * (1.0 - smoothstep(0.0, JOIN_KM, x))
}

/// The crust offset: a sample this far (radians) past the mirror image,
/// so the far side's coast counts.
const CRUST_OFFSET: f64 = 0.015;

/// [`uplift_block`] for [`Boundaries::Joined`]: each boundary's profiles
/// meet from both sides ([`joined_uplift`]), and near the line where the
/// second-nearest plate changes, the boundaries to both are blended, so
/// no straight step fans out of a triple junction.
pub(super) fn uplift_block_joined(
    inputs: &UpliftInputs<'_>,
    dirs: &[Dir],
    land: &[f32],
    out: &mut GeologySamples,
) {
    let plates = inputs.plates;
    let n = dirs.len();
    let q = plates.warped(dirs, inputs.radius, inputs.level);
    let among = plates.candidates(&q, 3);
    let sutures = plates.suture_candidates(&q);
    // The third plate's share: ½ on the line where it becomes second
    // (so no step fans out along it), and none at the nearest boundary
    // itself (where both sides' nearest pair is one boundary, joined, but
    // their third pairs differ).
    let share = |t: &Nearest3| {
        0.5 * (1.0 - smoothstep(0.0, FAN_KM, t.third - t.second))
            * smoothstep(0.0, JUNCTION_KM, t.second)
    };
    // Within JUNCTION_KM of a triple junction those two wishes meet: the
    // profiles fade out there, by a weight each of its plates computes
    // alike.
    let fade = |t: &Nearest3| smoothstep(JUNCTION_KM, 2.0 * JUNCTION_KM, t.third);
    // Each sample's nearest plates, and the two boundaries' motions where
    // a profile can read them (in reach, not faded out, and the third's
    // with a share): the rest never reach the uplift.
    let located: Vec<Located> = q
        .iter()
        .map(|&q| {
            let t = plates.nearest_three(q, among.iter().copied());
            let [a, b, c] = t.plates;
            let live = fade(&t) > 0.0;
            Located {
                ab: live.then(|| plates.pair_within(q, a, b)).flatten(),
                ac: (live && share(&t) > 0.0)
                    .then(|| plates.pair_within(q, a, c))
                    .flatten(),
                t,
            }
        })
        .collect();
    // Crust samples: for each boundary in reach, the mirror across it and
    // (within JOIN_KM) one behind; gathered in one call.
    let mut at: [Vec<f64>; 3] = Default::default();
    let mut push = |d: Dir, normal: Dir, s: f64| {
        let m = normalise([
            d[0] + s * normal[0],
            d[1] + s * normal[1],
            d[2] + s * normal[2],
        ]);
        for a in 0..3 {
            at[a].push(m[a] * inputs.radius);
        }
    };
    // Per sample and pair: (index of its across sample, of its behind).
    const NO: usize = usize::MAX;
    let mut slots = vec![[(NO, NO); 2]; n];
    let mut count = 0usize;
    for i in 0..n {
        for (j, p) in [&located[i].ab, &located[i].ac].into_iter().enumerate() {
            let Some(p) = p else { continue };
            let s = 2.0 * p.distance_km / KM_PER_RADIAN + CRUST_OFFSET;
            push(dirs[i], p.normal, s);
            slots[i][j].0 = count;
            count += 1;
            if p.distance_km < JOIN_KM {
                push(dirs[i], p.normal, -CRUST_OFFSET);
                slots[i][j].1 = count;
                count += 1;
            }
        }
    }
    let mut gathered = vec![inputs.threshold; count];
    let [x, y, z] = &at;
    match inputs.detail.octaves(Layer::Continent) {
        _ if count == 0 => {}
        0 => {}
        k => inputs.backend.fill(
            Layer::Continent,
            k.min(CRUST_OCTAVES),
            Positions { x, y, z },
            &mut gathered,
        ),
    }
    let crust_at = |slot: usize| {
        if slot == NO {
            0.0
        } else {
            continental(gathered[slot] - inputs.threshold)
        }
    };
    for i in 0..n {
        let Located { t, ab, ac } = &located[i];
        let here = continental(land[i]);
        let profile = |p: &Option<PlatePoint>, (across, behind): (usize, usize)| {
            let Some(p) = p.as_ref().filter(|_| across != NO) else {
                return 0.0;
            };
            let crust = Crust {
                here,
                across: crust_at(across),
                here_sinks: plates.sinks(p.plate as usize, p.other as usize),
            };
            if behind == NO {
                boundary_uplift(p.distance_km, p.convergence, crust)
            } else {
                joined_uplift(p, crust, crust_at(behind))
            }
        };
        let w = share(t);
        let mut u = (1.0 - w) * profile(ab, slots[i][0]);
        if w > 0.0 {
            u += w * profile(ac, slots[i][1]);
        }
        u = fade(t) * u + here * plates.suture_among(q[i], sutures.iter().copied());
        out.plate.push(t.plates[0] as u16);
        out.uplift.push((inputs.activity * u) as f32);
    }
}

/// A sample's nearest plates and the motions across the boundaries a
/// profile can read (`None`: out of reach, faded out or without a share).
struct Located {
    t: Nearest3,
    ab: Option<PlatePoint>,
    ac: Option<PlatePoint>,
}
