//! Ratings with error bars, computed from a journal beside the original scoring (which stays
//! the ranking): Elo with 95% intervals and a likelihood-of-superiority matrix for
//! head-to-head games, TrueSkill and bootstrap intervals of the mean score for games where
//! several bots score per game. Deterministic: the same journal gives the same figures.

mod bootstrap;
mod elo;
mod normal;
mod trueskill;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::GameResult;
use crate::games::Scoring;
use crate::journal::Journal;

/// A bot's rating figures; serialized flat into its leaderboard entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Rating {
    /// Head-to-head games.
    Elo(EloRating),
    /// Games where every seat scores.
    Skill(SkillRating),
}

/// Elo from maximum likelihood, mean 0 over the bots, with its 95% interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EloRating {
    /// The rating, to 0.1.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub elo_low: f64,
    /// Upper end of the 95% interval.
    pub elo_high: f64,
}

/// A bootstrap interval of the mean score and a TrueSkill rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillRating {
    /// Lower end of the 95% bootstrap interval of the mean score, to 0.001.
    pub score_low: f64,
    /// Upper end of that interval.
    pub score_high: f64,
    /// TrueSkill's skill estimate μ, to 0.001.
    pub trueskill_mu: f64,
    /// TrueSkill's uncertainty σ, to 0.001.
    pub trueskill_sigma: f64,
}

/// Every bot's rating, and for head-to-head games the likelihood of superiority of each bot
/// over each other one (to 0.001).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ratings {
    /// By bot name.
    pub bots: BTreeMap<String, Rating>,
    /// By (bot, opponent): the likelihood that the bot is the stronger.
    pub superiority: BTreeMap<(String, String), f64>,
}

/// Rates the bots named in `names` (and any other in the journal's games) from `journal`.
pub fn rate(scoring: Scoring, journal: &Journal, names: &[String]) -> Ratings {
    let mut names: Vec<&str> = names.iter().map(String::as_str).collect();
    for seat in journal.games.iter().flat_map(|game| &game.seats) {
        if !names.contains(&seat.bot.as_str()) {
            names.push(&seat.bot);
        }
    }
    let index = |name: &str| {
        names
            .iter()
            .position(|n| *n == name)
            .expect("every name was collected")
    };
    match scoring {
        Scoring::Wins => {
            let mut results = elo::Results::new(names.len());
            for game in &journal.games {
                if let [first, second] = game.seats.as_slice() {
                    let points = match first.result {
                        Some(GameResult::Win) => 1.0,
                        Some(GameResult::Draw) => 0.5,
                        Some(GameResult::Loss) => 0.0,
                        None => continue,
                    };
                    results.add(index(&first.bot), index(&second.bot), points);
                }
            }
            let fit = results.fit();
            let bots = names
                .iter()
                .enumerate()
                .map(|(i, name)| {
                    let rating = EloRating {
                        elo: round(fit.elo[i], 1),
                        elo_low: round(fit.elo[i] - fit.margin[i], 1),
                        elo_high: round(fit.elo[i] + fit.margin[i], 1),
                    };
                    (name.to_string(), Rating::Elo(rating))
                })
                .collect();
            let superiority = names
                .iter()
                .enumerate()
                .flat_map(|(a, bot)| {
                    let fit = &fit;
                    names.iter().enumerate().filter(move |&(b, _)| b != a).map(
                        move |(b, opponent)| {
                            let key = (bot.to_string(), opponent.to_string());
                            (key, round(fit.superiority[a][b], 3))
                        },
                    )
                })
                .collect();
            Ratings { bots, superiority }
        }
        Scoring::Mean => {
            let mut ladder = trueskill::Ladder::new(names.len());
            let mut scores: Vec<Vec<i64>> = vec![Vec::new(); names.len()];
            for game in &journal.games {
                let seats: Vec<(usize, i64)> = game
                    .seats
                    .iter()
                    .map(|seat| (index(&seat.bot), seat.score))
                    .collect();
                for &(bot, score) in &seats {
                    scores[bot].push(score);
                }
                ladder.add_game(&seats);
            }
            let bots = names
                .iter()
                .enumerate()
                .map(|(i, name)| {
                    let (low, high) =
                        bootstrap::mean_interval(&scores[i], journal.header.seed, name)
                            .unwrap_or((0.0, 0.0));
                    let (mu, sigma) = ladder.rating(i);
                    let rating = SkillRating {
                        score_low: round(low, 3),
                        score_high: round(high, 3),
                        trueskill_mu: round(mu, 3),
                        trueskill_sigma: round(sigma, 3),
                    };
                    (name.to_string(), Rating::Skill(rating))
                })
                .collect();
            Ratings {
                bots,
                superiority: BTreeMap::new(),
            }
        }
    }
}

/// `x` rounded to `decimals` places, so printed figures and golden files are stable.
fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    let rounded = (x * scale).round() / scale;
    // No "-0.0" in the output.
    rounded + 0.0
}
