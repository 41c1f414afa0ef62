//! Step 3: location types (the guide's `assignTypes`). Guarantees first, by
//! maximum bipartite matching; then every other site, best match first,
//! takes the nearest admissible type with a crowding penalty, avoiding full
//! types; then fallbacks by priority.

use super::matching::Matcher;
use crate::GenerateError;
use crate::defs::{Definitions, Guarantee, LocationTypeDef, Prefer, ScopeDef};
use crate::map::Assignment;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Axis values of one site.
pub type AxisValues = BTreeMap<String, f64>;

/// The normalised weighted distance from a site to a type's ideal point:
/// `sqrt(Σ wₐ·((v − p)/span)² / Σ wₐ)`, in `[0, 1]` (the guide's
/// `normalizedDistanceFrom`). Summed in axis-name order.
pub fn normalized_distance(defs: &Definitions, ty: &LocationTypeDef, axes: &AxisValues) -> f64 {
    let (mut sum, mut weights) = (0.0, 0.0);
    for (axis, pref) in &ty.preferences {
        let span = defs.axes()[axis].range.span();
        let d = (axes[axis] - pref.value) / span;
        sum += pref.weight * d * d;
        weights += pref.weight;
    }
    (sum / weights).sqrt()
}

/// A site's type and how it was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeChoice {
    /// The location type's name.
    pub location_type: String,
    /// How it was chosen.
    pub assigned_by: Assignment,
}

/// Types for every site.
pub fn assign_types(
    defs: &Definitions,
    scope: &ScopeDef,
    axes: &[AxisValues],
) -> Result<Vec<TypeChoice>, GenerateError> {
    assign_types_cancellable(defs, scope, axes, &|| true)
}

/// [`assign_types`], asking `keep_going` before each guaranteed site is
/// decided (the matcher's rounds): [`GenerateError::Cancelled`] once it
/// answers `false`.
pub fn assign_types_cancellable(
    defs: &Definitions,
    scope: &ScopeDef,
    axes: &[AxisValues],
    keep_going: &dyn Fn() -> bool,
) -> Result<Vec<TypeChoice>, GenerateError> {
    let mut out: Vec<Option<TypeChoice>> = vec![None; axes.len()];
    assign_guaranteed(defs, scope, axes, &mut out, keep_going)?;
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for c in out.iter().flatten() {
        *counts.entry(c.location_type.clone()).or_default() += 1;
    }
    for site in remaining_by_best_distance(defs, axes, &out) {
        let choice = nearest_type_avoiding_full(defs, scope, &axes[site], &counts)
            .or_else(|| fallback(defs))
            .ok_or_else(|| no_type(site, &axes[site]))?;
        *counts.entry(choice.0.to_string()).or_default() += 1;
        out[site] = Some(TypeChoice {
            location_type: choice.0.to_string(),
            assigned_by: choice.1,
        });
    }
    Ok(out
        .into_iter()
        .map(|c| c.expect("every site is assigned above"))
        .collect())
}

/// Sites in a guarantee's order: by its axis (lowest or highest first),
/// then by id.
fn guarantee_order(g: &Guarantee, axes: &[AxisValues]) -> Vec<u32> {
    let mut ids: Vec<u32> = (0..axes.len() as u32).collect();
    if let Some(o) = &g.order_by {
        ids.sort_by(|&a, &b| {
            let (va, vb) = (axes[a as usize][&o.axis], axes[b as usize][&o.axis]);
            let by_value = match o.prefer {
                Prefer::Lowest => va.total_cmp(&vb),
                Prefer::Highest => vb.total_cmp(&va),
            };
            by_value.then(a.cmp(&b))
        });
    }
    ids
}

