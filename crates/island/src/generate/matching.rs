//! Guarantees as a bipartite matching: openings (a guarantee's `count`
//! copies) on one side, sites on the other, an edge where the site satisfies
//! the type's hard limits. The guide's `maxAssignableCount` is the size of a
//! maximum matching, found by augmenting paths.
//!
//! Openings of one guarantee are interchangeable, so a guarantee is one node
//! with a capacity (a b-matching): an augmenting path then visits each
//! guarantee at most once.
//!
//! Why the decisions depend on the graph only (issue 38 replaced a matcher
//! that cloned itself per candidate site; its choices must not move). The
//! matching kept here is always maximum for the undecided openings and the
//! untaken sites. Taking `s` for the opening being decided is allowed iff
//! the maximum size does not drop without `s`. If `s` is unmatched that is
//! plainly so. If guarantee `h` holds `s`, the matching less `(h, s)` has
//! one deficit, and by Berge a larger matching without `s` exists iff an
//! augmenting path does; one that started anywhere but `h` (and avoids
//! `s`) would already augment the full matching, which is maximum, so only
//! `h` can start it: the test is "can `h` reach a free site by an
//! alternating path", a property of the graph and the deficit, not of
//! which maximum matching we happen to hold (nor of the capacities, which
//! the search never reads). So any maximum matching, any search order and
//! any choice of which site a shrinking guarantee lets go give the same
//! decisions; the property test below checks this against the previous
//! matcher and a brute force.
//!
//! Costs. A search is an iterative depth-first search (no recursion, so no
//! stack overflow however many guarantees) over the residual graph with
//! epoch-stamped visited marks. A failed search changes nothing, so the
//! nodes it visited stay known dead until the matching or the taken set
//! changes (the epoch moves only then): all refusals of one opening cost
//! one search between them. Sites taken for good are skipped by a
//! per-guarantee prefix. An opening costs O(guarantees + edges) at worst
//! (at most one augmentation in the repair, one shared failed search and
//! one successful one in the decision), typically O(eligible sites of its
//! guarantee): one guarantee for n − 1 of n sites costs about n²/2 edge
//! steps in all (the previous matcher: O(n) per refused site, O(n³)).

/// No guarantee holds the site.
const FREE: u32 = u32::MAX;

/// A maximum b-matching kept up to date while openings are decided.
#[derive(Debug)]
pub(crate) struct Matcher {
    /// Eligible sites per guarantee, in that guarantee's order.
    eligible: Vec<Vec<u32>>,
    /// Openings still undecided, per guarantee.
    cap: Vec<u32>,
    /// Sites already fixed to a decided opening (never unset).
    taken: Vec<bool>,
    /// The guarantee holding each site in the matching, or [`FREE`].
    owner: Vec<u32>,
    /// Sites held per guarantee.
    held: Vec<u32>,
    /// Per guarantee, a prefix of `eligible` that is all taken.
    skip: Vec<usize>,
    /// Visited marks: a node is visited iff its mark equals `epoch`.
    seen_g: Vec<u32>,
    seen_s: Vec<u32>,
    epoch: u32,
    /// The search's path: guarantees with their next position in
    /// `eligible`, and the site through which each but the root was entered.
    stack: Vec<(u32, usize)>,
    via: Vec<u32>,
    /// Edges examined so far (the complexity tests count these).
    work: u64,
}

impl Matcher {
    /// A maximum matching of `caps[g]` openings per guarantee onto `n` sites.
    pub(crate) fn new(eligible: Vec<Vec<u32>>, caps: Vec<u32>, n: usize) -> Self {
        let g = eligible.len();
        let mut m = Matcher {
            eligible,
            cap: caps,
            taken: vec![false; n],
            owner: vec![FREE; n],
            held: vec![0; g],
            skip: vec![0; g],
            seen_g: vec![0; g],
            seen_s: vec![0; n],
            epoch: 1,
            stack: Vec::new(),
            via: Vec::new(),
            work: 0,
        };
        // A greedy start (free sites in order) saves most of the searches.
        for g in 0..m.eligible.len() {
            for &s in &m.eligible[g] {
                if m.held[g] >= m.cap[g] {
                    break;
                }
                if m.owner[s as usize] == FREE {
                    m.owner[s as usize] = g as u32;
                    m.held[g] += 1;
                }
            }
            m.work += m.eligible[g].len() as u64;
        }
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
        self.changed();
    }

