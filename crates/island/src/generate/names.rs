//! Step 6: names (the guide's `assignNames`), from the `names` stream only,
//! so drawing more or fewer names never moves anything else.

use crate::defs::Definitions;
use crate::map::LocationName;
use mangekyo_core::Pcg32;
use std::collections::BTreeMap;

/// Names for sites of the given types. A type with one site is named by the
/// type alone; otherwise its variants are shuffled and dealt out in site-id
/// order, and sites past the variants get ordinals 1, 2, ….
pub fn assign_names(defs: &Definitions, types: &[&str], rng: &mut Pcg32) -> Vec<LocationName> {
    let mut by_type: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (site, ty) in types.iter().enumerate() {
        by_type.entry(ty).or_default().push(site);
    }
    let mut names: Vec<Option<LocationName>> = vec![None; types.len()];
    for (ty, sites) in by_type {
        let name = |variant: Option<String>, ordinal: Option<u32>| LocationName {
            location_type: ty.to_string(),
            variant,
            ordinal,
        };
        if let [only] = sites[..] {
            names[only] = Some(name(None, None));
            continue;
        }
        let mut variants: Vec<String> = defs
            .location_types()
            .get(ty)
            .map(|t| t.variants.iter().map(|v| v.id.clone()).collect())
            .unwrap_or_default();
        rng.shuffle(&mut variants);
        for (k, &site) in sites.iter().enumerate() {
            names[site] = Some(match variants.get(k) {
                Some(v) => name(Some(v.clone()), None),
                None => name(None, Some((k - variants.len() + 1) as u32)),
            });
        }
    }
    names
        .into_iter()
        .map(|n| n.expect("every site belongs to one type"))
        .collect()
}
