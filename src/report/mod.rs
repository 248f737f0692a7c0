//! Leaderboards: computed once from a journal (pure), rendered in several formats.

mod csv;
mod json;
mod leaderboard;
mod markdown;
mod page;
mod table;

pub use csv::render_csv;
pub use json::render_json;
pub(crate) use leaderboard::BotTotals;
pub use leaderboard::{Leaderboard, LeaderboardBuilder, PairRecord, ShardGames, Standing};
pub use markdown::render_markdown;
pub use page::write_page;
pub use table::render_table;

/// Small leaderboards for the renderers' tests.
#[cfg(test)]
mod fixtures {
    use super::{Leaderboard, PairRecord, Standing};
    use crate::ratings::{EloRating, Rating, SkillRating};

    /// A standing with 2 games, 9 requests and 1 crash; results and range unset.
    pub(super) fn standing(rank: usize, name: &str, score: f64) -> Standing {
        Standing {
            rank,
            name: name.into(),
            score,
            games: 2,
            wins: None,
            draws: None,
            losses: None,
            min: None,
            max: None,
            requests: 9,
            timeouts: 0,
            crashes: 1,
            invalid_replies: 0,
            invalid_reasons: std::collections::BTreeMap::new(),
            games_with_a_crash: 1,
            games_with_an_ending_failure: 1,
            games_asked: 2,
            built_in: false,
            stats: std::collections::BTreeMap::new(),
            rating: None,
        }
    }

    pub(super) fn board(leaderboard: Vec<Standing>, pairwise: Vec<PairRecord>) -> Leaderboard {
        Leaderboard {
            format_version: 1,
            game: "test".into(),
            seed: 7,
            games_played: 2,
            total_games: 2,
            shard: None,
            sandbox: None,
            leaderboard,
            pairwise,
            sprt: None,
            stat_columns: Vec::new(),
        }
    }

    /// An Elo rating of `elo` with a 95% interval of ± `margin`.
    pub(super) fn elo(elo: f64, margin: f64) -> Option<Rating> {
        Some(Rating::Elo(EloRating {
            elo,
            elo_low: elo - margin,
            elo_high: elo + margin,
        }))
    }

    /// Two bots of a head-to-head game: alpha beat b twice.
    pub(super) fn head_to_head() -> Leaderboard {
        let mut a = standing(1, "alpha", 2.0);
        let mut b = standing(2, "b, the second", 0.0);
        (a.wins, a.draws, a.losses) = (Some(2), Some(0), Some(0));
        (b.wins, b.draws, b.losses) = (Some(0), Some(0), Some(2));
        a.rating = elo(120.5, 200.0);
        b.rating = elo(-120.5, 200.0);
        board(vec![a, b], Vec::new())
    }

    /// One bot of a mean-scored game.
    pub(super) fn mean_scored() -> Leaderboard {
        let mut a = standing(1, "a", 12.5);
        (a.min, a.max) = (Some(10), Some(15));
        a.rating = Some(Rating::Skill(SkillRating {
            score_low: 10.0,
            score_high: 15.0,
            trueskill_mu: 27.125,
            trueskill_sigma: 6.5,
        }));
        board(vec![a], Vec::new())
    }
}