    /// The matching or the taken set changed: earlier dead marks may lie.
    fn changed(&mut self) {
        if self.epoch == u32::MAX {
            self.seen_g.fill(0);
            self.seen_s.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    /// Augments until no guarantee with spare openings can grow. Failed
    /// searches share their marks (nothing changed in between).
    fn fill(&mut self) {
        for g in 0..self.eligible.len() {
            while self.held[g] < self.cap[g] && self.search(g) {
                self.held[g] += 1;
            }
        }
    }

    /// Advances guarantee `g`'s taken prefix and returns its end.
    fn untaken_from(&mut self, g: usize) -> usize {
        let list = &self.eligible[g];
        let mut i = self.skip[g];
        while i < list.len() && self.taken[list[i] as usize] {
            i += 1;
        }
        self.work += (i - self.skip[g]) as u64;
        self.skip[g] = i;
        i
    }

    /// Looks for an alternating path from guarantee `root` to a free site;
    /// if found, shifts every site on it one step towards the root, so the
    /// root holds one site more (the caller fixes `held[root]`) and every
    /// other guarantee on it as many as before. Iterative depth-first.
    fn search(&mut self, root: usize) -> bool {
        let epoch = self.epoch;
        if self.seen_g[root] == epoch {
            return false;
        }
        self.seen_g[root] = epoch;
        self.stack.clear();
        self.via.clear();
        let start = self.untaken_from(root);
        self.stack.push((root as u32, start));
        while let Some(&(g, pos)) = self.stack.last() {
            let list = &self.eligible[g as usize];
            let mut i = pos;
            // Some((site, its holder)): go deeper, or found a free site.
            let mut next = None;
            while i < list.len() {
                let s = list[i] as usize;
                i += 1;
                if self.taken[s] || self.seen_s[s] == epoch || self.owner[s] == g {
                    continue;
                }
                self.seen_s[s] = epoch;
                let h = self.owner[s];
                if h == FREE || self.seen_g[h as usize] != epoch {
                    next = Some((s as u32, h));
                    break;
                }
            }
            self.work += (i - pos) as u64;
            let top = self.stack.len() - 1;
            self.stack[top].1 = i;
            match next {
                Some((s, FREE)) => {
                    self.shift(s);
                    return true;
                }
                Some((s, h)) => {
                    self.seen_g[h as usize] = epoch;
                    self.via.push(s);
                    let start = self.untaken_from(h as usize);
                    self.stack.push((h, start));
                }
                None => {
                    self.stack.pop();
                    self.via.pop();
                }
            }
        }
        false
    }

    /// Applies the path on the stack, ending at the free site `free`.
    fn shift(&mut self, free: u32) {
        let mut site = free;
        for k in (0..self.stack.len()).rev() {
            let g = self.stack[k].0;
            let given_up = if k > 0 { self.via[k - 1] } else { FREE };
            self.owner[site as usize] = g;
            site = given_up;
        }
        self.changed();
    }

    /// Starts deciding one opening of `g`: it leaves the pool of undecided
    /// openings, and the matching is repaired to stay maximum.
    pub(crate) fn open(&mut self, g: usize) {
        self.cap[g] -= 1;
        if self.held[g] > self.cap[g]
            && let Some(i) = self.eligible[g]
                .iter()
                .rposition(|&s| self.owner[s as usize] == g as u32)
        {
            let s = self.eligible[g][i] as usize;
            self.owner[s] = FREE;
            self.held[g] -= 1;
            self.changed();
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
        let h = self.owner[s];
        // The holder must find a replacement (see the module doc); its
        // search never uses `s`, which it holds.
        if h != FREE && !self.search(h as usize) {
            return false;
        }
        if h != FREE {
            // The search gave `h` one site more; `s` is the one it loses.
            self.owner[s] = FREE;
        }
        self.taken[s] = true;
        self.changed();
        true
    }

    /// Decides the opening being decided for guarantee `g` (after
    /// [`Matcher::open`]): the first of its eligible sites, in order, that
    /// [`Matcher::try_take`] accepts.
    pub(crate) fn take_first(&mut self, g: usize) -> Option<u32> {
        let from = self.untaken_from(g);
        for i in from..self.eligible[g].len() {
            let s = self.eligible[g][i];
            self.work += 1;
            if self.try_take(s) {
                return Some(s);
            }
        }
        None
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
    use proptest::prelude::*;

    fn owners(m: &Matcher) -> Vec<Option<u32>> {
        m.owner.iter().map(|&o| (o != FREE).then_some(o)).collect()
    }

    #[test]
    fn finds_a_maximum_matching_through_reroutes() {
        // g0 can use 0 or 1, g1 only 0: the maximum needs g0 on 1.
        let m = Matcher::new(vec![vec![0, 1], vec![0]], vec![1, 1], 2);
        assert_eq!(m.size(), 2);
        assert_eq!(owners(&m), [Some(1), Some(0)]);
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

    #[test]
    fn a_long_chain_of_guarantees_does_not_recurse() {
        // Guarantee i may use sites i and i + 1; greedy gives each site i,
        // so site n is free and reached from guarantee 0 only through
        // every guarantee in turn: paths 100,000 guarantees deep.
        let n = 100_000u32;
        let chain = || (0..n).map(|i| vec![i, i + 1]).collect::<Vec<_>>();
        // In the repair: a last guarantee wants site 0 only.
        let mut eligible = chain();
        eligible.push(vec![0]);
        let m = Matcher::new(eligible, vec![1; n as usize + 1], n as usize + 1);
        assert_eq!(m.size(), n + 1);
        assert_eq!((m.owner[0], m.owner[n as usize]), (n, n - 1));
        // In a take: site 0 leaves, everyone moves up one site.
        let mut m = Matcher::new(chain(), vec![1; n as usize], n as usize + 1);
        assert!(m.try_take(0));
        assert_eq!(m.size(), n);
        assert_eq!((m.owner[0], m.owner[n as usize]), (FREE, n - 1));
    }

    /// The matcher this one replaced (a clone and a recursive search per
    /// candidate), kept as the reference for the decisions.
    mod reference {
        #[derive(Clone)]
        pub(super) struct Old {
            eligible: Vec<Vec<u32>>,
            cap: Vec<u32>,
            taken: Vec<bool>,
            owner: Vec<Option<u32>>,
            held: Vec<u32>,
        }

        impl Old {
            pub(super) fn new(eligible: Vec<Vec<u32>>, caps: Vec<u32>, n: usize) -> Self {
                let g = eligible.len();
                let mut m = Old {
                    eligible,
                    cap: caps,
                    taken: vec![false; n],
                    owner: vec![None; n],
                    held: vec![0; g],
                };
                m.fill();
                m
            }

            pub(super) fn eligible(&self, g: usize) -> &[u32] {
                &self.eligible[g]
            }

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
                        Some(h) => {
                            !seen_g[h as usize] && self.reroute(h as usize, s, seen_g, seen_s)
                        }
                    };
                    if reroutable {
                        self.owner[s] = Some(g as u32);
                        self.held[g] += 1;
                        return true;
                    }
                }
                false
            }

            fn reroute(
                &mut self,
                h: usize,
                s: usize,
                seen_g: &mut [bool],
                seen_s: &mut [bool],
            ) -> bool {
                self.owner[s] = None;
                self.held[h] -= 1;
                if self.augment(h, seen_g, seen_s) {
                    return true;
                }
                self.owner[s] = Some(h as u32);
                self.held[h] += 1;
                false
            }

            pub(super) fn open(&mut self, g: usize) {
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

            pub(super) fn try_take(&mut self, site: u32) -> bool {
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
        }
    }

    /// The largest number of `caps` openings that fit on the sites not in
    /// `gone`, by trying every assignment (tiny instances only).
    fn brute_max(
        eligible: &[Vec<u32>],
        caps: &mut [u32],
        n: usize,
        gone: &[bool],
        s: usize,
    ) -> u32 {
        if s == n {
            return 0;
        }
        let mut best = brute_max(eligible, caps, n, gone, s + 1);
        if !gone[s] {
            for g in 0..eligible.len() {
                if caps[g] > 0 && eligible[g].contains(&(s as u32)) {
                    caps[g] -= 1;
                    best = best.max(1 + brute_max(eligible, caps, n, gone, s + 1));
                    caps[g] += 1;
                }
            }
        }
        best
    }

    /// Random guarantees: eligible sites as a shuffled subset, small counts.
    fn instance() -> impl Strategy<Value = (usize, Vec<Vec<u32>>, Vec<u32>)> {
        (0usize..8, 1usize..5).prop_flat_map(|(n, g)| {
            let one = (
                proptest::sample::subsequence((0..n as u32).collect::<Vec<_>>(), 0..=n)
                    .prop_shuffle(),
                1u32..4,
            );
            proptest::collection::vec(one, g).prop_map(move |gs| {
                let (eligible, caps) = gs.into_iter().unzip();
                (n, eligible, caps)
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Every opening gets the same site (or none) as from the previous
        /// matcher, and each decision is the guide's rule, checked by brute
        /// force: a site is taken iff the undecided openings still fit on
        /// as many sites without it, and the first such site is taken.
        #[test]
        fn decisions_match_the_previous_matcher_and_brute_force(
            (n, eligible, caps) in instance()
        ) {
            let mut new = Matcher::new(eligible.clone(), caps.clone(), n);
            let mut old = reference::Old::new(eligible.clone(), caps.clone(), n);
            let mut left = caps.clone();
            let mut gone = vec![false; n];
            prop_assert_eq!(new.size(), brute_max(&eligible, &mut left.clone(), n, &gone, 0));
            for g in 0..eligible.len() {
                for _ in 0..caps[g] {
                    new.open(g);
                    old.open(g);
                    left[g] -= 1;
                    let before = brute_max(&eligible, &mut left.clone(), n, &gone, 0);
                    prop_assert_eq!(new.size(), before);
                    let expected = eligible[g].iter().copied().find(|&s| {
                        !gone[s as usize] && {
                            gone[s as usize] = true;
                            let after = brute_max(&eligible, &mut left.clone(), n, &gone, 0);
                            gone[s as usize] = false;
                            after == before
                        }
                    });
                    let theirs = old.eligible(g).to_vec().into_iter().find(|&s| old.try_take(s));
                    let ours = new.take_first(g);
                    prop_assert_eq!(ours, theirs, "guarantee {} eligible {:?} caps {:?}", g, &eligible, &caps);
                    prop_assert_eq!(ours, expected);
                    if let Some(s) = ours {
                        gone[s as usize] = true;
                    }
                    prop_assert_eq!(new.size(), brute_max(&eligible, &mut left.clone(), n, &gone, 0));
                }
            }
        }
    }

    /// Decides every opening as `assign_guaranteed` does; returns the work.
    fn decide_all(eligible: Vec<Vec<u32>>, caps: Vec<u32>, n: usize) -> u64 {
        let mut m = Matcher::new(eligible, caps.clone(), n);
        for (g, &c) in caps.iter().enumerate() {
            for _ in 0..c {
                m.open(g);
                m.take_first(g);
            }
        }
        m.work
    }

    #[test]
    fn near_total_guarantees_cost_quadratic_work_at_most() {
        // Issue 38's hostile shapes, as edge counts rather than timings:
        // one guarantee for n − 1 of n sites, all admissible, or only two
        // thirds admissible (more openings than sites: every opening is
        // refused the sites the rest still need). The previous matcher did
        // O(n) work per refused candidate, so O(n³) in all.
        let all = |n: u32| decide_all(vec![(0..n).collect()], vec![n - 1], n as usize);
        let two_thirds = |n: u32| {
            let sites = (0..n).filter(|s| s % 3 != 0).collect();
            decide_all(vec![sites], vec![n - 1], n as usize)
        };
        for (name, f) in [("all", &all as &dyn Fn(u32) -> u64), ("2/3", &two_thirds)] {
            let (small, big) = (f(1_000), f(4_000));
            let per = |w: u64, n: u64| w as f64 / (n * n) as f64;
            assert!(
                per(big, 4_000) <= per(small, 1_000) * 1.1 && per(big, 4_000) < 1.0,
                "{name}: work {small} at 1k, {big} at 4k"
            );
        }
    }
}
