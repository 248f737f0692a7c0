//! The leaderboard of a tournament, computed from its journal exactly like the original
//! challenge's scoring.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::GameResult;
use crate::games::{Format, GameKind};
use crate::journal::Journal;

/// Version of the JSON leaderboard document; bumped when a field changes meaning.
pub const LEADERBOARD_FORMAT_VERSION: u32 = 1;

/// A tournament's standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leaderboard {
    /// [`LEADERBOARD_FORMAT_VERSION`].
    pub format_version: u32,
    /// The game's name.
    pub game: String,
    /// The master seed.
    pub seed: u64,
    /// Games finished.
    pub games_played: u64,
    /// Games in the whole tournament.
    pub total_games: u64,
    /// The entries, best first.
    pub leaderboard: Vec<Standing>,
    /// Head-to-head results for every ordered pair of bots (head-to-head games only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pairwise: Vec<PairRecord>,
}

/// One bot's line on the leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// 1-based rank; bots with equal scores share a rank.
    pub rank: usize,
    /// The bot's name.
    pub name: String,
    /// The ranking score (Petri: total wins).
    pub score: f64,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Requests sent to the bot.
    pub requests: u64,
    /// Requests without a reply in time.
    pub timeouts: u64,
    /// Processes that failed to start or ended abnormally.
    pub crashes: u64,
    /// Replies the game rejected.
    pub invalid_replies: u64,
}

/// One bot's results against one opponent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairRecord {
    /// The bot.
    pub bot: String,
    /// The opponent.
    pub opponent: String,
    /// Games the bot won against the opponent.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the bot lost.
    pub losses: u32,
}

impl Leaderboard {
    /// Computes the standings of `journal` for `kind`. Unknown bot names in game records
    /// (a journal edited by hand) are counted under their own names.
    pub fn compute(kind: GameKind, journal: &Journal) -> Leaderboard {
        let header = &journal.header;
        // Each bot's standing and the sum of its per-game scores.
        let mut standings: BTreeMap<&str, (Standing, i64)> = header
            .bots
            .iter()
            .map(|name| (name.as_str(), (Standing::empty(name), 0)))
            .collect();
        let mut pairs: BTreeMap<(&str, &str), PairRecord> = BTreeMap::new();
        for game in &journal.games {
            for seat in &game.seats {
                let (standing, total) = standings
                    .entry(seat.bot.as_str())
                    .or_insert_with(|| (Standing::empty(&seat.bot), 0));
                standing.games += 1;
                *total += seat.score;
                standing.requests += u64::from(seat.requests);
                standing.timeouts += u64::from(seat.timeouts);
                standing.crashes += u64::from(seat.crashes);
                standing.invalid_replies += u64::from(seat.invalid_replies);
                count_result(
                    seat.result,
                    &mut standing.wins,
                    &mut standing.draws,
                    &mut standing.losses,
                );
            }
            if kind.format() == Format::HeadToHead {
                for (seat, other) in game.seats.iter().zip(game.seats.iter().rev()) {
                    let pair = pairs
                        .entry((seat.bot.as_str(), other.bot.as_str()))
                        .or_insert_with(|| PairRecord {
                            bot: seat.bot.clone(),
                            opponent: other.bot.clone(),
                            wins: 0,
                            draws: 0,
                            losses: 0,
                        });
                    count_result(
                        seat.result,
                        &mut pair.wins,
                        &mut pair.draws,
                        &mut pair.losses,
                    );
                }
            }
        }
        let scoring = kind.scoring();
        let mut leaderboard: Vec<Standing> = standings
            .into_values()
            .map(|(standing, total)| Standing {
                score: scoring.ranking_score(total),
                ..standing
            })
            .collect();
        leaderboard.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.name.cmp(&b.name))
        });
        let scores: Vec<f64> = leaderboard.iter().map(|s| s.score).collect();
        for standing in &mut leaderboard {
            standing.rank = 1 + scores.iter().filter(|&&s| s > standing.score).count();
        }
        Leaderboard {
            format_version: LEADERBOARD_FORMAT_VERSION,
            game: header.game.clone(),
            seed: header.seed,
            games_played: journal.games.len() as u64,
            total_games: header.total_games,
            leaderboard,
            pairwise: pairs.into_values().collect(),
        }
    }
}

impl Standing {
    fn empty(name: &str) -> Standing {
        Standing {
            rank: 0,
            name: name.to_owned(),
            score: 0.0,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            requests: 0,
            timeouts: 0,
            crashes: 0,
            invalid_replies: 0,
        }
    }
}

fn count_result(result: Option<GameResult>, wins: &mut u32, draws: &mut u32, losses: &mut u32) {
    match result {
        Some(GameResult::Win) => *wins += 1,
        Some(GameResult::Draw) => *draws += 1,
        Some(GameResult::Loss) => *losses += 1,
        None => {}
    }
}
