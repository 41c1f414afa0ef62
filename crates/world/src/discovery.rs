//! The one place path-discovery thresholds are decided. The spawner and the
//! statistics both call these functions, so a change of formula can never
//! leave the statistics describing an older game.

/// `required_progress` for each of a location's `paths` paths, in the
/// order they are discovered: evenly spaced up to `progress_max`, the k-th
/// of n at `progress_max · k / n`, the last exactly at `progress_max` (so a
/// fully explored location has shown every path).
pub fn path_required_progresses(paths: usize, progress_max: f64) -> Vec<f64> {
    (1..=paths)
        .map(|k| if k == paths { progress_max } else { progress_max * k as f64 / paths as f64 })
        .collect()
}

/// Progress after one explore action: `progress + step`, capped at `max`.
pub fn explore_step(progress: f64, step: f64, max: f64) -> f64 {
    (progress + step).min(max)
}

/// Explore actions needed, from `start`, until `threshold` is reached.
pub fn explores_until(start: f64, threshold: f64, step: f64, max: f64) -> u32 {
    let (mut p, mut n) = (start, 0);
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
        assert_eq!(path_required_progresses(4, 100.0), [25.0, 50.0, 75.0, 100.0]);
        assert_eq!(path_required_progresses(3, 100.0)[2], 100.0);
        assert!(path_required_progresses(0, 100.0).is_empty());
    }

    #[test]
    fn explores_count_steps_to_a_threshold() {
        assert_eq!(explores_until(0.0, 100.0, 20.0, 100.0), 5);
        assert_eq!(explores_until(0.0, 33.3, 20.0, 100.0), 2);
        assert_eq!(explores_until(0.0, 0.0, 20.0, 100.0), 0);
        assert_eq!(explores_until(0.0, 100.0, 30.0, 100.0), 4);
    }
}
