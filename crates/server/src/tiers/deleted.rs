//! The planets deleted lately on this replica, remembered so that a
//! request that read a planet just before its deletion does not start its
//! tier again (`Tiers::forget_planet`).

use std::collections::{BTreeSet, VecDeque};

/// Deleted planet ids remembered: ids are never reused, and a request
/// that read a planet is seconds old at most, so the latest few thousand
/// cover every race.
const REMEMBERED: usize = 4096;

/// The latest [`REMEMBERED`] deleted planet ids.
#[derive(Debug, Default)]
pub(super) struct Deleted {
    /// Oldest first.
    order: VecDeque<i64>,
    set: BTreeSet<i64>,
}

impl Deleted {
    /// Remembers `id`, forgetting the oldest beyond [`REMEMBERED`].
    pub(super) fn insert(&mut self, id: i64) {
        if self.set.insert(id) {
            self.order.push_back(id);
            if self.order.len() > REMEMBERED
                && let Some(oldest) = self.order.pop_front()
            {
                self.set.remove(&oldest);
            }
        }
    }

    /// Whether `id` was deleted lately.
    pub(super) fn contains(&self, id: i64) -> bool {
        self.set.contains(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_are_remembered_and_the_oldest_forgotten() {
        let mut d = Deleted::default();
        for id in 0..REMEMBERED as i64 + 10 {
            d.insert(id);
            d.insert(id);
        }
        assert!(!d.contains(9) && d.contains(10));
        assert!(d.contains(REMEMBERED as i64 + 9));
        assert_eq!((d.order.len(), d.set.len()), (REMEMBERED, REMEMBERED));
    }
}
