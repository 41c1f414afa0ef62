//! The one place path-discovery thresholds are decided. The spawner and the
//! statistics both call these functions, so a change of formula can never
//! leave the statistics describing an older game.

/// `required_progress` for each of a location's `paths` paths, in the
/// order they are discovered: evenly spaced from 0, the k-th of n at
/// `progress_max · (k − 1) / n`.
///
/// Why from 0: the first explore anywhere always finds a way on, so no
/// place (a dead end with one path, the start site) strands the explorer
/// for several fruitless explores; playing it with thresholds ending at
/// 100% felt like a grind at every new place. Every path is known by
/// `(n − 1) / n` of the maximum, so a fully explored place (100%) has
/// certainly shown all of them.
pub fn path_required_progresses(paths: usize, progress_max: f64) -> Vec<f64> {
    (0..paths)
        .map(|k| progress_max * k as f64 / paths as f64)
        .collect()
}

/// `required_progress` of every sea route (both directions): the first
/// search of either end finds it (the harbour master points out the
/// boats), whatever the place's land paths need.
pub const SEA_ROUTE_REQUIRED_PROGRESS: f64 = 0.0;

/// Progress after one explore action: `progress + step`, capped at `max`.
pub fn explore_step(progress: f64, step: f64, max: f64) -> f64 {
    (progress + step).min(max)
}

/// Explore actions needed, from `start`, until a path of `threshold` is
/// discovered: at least one, since paths are only revealed by exploring.
pub fn explores_until(start: f64, threshold: f64, step: f64, max: f64) -> u32 {
    let (mut p, mut n) = (explore_step(start, step, max), 1);
    while p < threshold && p < max {
        p = explore_step(p, step, max);
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_even_and_end_at_the_max() {
        assert_eq!(path_required_progresses(4, 100.0), [0.0, 25.0, 50.0, 75.0]);
        assert_eq!(path_required_progresses(1, 100.0), [0.0]);
        assert!(
            path_required_progresses(3, 100.0)
                .iter()
                .all(|&t| t < 100.0)
        );
        assert!(path_required_progresses(0, 100.0).is_empty());
    }

    #[test]
    fn explores_count_steps_to_a_threshold() {
        assert_eq!(explores_until(0.0, 100.0, 20.0, 100.0), 5);
        assert_eq!(explores_until(0.0, 33.3, 20.0, 100.0), 2);
        assert_eq!(explores_until(0.0, 0.0, 20.0, 100.0), 1);
        assert_eq!(explores_until(0.0, 100.0, 30.0, 100.0), 4);
    }
}
