//! Ratings with error bars, computed from a journal beside the original scoring (which stays
//! the ranking): Elo with 95% intervals and a likelihood-of-superiority matrix for
//! head-to-head games, TrueSkill and bootstrap intervals of the mean score for games where
//! several bots score per game. Deterministic: the same journal gives the same figures,
//! whatever the order of its games.

mod bootstrap;
mod elo;
mod elo_model;
mod elo_sparse;
mod normal;
mod trueskill;

pub use elo::EXACT_LIMIT;

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Serialize;

use crate::journal::GameRecord;
use arena_games::Scoring;
use arena_games::engine::GameResult;

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

/// Every bot's rating, and for head-to-head games of up to [`EXACT_LIMIT`] bots the
/// likelihood of superiority of each bot over each other one (to 0.001).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ratings {
    /// By bot name.
    pub bots: BTreeMap<String, Rating>,
    /// By (bot, opponent): the likelihood that the bot is the stronger; empty for larger
    /// fields, where it would be `k²` figures.
    pub superiority: BTreeMap<(String, String), f64>,
}

/// What the ratings need of a tournament's games, gathered one game at a time in any order
/// (a journal is in completion order), so that rating a tournament never holds its records.
/// Head-to-head games keep only a win/draw/loss count per ordered pair of bots, Elo's whole
/// input. Games where every seat scores keep one compact row per game, because TrueSkill
/// must rate them in index order and the bootstrap resamples each bot's scores: the game's
/// index and where its seats lie (24 bytes), and 16 bytes per seat (bot and score).
#[derive(Debug, Clone)]
pub struct Rater {
    scoring: Scoring,
    /// Every bot by id: the header's names, then others in order of arrival.
    names: Vec<String>,
    /// Ids by name.
    ids: BTreeMap<String, usize>,
    /// Where each bot beyond the header's first sits in index order (game index, seat): the
    /// order in which those bots are numbered, as if the games came in index order.
    first_seen: Vec<(u64, usize)>,
    /// Head-to-head: wins, draws and losses of the first seat's bot against the second's,
    /// by their ids.
    pairs: BTreeMap<(usize, usize), [u32; 3]>,
    /// Scored games: each game's index and its seats' range in `seats`.
    games: Vec<(u64, Range<usize>)>,
    /// Scored games' seats: bot id and score.
    seats: Vec<(usize, i64)>,
}

impl Rater {
    /// Nothing rated yet; `names` (the journal header's bots) are numbered first.
    pub fn new(scoring: Scoring, names: &[String]) -> Rater {
        let mut rater = Rater {
            scoring,
            names: Vec::new(),
            ids: BTreeMap::new(),
            first_seen: Vec::new(),
            pairs: BTreeMap::new(),
            games: Vec::new(),
            seats: Vec::new(),
        };
        for name in names {
            if !rater.ids.contains_key(name) {
                rater.ids.insert(name.clone(), rater.names.len());
                rater.names.push(name.clone());
            }
        }
        rater
    }

    /// Takes one game into account; each game must come once.
    pub fn add(&mut self, game: &GameRecord) {
        let ids: Vec<usize> = game
            .seats
            .iter()
            .enumerate()
            .map(|(seat, record)| self.id(&record.bot, (game.index, seat)))
            .collect();
        match self.scoring {
            Scoring::Wins => {
                if let ([first, _], &[a, b]) = (game.seats.as_slice(), ids.as_slice()) {
                    let counts = self.pairs.entry((a, b)).or_default();
                    match first.result {
                        Some(GameResult::Win) => counts[0] += 1,
                        Some(GameResult::Draw) => counts[1] += 1,
                        Some(GameResult::Loss) => counts[2] += 1,
                        None => {}
                    }
                }
            }
            Scoring::Mean => {
                let start = self.seats.len();
                let scores = game.seats.iter().map(|seat| seat.score);
                self.seats.extend(ids.into_iter().zip(scores));
                self.games.push((game.index, start..self.seats.len()));
            }
        }
    }

    /// The id of bot `name`, numbering it if it is new; `at` is where it sits in this game.
    fn id(&mut self, name: &str, at: (u64, usize)) -> usize {
        if let Some(&id) = self.ids.get(name) {
            if let Some(first) = id
                .checked_sub(self.names.len() - self.first_seen.len())
                .map(|extra| &mut self.first_seen[extra])
            {
                *first = (*first).min(at);
            }
            return id;
        }
        let id = self.names.len();
        self.ids.insert(name.to_owned(), id);
        self.names.push(name.to_owned());
        self.first_seen.push(at);
        id
    }

    /// Every bot's rating; `seed` (the tournament's) keys the bootstrap.
    pub fn finish(mut self, seed: u64) -> Ratings {
        // Number the bots as if the games had come in index order: the header's, then the
        // others by where they first sit.
        let header = self.names.len() - self.first_seen.len();
        let mut extras: Vec<usize> = (header..self.names.len()).collect();
        extras.sort_by_key(|&id| self.first_seen[id - header]);
        let order: Vec<usize> = (0..header).chain(extras).collect();
        let mut slot = vec![0; order.len()];
        for (position, &id) in order.iter().enumerate() {
            slot[id] = position;
        }
        let names: Vec<&str> = order.iter().map(|&id| self.names[id].as_str()).collect();
        match self.scoring {
            Scoring::Wins => {
                let mut results = elo::Results::new(names.len());
                for (&(a, b), &[wins, draws, losses]) in &self.pairs {
                    let (a, b) = (slot[a], slot[b]);
                    for (count, points) in [(wins, 1.0), (draws, 0.5), (losses, 0.0)] {
                        for _ in 0..count {
                            results.add(a, b, points);
                        }
                    }
                }
                elo_ratings(&names, &results.fit())
            }
            Scoring::Mean => {
                self.games.sort_by_key(|(index, _)| *index);
                let mut ladder = trueskill::Ladder::new(names.len());
                let mut scores: Vec<Vec<i64>> = vec![Vec::new(); names.len()];
                for (_, range) in &self.games {
                    let seats: Vec<(usize, i64)> = self.seats[range.clone()]
                        .iter()
                        .map(|&(id, score)| (slot[id], score))
                        .collect();
                    for &(bot, score) in &seats {
                        scores[bot].push(score);
                    }
                    ladder.add_game(&seats);
                }
                skill_ratings(&names, &scores, &ladder, seed)
            }
        }
    }
}

/// Elo ratings and, if the fit has it, the superiority matrix of `names`.
fn elo_ratings(names: &[&str], fit: &elo_model::Fit) -> Ratings {
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
    // Empty beyond `EXACT_LIMIT` bots, where the fit has no superiority.
    let superiority = fit
        .superiority
        .iter()
        .enumerate()
        .flat_map(|(a, row)| {
            row.iter()
                .enumerate()
                .filter(move |&(b, _)| b != a)
                .map(move |(b, &los)| ((names[a].to_string(), names[b].to_string()), round(los, 3)))
        })
        .collect();
    Ratings { bots, superiority }
}

/// Bootstrap intervals of the mean score and TrueSkill ratings of `names`, from each bot's
/// scores in game order and the ladder that rated the games.
fn skill_ratings(
    names: &[&str],
    scores: &[Vec<i64>],
    ladder: &trueskill::Ladder,
    seed: u64,
) -> Ratings {
    let bots = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (low, high) =
                bootstrap::mean_interval(&scores[i], seed, name).unwrap_or((0.0, 0.0));
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

/// `x` rounded to `decimals` places, so printed figures and golden files are stable.
fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    let rounded = (x * scale).round() / scale;
    // No "-0.0" in the output.
    rounded + 0.0
}