/// The guide's `assignGuaranteedSites`: openings in declaration order, each
/// taking the first admissible site (in its guarantee's order) whose loss
/// the undecided openings can absorb; openings left without a partner take
/// the first free site in the same order, outside the hard limits.
fn assign_guaranteed(
    defs: &Definitions,
    scope: &ScopeDef,
    axes: &[AxisValues],
    out: &mut [Option<TypeChoice>],
    keep_going: &dyn Fn() -> bool,
) -> Result<(), GenerateError> {
    // Guarantees × sites of sorting and filtering: a checkpoint each.
    let mut orders: Vec<Vec<u32>> = Vec::with_capacity(scope.guarantees.len());
    let mut eligible: Vec<Vec<u32>> = Vec::with_capacity(scope.guarantees.len());
    for g in &scope.guarantees {
        if !keep_going() {
            return Err(GenerateError::Cancelled);
        }
        let order = guarantee_order(g, axes);
        let ty = &defs.location_types()[&g.location_type];
        eligible.push(
            order
                .iter()
                .copied()
                .filter(|&s| ty.admits(&axes[s as usize]))
                .collect(),
        );
        orders.push(order);
    }
    let caps = scope.guarantees.iter().map(|g| g.count).collect();
    let mut matcher = Matcher::new(eligible, caps, axes.len());
    let mut unmatched = Vec::new();
    for (g, guarantee) in scope.guarantees.iter().enumerate() {
        for _ in 0..guarantee.count {
            if !keep_going() {
                return Err(GenerateError::Cancelled);
            }
            matcher.open(g);
            match matcher.take_first(g) {
                Some(s) => {
                    out[s as usize] = Some(choice(&guarantee.location_type, Assignment::Guarantee))
                }
                None => unmatched.push(g),
            }
        }
    }
    for g in unmatched {
        let guarantee = &scope.guarantees[g];
        if let Some(&s) = orders[g]
            .iter()
            .find(|&&s| !matcher.is_taken(s) && out[s as usize].is_none())
        {
            matcher.take_unmatched(s);
            out[s as usize] = Some(choice(
                &guarantee.location_type,
                Assignment::ForcedGuarantee,
            ));
        }
    }
    Ok(())
}

fn choice(ty: &str, by: Assignment) -> TypeChoice {
    TypeChoice {
        location_type: ty.to_string(),
        assigned_by: by,
    }
}

/// Unassigned sites, best-matched first (the guide's
/// `bestDistanceIgnoringCrowding`), ties by id; sites no type admits last.
fn remaining_by_best_distance(
    defs: &Definitions,
    axes: &[AxisValues],
    out: &[Option<TypeChoice>],
) -> Vec<usize> {
    let mut keyed: Vec<(f64, usize)> = (0..axes.len())
        .filter(|&s| out[s].is_none())
        .map(|s| {
            let best = defs
                .location_types()
                .values()
                .filter(|t| t.admits(&axes[s]))
                .map(|t| normalized_distance(defs, t, &axes[s]))
                .fold(f64::INFINITY, f64::min);
            (best, s)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, s)| s).collect()
}

/// The guide's `nearestTypeAvoidingFull`: the admissible type with the
/// least `distance × (1 + penalty × count)`, ties by name; full types are
/// skipped unless every admissible type is full.
fn nearest_type_avoiding_full<'d>(
    defs: &'d Definitions,
    scope: &ScopeDef,
    axes: &AxisValues,
    counts: &BTreeMap<String, u32>,
) -> Option<(&'d str, Assignment)> {
    let admissible: Vec<&'d LocationTypeDef> = defs
        .location_types()
        .values()
        .filter(|t| t.admits(axes))
        .collect();
    let count = |t: &LocationTypeDef| counts.get(&t.name).copied().unwrap_or(0);
    let open: Vec<&LocationTypeDef> = match scope.max_sites_per_type {
        Some(cap) => admissible
            .iter()
            .copied()
            .filter(|t| count(t) < cap)
            .collect(),
        None => admissible.clone(),
    };
    let pool = if open.is_empty() { admissible } else { open };
    let score = |t: &LocationTypeDef| {
        normalized_distance(defs, t, axes)
            * (1.0 + scope.crowding_penalty_per_duplicate * f64::from(count(t)))
    };
    let best =
        pool.into_iter()
            .map(|t| (score(t), t))
            .min_by(|a, b| match a.0.total_cmp(&b.0) {
                Ordering::Equal => a.1.name.cmp(&b.1.name),
                o => o,
            })?;
    Some((best.1.name.as_str(), Assignment::Nearest))
}

/// The fallback type with the highest priority, ties by name.
fn fallback(defs: &Definitions) -> Option<(&str, Assignment)> {
    defs.location_types()
        .values()
        .filter_map(|t| t.fallback.map(|p| (p, t.name.as_str())))
        .min_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)))
        .map(|(_, name)| (name, Assignment::Fallback))
}

fn no_type(site: usize, axes: &AxisValues) -> GenerateError {
    GenerateError::NoTypeAccepts {
        site: site as u32,
        axes: axes
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}
