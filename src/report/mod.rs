//! Leaderboards: computed once from a journal (pure), rendered in several formats.

mod csv;
mod json;
mod leaderboard;
mod markdown;
mod table;

pub use csv::render_csv;
pub use json::render_json;
pub(crate) use leaderboard::Tally;
pub use leaderboard::{Leaderboard, PairRecord, Standing};
pub use markdown::render_markdown;
pub use table::render_table;

/// Small leaderboards for the renderers' tests.
#[cfg(test)]
mod fixtures {
    use super::{Leaderboard, PairRecord, Standing};

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
            stats: std::collections::BTreeMap::new(),
        }
    }

    pub(super) fn board(leaderboard: Vec<Standing>, pairwise: Vec<PairRecord>) -> Leaderboard {
        Leaderboard {
            format_version: 1,
            game: "test".into(),
            seed: 7,
            games_played: 2,
            total_games: 2,
            leaderboard,
            pairwise,
            stat_columns: Vec::new(),
        }
    }

    /// Two bots of a head-to-head game: alpha beat b twice.
    pub(super) fn head_to_head() -> Leaderboard {
        let mut a = standing(1, "alpha", 2.0);
        let mut b = standing(2, "b, the second", 0.0);
        (a.wins, a.draws, a.losses) = (Some(2), Some(0), Some(0));
        (b.wins, b.draws, b.losses) = (Some(0), Some(0), Some(2));
        board(vec![a, b], Vec::new())
    }

    /// One bot of a mean-scored game.
    pub(super) fn mean_scored() -> Leaderboard {
        let mut a = standing(1, "a", 12.5);
        (a.min, a.max) = (Some(10), Some(15));
        board(vec![a], Vec::new())
    }
}
