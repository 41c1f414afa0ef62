//! Guarantees as a bipartite matching: openings (a guarantee's `count`
//! copies) on one side, sites on the other, an edge where the site satisfies
//! the type's hard limits. The guide's `maxAssignableCount` is the size of a
//! maximum matching, found by augmenting paths.
//!
//! Openings of one guarantee are interchangeable, so a guarantee is one node
//! with a capacity (a b-matching): an augmenting path then visits each
//! guarantee at most once, which bounds its depth by the number of
//! guarantees rather than the number of openings.

/// A maximum b-matching kept up to date while openings are decided.
#[derive(Clone, Debug)]
pub(crate) struct Matcher {
    /// Eligible sites per guarantee, in that guarantee's order.
    eligible: Vec<Vec<u32>>,
    /// Openings still undecided, per guarantee.
    cap: Vec<u32>,
    /// Sites already fixed to a decided opening.
    taken: Vec<bool>,
    /// The guarantee currently holding each site in the matching.
    owner: Vec<Option<u32>>,
    /// Sites held per guarantee.
    held: Vec<u32>,
}

impl Matcher {
    /// A maximum matching of `caps[g]` openings per guarantee onto `n` sites.
    pub(crate) fn new(eligible: Vec<Vec<u32>>, caps: Vec<u32>, n: usize) -> Self {
        let g = eligible.len();
        let mut m = Matcher {
            eligible,
            cap: caps,
            taken: vec![false; n],
            owner: vec![None; n],
            held: vec![0; g],
        };
        m.fill();
        m
    }

    /// Whether `site` is fixed to a decided opening.
    pub(crate) fn is_taken(&self, site: u32) -> bool {
        self.taken[site as usize]
    }

    /// Marks a site as used outside the matching (a forced guarantee).
    pub(crate) fn take_unmatched(&mut self, site: u32) {
        self.taken[site as usize] = true;
    }

    /// The eligible sites of guarantee `g`, in order.
    pub(crate) fn eligible(&self, g: usize) -> &[u32] {
        &self.eligible[g]
    }

    /// Augments until no guarantee with spare openings can grow.
    fn fill(&mut self) {
        for g in 0..self.eligible.len() {
            while self.held[g] < self.cap[g] {
                let mut seen_g = vec![false; self.eligible.len()];
                let mut seen_s = vec![false; self.taken.len()];
                if !self.augment(g, &mut seen_g, &mut seen_s) {
                    break;
                }
            }
        }
    }

    /// One augmenting path from guarantee `g` (depth-first; each guarantee
    /// and site visited once).
    fn augment(&mut self, g: usize, seen_g: &mut [bool], seen_s: &mut [bool]) -> bool {
        seen_g[g] = true;
        for i in 0..self.eligible[g].len() {
            let s = self.eligible[g][i] as usize;
            if self.taken[s] || seen_s[s] || self.owner[s] == Some(g as u32) {
                continue;
            }
            seen_s[s] = true;
            let reroutable = match self.owner[s] {
                None => true,
                Some(h) => !seen_g[h as usize] && self.reroute(h as usize, s, seen_g, seen_s),
            };
            if reroutable {
                self.owner[s] = Some(g as u32);
                self.held[g] += 1;
                return true;
            }
        }
        false
    }

    /// Lets guarantee `h` give up `s` by finding another site.
    fn reroute(&mut self, h: usize, s: usize, seen_g: &mut [bool], seen_s: &mut [bool]) -> bool {
        self.owner[s] = None;
        self.held[h] -= 1;
        if self.augment(h, seen_g, seen_s) {
            return true;
        }
        self.owner[s] = Some(h as u32);
        self.held[h] += 1;
        false
    }

    /// Starts deciding one opening of `g`: it leaves the pool of undecided
    /// openings, and the matching is repaired to stay maximum.
    pub(crate) fn open(&mut self, g: usize) {
        self.cap[g] -= 1;
        if self.held[g] > self.cap[g]
            && let Some(i) = self.eligible[g]
                .iter()
                .rposition(|&s| self.owner[s as usize] == Some(g as u32))
        {
            let s = self.eligible[g][i] as usize;
            self.owner[s] = None;
            self.held[g] -= 1;
        }
        self.fill();
    }

    /// Fixes `site` to the opening being decided if the undecided openings
    /// can still be matched to as many sites without it (the guide's rule);
    /// otherwise changes nothing and returns false.
    pub(crate) fn try_take(&mut self, site: u32) -> bool {
        let s = site as usize;
        if self.taken[s] {
            return false;
        }
        let Some(h) = self.owner[s] else {
            self.taken[s] = true;
            return true;
        };
        let mut trial = self.clone();
        trial.owner[s] = None;
        trial.held[h as usize] -= 1;
        trial.taken[s] = true;
        let mut seen_g = vec![false; trial.eligible.len()];
        let mut seen_s = vec![false; trial.taken.len()];
        if trial.augment(h as usize, &mut seen_g, &mut seen_s) {
            *self = trial;
            return true;
        }
        false
    }

    /// Size of the current matching (for tests).
    #[cfg(test)]
    pub(crate) fn size(&self) -> u32 {
        self.held.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_maximum_matching_through_reroutes() {
        // g0 can use 0 or 1, g1 only 0: the maximum needs g0 on 1.
        let m = Matcher::new(vec![vec![0, 1], vec![0]], vec![1, 1], 2);
        assert_eq!(m.size(), 2);
        assert_eq!(m.owner, [Some(1), Some(0)]);
    }

    #[test]
    fn refuses_a_site_the_rest_needs() {
        let mut m = Matcher::new(vec![vec![0, 1], vec![0]], vec![1, 1], 2);
        m.open(0);
        assert!(!m.try_take(0), "g1 needs site 0");
        assert!(m.try_take(1));
        m.open(1);
        assert!(m.try_take(0));
    }

    #[test]
    fn capacities_count_openings() {
        let m = Matcher::new(vec![vec![0, 1, 2]], vec![2], 3);
        assert_eq!(m.size(), 2);
    }
}
