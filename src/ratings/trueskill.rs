//! TrueSkill ratings of multi-player games (Herbrich, Minka and Graepel 2006), computed by
//! the `skillratings` crate from each game's ranking: seats ordered by their score in that
//! game, equal scores tied. Games are rated in the order of their index, so the same journal
//! gives the same ratings however the games were scheduled. Defaults are TrueSkill's: every
//! bot starts at μ = 25, σ = 25/3, with β = 25/6, τ = 25/300 and a 10% draw probability.

use std::collections::BTreeSet;

use skillratings::MultiTeamOutcome;
use skillratings::trueskill::{TrueSkillConfig, TrueSkillRating, trueskill_multi_team};

/// Sequential TrueSkill ratings of `bots` players by index.
#[derive(Debug, Clone)]
pub(crate) struct Ladder {
    ratings: Vec<TrueSkillRating>,
    config: TrueSkillConfig,
}

impl Ladder {
    /// Every one of `bots` players at the default rating.
    pub(crate) fn new(bots: usize) -> Ladder {
        Ladder {
            ratings: vec![TrueSkillRating::new(); bots],
            config: TrueSkillConfig::new(),
        }
    }

    /// Rates one game: `seats` lists each seat's bot index and score. A bot that holds
    /// several seats of one game is rated only by its first. Costs `n log n` for `n` seats,
    /// since free-for-all games seat the whole field.
    pub(crate) fn add_game(&mut self, seats: &[(usize, i64)]) {
        let mut seen = BTreeSet::new();
        let seats: Vec<(usize, i64)> = seats
            .iter()
            .copied()
            .filter(|&(bot, _)| seen.insert(bot))
            .collect();
        if seats.len() < 2 {
            return;
        }
        let mut descending: Vec<i64> = seats.iter().map(|&(_, score)| score).collect();
        descending.sort_unstable_by(|a, b| b.cmp(a));
        let teams: Vec<[TrueSkillRating; 1]> =
            seats.iter().map(|&(bot, _)| [self.ratings[bot]]).collect();
        let ranked: Vec<(&[TrueSkillRating], MultiTeamOutcome)> = seats
            .iter()
            .zip(&teams)
            .map(|(&(_, score), team)| {
                let better = descending.partition_point(|&other| other > score);
                (&team[..], MultiTeamOutcome::new(better + 1))
            })
            .collect();
        let rated = trueskill_multi_team(&ranked, &self.config, None)
            .expect("no weights, so no weight error");
        for (&(bot, _), team) in seats.iter().zip(rated) {
            self.ratings[bot] = team[0];
        }
    }

    /// A player's mean skill μ and its uncertainty σ.
    pub(crate) fn rating(&self, bot: usize) -> (f64, f64) {
        let rating = self.ratings[bot];
        (rating.rating, rating.uncertainty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: (f64, f64), expected: (f64, f64)) {
        assert!(
            (actual.0 - expected.0).abs() < 5e-4 && (actual.1 - expected.1).abs() < 5e-4,
            "{actual:?} is not {expected:?}"
        );
    }

    // Published values: the `trueskill` Python package's documentation rates two new
    // players once: a win gives (29.396, 7.171) and (20.604, 7.171), a draw (25.000, 6.458)
    // to both.
    #[test]
    fn one_game_between_new_players_matches_the_published_values() {
        let mut ladder = Ladder::new(2);
        ladder.add_game(&[(0, 3), (1, 1)]);
        close(ladder.rating(0), (29.396, 7.171));
        close(ladder.rating(1), (20.604, 7.171));

        let mut ladder = Ladder::new(2);
        ladder.add_game(&[(1, 4), (0, 4)]);
        close(ladder.rating(0), (25.0, 6.458));
        close(ladder.rating(1), (25.0, 6.458));
    }

    #[test]
    fn a_free_for_all_orders_by_score_and_ties_share_a_place() {
        let mut ladder = Ladder::new(4);
        ladder.add_game(&[(0, 10), (1, 30), (2, 20), (3, 20)]);
        let mu: Vec<f64> = (0..4).map(|bot| ladder.rating(bot).0).collect();
        assert!(mu[1] > mu[2] && mu[2] > mu[0], "{mu:?}");
        // Tied seats come out nearly equal (the factor graph's approximation is not exactly
        // symmetric in them).
        assert!((mu[2] - mu[3]).abs() < 0.05, "{mu:?}");
        // Equal priors: what the winners gain the losers lose.
        assert!((mu.iter().sum::<f64>() - 100.0).abs() < 1e-6, "{mu:?}");
    }

    #[test]
    fn a_game_with_one_distinct_bot_changes_nothing() {
        let mut ladder = Ladder::new(2);
        ladder.add_game(&[(0, 5), (0, 1)]);
        close(ladder.rating(0), (25.0, 25.0 / 3.0));
    }
}
