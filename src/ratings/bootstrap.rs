//! Bootstrap intervals of a bot's mean score: how far the mean could move if the same bot
//! played another tournament of the same length.
//!
//! The bot's per-game scores (in game order) are resampled with replacement [`RESAMPLES`]
//! times; the interval runs from the 2.5th to the 97.5th percentile of the resampled means.
//! The random stream is ChaCha12 keyed by the tournament's seed and the bot's name, so the
//! same journal always gives the same interval, whatever other bots it holds.

use rand_chacha::ChaCha12Rng;
use rand_chacha::rand_core::SeedableRng;

/// Resampled means per interval.
pub(crate) const RESAMPLES: usize = 2000;

/// The 95% percentile interval of the mean of `scores`, `None` without scores.
pub(crate) fn mean_interval(scores: &[i64], seed: u64, name: &str) -> Option<(f64, f64)> {
    if scores.is_empty() {
        return None;
    }
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&crate::fnv::fnv1a(name.as_bytes()).to_le_bytes());
    let mut rng = ChaCha12Rng::from_seed(key);
    let n = scores.len();
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            // As `i128`: an `i64` sum of large scores would wrap.
            let total: i128 = (0..n)
                .map(|_| i128::from(scores[arena_games::seeded::below(&mut rng, n)]))
                .sum();
            total as f64 / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let cut = RESAMPLES * 25 / 1000;
    Some((means[cut], means[RESAMPLES - 1 - cut]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_score_has_a_point_interval() {
        assert_eq!(mean_interval(&[7, 7, 7], 1, "a"), Some((7.0, 7.0)));
        assert_eq!(mean_interval(&[], 1, "a"), None);
    }

    #[test]
    fn the_interval_covers_the_mean_with_the_normal_width() {
        // 200 games scoring 0 or 10 equally often: mean 5, standard error 5/√200 = 0.354,
        // so the interval is about 5 ± 1.96 * 0.354 = [4.31, 5.69].
        let scores: Vec<i64> = (0..200).map(|i| if i % 2 == 0 { 0 } else { 10 }).collect();
        let (low, high) = mean_interval(&scores, 9, "bot").unwrap();
        assert!(
            (low - 4.31).abs() < 0.1 && (high - 5.69).abs() < 0.1,
            "{low} {high}"
        );
    }

    #[test]
    fn the_interval_depends_only_on_the_seed_the_name_and_the_scores() {
        let scores = [1, 5, 2, 8, 3, 0, 9];
        let once = mean_interval(&scores, 4, "x");
        assert_eq!(once, mean_interval(&scores, 4, "x"));
        assert_ne!(once, mean_interval(&scores, 5, "x"));
        assert_ne!(once, mean_interval(&scores, 4, "y"));
    }
}
