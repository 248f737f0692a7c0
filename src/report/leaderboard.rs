//! The leaderboard of a tournament, computed from its journal exactly like the original
//! challenge's scoring.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::journal::{GameRecord, Header, Journal, OVERSIZED_REASON, Sandboxing, SeatRecord};
use crate::ratings::{EXACT_LIMIT, Rater, Rating};
use crate::shard::Shard;
use crate::sprt::{SprtStatus, SprtTracker};
use arena_games::engine::GameResult;
use arena_games::{Aggregate, Scoring, StatColumn};

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
    /// The shard the journal plays (`arena run --shard`), with its share of `total_games`;
    /// absent for a whole run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardGames>,
    /// Whether the bots ran in sandboxes (from the journal; absent if it does not say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<Sandboxing>,
    /// The entries, best first.
    pub leaderboard: Vec<Standing>,
    /// Head-to-head results for every ordered pair of bots that met (head-to-head games of
    /// up to [`EXACT_LIMIT`] bots only: beyond, they are as many as the games, and the
    /// matrices the tables draw of them `k²` cells).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pairwise: Vec<PairRecord>,
    /// The early-stopping test of the run (`--sprt`), with its verdict if it was reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtStatus>,
    /// The game's extra columns, in display order (each standing's `stats` has their values).
    #[serde(skip)]
    pub stat_columns: Vec<StatColumn>,
}

/// A shard of the tournament and how many of its games are the shard's: a shard is finished
/// when those are played, not the whole tournament's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ShardGames {
    /// Which shard (`index`) of how many (`count`).
    #[serde(flatten)]
    pub shard: Shard,
    /// The tournament's games that are this shard's.
    pub games: u64,
}

/// The standings as a grid of text cells, the common ground of the human-readable
/// renderers (terminal table, Markdown): which columns a game has and how each figure reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Grid {
    /// The game's name.
    pub(crate) game: String,
    /// How far the journal's run is ([`Leaderboard::progress`]), and the seed.
    pub(crate) played: String,
    /// Column names.
    pub(crate) header: Vec<&'static str>,
    /// One row per bot, best first; the bot's name is column [`Grid::NAME_COLUMN`].
    pub(crate) rows: Vec<Vec<String>>,
}

impl Grid {
    /// The only text column; all others are numbers.
    pub(crate) const NAME_COLUMN: usize = 1;
}

impl Leaderboard {
    /// The standings as a [`Grid`]: head-to-head games show wins, draws and losses and an
    /// integral score; mean-scored games show the range and three decimals, as the original
    /// tables did. The game's extra columns follow, means with two decimals, totals whole.
    pub(crate) fn grid(&self) -> Grid {
        let head_to_head = self.leaderboard.iter().any(|s| s.wins.is_some());
        let mut header = vec!["rank", "bot", "score"];
        if head_to_head {
            header.extend(["wins", "draws", "losses"]);
        } else {
            header.extend(["min", "max"]);
        }
        header.extend(self.stat_columns.iter().map(|column| column.name));
        header.extend(["games", "timeouts", "crashes", "invalid"]);
        let rated = self.leaderboard.iter().find_map(|s| s.rating.as_ref());
        header.extend(rating_columns(rated));
        let rows = self
            .leaderboard
            .iter()
            .map(|s| {
                let score = figure(s.score, if head_to_head { 0 } else { 3 });
                // A figure the bot has none of yet (no game played) is `-`, never a
                // missing cell that would shift the rest of the row.
                let figures = if head_to_head {
                    [s.wins, s.draws, s.losses]
                        .map(|n| n.map(i64::from))
                        .to_vec()
                } else {
                    vec![s.min, s.max]
                };
                let name = if s.built_in {
                    format!("{} (built-in)", s.name)
                } else {
                    s.name.clone()
                };
                [s.rank.to_string(), name, score]
                    .into_iter()
                    .chain(
                        figures
                            .into_iter()
                            .map(|n| n.map_or_else(|| "-".to_owned(), |n| n.to_string())),
                    )
                    .chain(self.stat_columns.iter().map(|column| {
                        let value = s.stats.get(column.name).copied().unwrap_or(0.0);
                        match column.aggregate {
                            Aggregate::Mean => figure(value, 2),
                            Aggregate::Total => figure(value, 0),
                        }
                    }))
                    .chain(
                        [u64::from(s.games), s.timeouts, s.crashes, s.invalid_replies]
                            .map(|n| n.to_string()),
                    )
                    .chain(rating_cells(s.rating.as_ref()))
                    .collect()
            })
            .collect();
        Grid {
            game: self.game.clone(),
            played: format!("{}, seed {}", self.progress(), self.seed),
            header,
            rows,
        }
    }

    /// The games the journal's run plays: its shard's, or the whole tournament's.
    pub fn planned_games(&self) -> u64 {
        self.shard.map_or(self.total_games, |shard| shard.games)
    }

    /// How far the journal's run is: `3 of 10 games played`, or for a shard `5 of 5 games
    /// of shard 1/2 played`.
    pub fn progress(&self) -> String {
        let part = (self.shard).map_or_else(String::new, |s| format!(" of shard {}", s.shard));
        format!(
            "{} of {}{part} played",
            self.games_played,
            crate::text::plural(self.planned_games(), "game", "games")
        )
    }
}

/// The rating columns of the grid: Elo and its 95% interval, or the 95% interval of the
/// mean score and TrueSkill's μ ± σ.
fn rating_columns(rating: Option<&Rating>) -> Vec<&'static str> {
    match rating {
        Some(Rating::Elo(_)) => vec!["elo", "elo 95%"],
        Some(Rating::Skill(_)) => vec!["score 95%", "trueskill μ±σ"],
        None => Vec::new(),
    }
}

/// One bot's cells under [`rating_columns`].
fn rating_cells(rating: Option<&Rating>) -> Vec<String> {
    match rating {
        Some(Rating::Elo(r)) => vec![
            figure(r.elo, 0),
            format!("{}..{}", figure(r.elo_low, 0), figure(r.elo_high, 0)),
        ],
        Some(Rating::Skill(r)) => vec![
            format!("{}..{}", figure(r.score_low, 3), figure(r.score_high, 3)),
            format!(
                "{}±{}",
                figure(r.trueskill_mu, 1),
                figure(r.trueskill_sigma, 1)
            ),
        ],
        None => Vec::new(),
    }
}

/// `value` with `decimals` places: the one rounding of every figure the reports show (the
/// terminal table, Markdown and the results page, whose charts show these cells too). A
/// tie goes to the even digit, as Rust formats it (-176.5 is -176, 234.5 is 234), and a value
/// that rounds to zero is `0`, never `-0`.
fn figure(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(digits) if digits.bytes().all(|b| matches!(b, b'0' | b'.')) => digits.to_owned(),
        _ => text,
    }
}

/// One bot's line on the leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// 1-based rank; bots with equal scores share a rank.
    pub rank: usize,
    /// The bot's name.
    pub name: String,
    /// The ranking score: total wins (head-to-head games) or mean score per game.
    pub score: f64,
    /// Games played.
    pub games: u32,
    /// Games won (head-to-head games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u32>,
    /// Games drawn (head-to-head games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<u32>,
    /// Games lost (head-to-head games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<u32>,
    /// The lowest score in one game (mean-scored games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// The highest score in one game (mean-scored games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// Requests sent to the bot.
    pub requests: u64,
    /// Requests without a reply in time.
    pub timeouts: u64,
    /// Processes that failed to start or ended abnormally.
    pub crashes: u64,
    /// Replies the game rejected.
    pub invalid_replies: u64,
    /// Those replies by the game's reason for rejecting them.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub invalid_reasons: BTreeMap<String, u64>,
    /// Games in which the bot crashed at least once.
    #[serde(skip_serializing_if = "is_zero")]
    pub games_with_a_crash: u32,
    /// Games in which a request of the bot timed out, crashed or replied over the size cap:
    /// a persistent process is ended then, and the game's fallback answers the rest of its
    /// requests uncounted.
    #[serde(skip)]
    pub games_with_an_ending_failure: u32,
    /// Games in which the bot got a request: a game its opponent forfeited before asking
    /// it anything says nothing of how it answers.
    #[serde(skip)]
    pub games_asked: u32,
    /// A player built into the game (AlienWar's prey), not a bot.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub built_in: bool,
    /// The game's extra figures by column name ([`arena_games::GameKind::stat_columns`]):
    /// a mean per game or a total.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, f64>,
    /// Ratings with error bars (Elo, or TrueSkill and a score interval), as extra fields.
    #[serde(flatten)]
    pub rating: Option<Rating>,
}

/// One bot's results against one opponent.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// The likelihood that the bot is stronger than the opponent, from the Elo fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superiority: Option<f64>,
}

impl Leaderboard {
    /// Computes the standings of `journal` with the game's `scoring` and extra `columns`.
    pub fn compute(scoring: Scoring, columns: &[StatColumn], journal: &Journal) -> Leaderboard {
        let mut builder = LeaderboardBuilder::new(scoring, columns, journal.header.clone());
        for game in &journal.games {
            builder.add(game);
        }
        builder.finish()
    }
}

/// A leaderboard computed one game at a time, the games in any order (a journal read as a
/// stream, in completion order): it keeps per-bot tallies, per-pair counts and what the
/// ratings need ([`Rater`]), never the game records. Unknown bot names in game records (a
/// journal edited by hand) are counted under their own names. Per-pair counts are kept only
/// while the field has at most [`EXACT_LIMIT`] bots, as only such fields list them.
#[derive(Debug, Clone)]
pub struct LeaderboardBuilder {
    scoring: Scoring,
    columns: Vec<StatColumn>,
    header: Header,
    tallies: BTreeMap<String, BotTotals>,
    /// Head-to-head fields of up to [`EXACT_LIMIT`] bots: wins, draws and losses of each bot
    /// against each opponent.
    pairs: BTreeMap<(String, String), [u32; 3]>,
    games_played: u64,
    rater: Rater,
    /// The journal's early-stopping test, if it has one.
    sprt: Option<SprtTracker>,
}

impl LeaderboardBuilder {
    /// No games yet of the tournament in `header`, a game with `scoring` and extra `columns`.
    pub fn new(scoring: Scoring, columns: &[StatColumn], header: Header) -> LeaderboardBuilder {
        LeaderboardBuilder {
            scoring,
            columns: columns.to_vec(),
            tallies: header
                .bots
                .iter()
                .map(|name| (name.clone(), BotTotals::default()))
                .collect(),
            pairs: BTreeMap::new(),
            games_played: 0,
            rater: Rater::new(scoring, &header.bots),
            sprt: header.sprt.clone().map(SprtTracker::new),
            header,
        }
    }

    /// Counts one game; each game must come once.
    pub fn add(&mut self, game: &GameRecord) {
        self.games_played += 1;
        for seat in &game.seats {
            self.tallies.entry(seat.bot.clone()).or_default().add(seat);
        }
        if let ([first, second], true) = (game.seats.as_slice(), self.lists_pairs()) {
            for (seat, other) in [(first, second), (second, first)] {
                let pair = (seat.bot.clone(), other.bot.clone());
                count_result(seat.result, self.pairs.entry(pair).or_default());
            }
        }
        self.rater.add(game);
        if let Some(sprt) = &mut self.sprt {
            sprt.record(game.index, game.result_of(sprt.candidate()));
        }
    }

    /// Whether the field is small enough for its leaderboard to list the pairs. The field
    /// only grows (bots missing from the header join it), so once it is too large it stays.
    fn lists_pairs(&self) -> bool {
        self.tallies.len() <= EXACT_LIMIT
    }

    /// The standings of the games counted.
    pub fn finish(self) -> Leaderboard {
        let lists_pairs = self.lists_pairs();
        let LeaderboardBuilder {
            scoring,
            columns,
            header,
            tallies,
            pairs,
            games_played,
            rater,
            sprt,
        } = self;
        let mut leaderboard: Vec<Standing> = tallies
            .into_iter()
            .map(|(name, tally)| Standing {
                stats: tally.stats(&columns),
                ..tally.standing(&name, scoring)
            })
            .collect();
        leaderboard.sort_by(Standing::by_rank);
        // Best first, so the scores above a bot's are a prefix: a binary search, not a
        // count over the whole field for every bot.
        let scores: Vec<f64> = leaderboard.iter().map(|s| s.score).collect();
        for standing in &mut leaderboard {
            standing.rank = 1 + scores.partition_point(|&s| s > standing.score);
        }
        let mut ratings = rater.finish(header.seed);
        for standing in &mut leaderboard {
            standing.rating = ratings.bots.remove(&standing.name);
        }
        let pairwise = match scoring {
            Scoring::Wins if lists_pairs => pairs
                .into_iter()
                .map(|((bot, opponent), [wins, draws, losses])| PairRecord {
                    superiority: ratings
                        .superiority
                        .get(&(bot.clone(), opponent.clone()))
                        .copied(),
                    bot,
                    opponent,
                    wins,
                    draws,
                    losses,
                })
                .collect(),
            Scoring::Wins | Scoring::Mean => Vec::new(),
        };
        let total_games = header.planned_games();
        Leaderboard {
            format_version: LEADERBOARD_FORMAT_VERSION,
            game: header.game,
            seed: header.seed,
            games_played,
            total_games,
            shard: (header.shard).map(|shard| ShardGames {
                shard,
                games: shard.games(total_games),
            }),
            sandbox: header.sandbox,
            leaderboard,
            pairwise,
            sprt: sprt.map(|sprt| sprt.status().clone()),
            stat_columns: columns,
        }
    }
}

/// One bot's figures summed over its games: the leaderboard's, and the running progress
/// lines' (see `crate::progress`). Scores and figures are summed as `i128`: a journal's are
/// any `i64`, and an `i64` sum of two large ones wraps (a mean of -1) or panics.
#[derive(Debug, Clone, Default)]
pub(crate) struct BotTotals {
    games: u32,
    total: i128,
    min: Option<i64>,
    max: Option<i64>,
    /// Wins, draws, losses.
    results: [u32; 3],
    requests: u64,
    timeouts: u64,
    crashes: u64,
    invalid_replies: u64,
    invalid_reasons: BTreeMap<String, u64>,
    games_with_a_crash: u32,
    games_with_an_ending_failure: u32,
    games_asked: u32,
    built_in: bool,
    /// Sums of the games' named figures.
    stats: BTreeMap<String, i128>,
}

impl Standing {
    /// Leaderboard order: higher score first, then by name (README.md, "Results"; the same
    /// explicit tie-break everywhere so output never depends on map order).
    pub(crate) fn by_rank(a: &Standing, b: &Standing) -> std::cmp::Ordering {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.name.cmp(&b.name))
    }
}

impl BotTotals {
    /// Adds one game's seat.
    pub(crate) fn add(&mut self, seat: &SeatRecord) {
        self.games += 1;
        self.total += i128::from(seat.score);
        self.min = Some(self.min.map_or(seat.score, |m| m.min(seat.score)));
        self.max = Some(self.max.map_or(seat.score, |m| m.max(seat.score)));
        count_result(seat.result, &mut self.results);
        self.requests += u64::from(seat.requests);
        self.timeouts += u64::from(seat.timeouts);
        self.crashes += u64::from(seat.crashes);
        self.invalid_replies += u64::from(seat.invalid_replies);
        for (reason, count) in &seat.invalid_reasons {
            *self.invalid_reasons.entry(reason.clone()).or_default() += u64::from(*count);
        }
        self.games_with_a_crash += u32::from(seat.crashes > 0);
        let oversized = seat.invalid_reasons.contains_key(OVERSIZED_REASON);
        self.games_with_an_ending_failure +=
            u32::from(seat.timeouts > 0 || seat.crashes > 0 || oversized);
        self.games_asked += u32::from(seat.requests > 0);
        self.built_in |= seat.built_in;
        for (name, value) in &seat.stats {
            *self.stats.entry(name.clone()).or_default() += i128::from(*value);
        }
    }

    /// The extra `columns` of the bot's line, by column name.
    pub(crate) fn stats(&self, columns: &[StatColumn]) -> BTreeMap<String, f64> {
        columns
            .iter()
            .map(|column| {
                let sum = self.stats.get(column.stat).copied().unwrap_or(0) as f64;
                let value = match column.aggregate {
                    Aggregate::Total => sum,
                    Aggregate::Mean if self.games == 0 => 0.0,
                    Aggregate::Mean => sum / f64::from(self.games),
                };
                (column.name.to_owned(), value)
            })
            .collect()
    }

    /// The bot's line on the leaderboard (rank still 0).
    pub(crate) fn standing(&self, name: &str, scoring: Scoring) -> Standing {
        let head_to_head = scoring == Scoring::Wins;
        let [wins, draws, losses] = self.results.map(|n| head_to_head.then_some(n));
        Standing {
            rank: 0,
            name: name.to_owned(),
            score: scoring.ranking_score(self.total, self.games),
            games: self.games,
            wins,
            draws,
            losses,
            min: self.min.filter(|_| !head_to_head),
            max: self.max.filter(|_| !head_to_head),
            requests: self.requests,
            timeouts: self.timeouts,
            crashes: self.crashes,
            invalid_replies: self.invalid_replies,
            invalid_reasons: self.invalid_reasons.clone(),
            games_with_a_crash: self.games_with_a_crash,
            games_with_an_ending_failure: self.games_with_an_ending_failure,
            games_asked: self.games_asked,
            built_in: self.built_in,
            stats: BTreeMap::new(),
            rating: None,
        }
    }
}

fn is_zero(count: &u32) -> bool {
    *count == 0
}

/// Adds a result to a `[wins, draws, losses]` count.
fn count_result(result: Option<GameResult>, counts: &mut [u32; 3]) {
    match result {
        Some(GameResult::Win) => counts[0] += 1,
        Some(GameResult::Draw) => counts[1] += 1,
        Some(GameResult::Loss) => counts[2] += 1,
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(bot: &str, score: i64, result: Option<GameResult>) -> SeatRecord {
        SeatRecord {
            result,
            requests: 10,
            timeouts: 1,
            invalid_replies: 2,
            ..SeatRecord::new(bot, score)
        }
    }

    fn journal(bots: &[&str], games: Vec<Vec<SeatRecord>>) -> Journal {
        Journal {
            header: Header::new(
                "test",
                3,
                1,
                bots.iter().map(|b| b.to_string()).collect(),
                4,
                String::new(),
            ),
            games: games
                .into_iter()
                .zip(0..)
                .map(|(seats, index)| GameRecord {
                    index,
                    seed: 0,
                    summary: String::new(),
                    duration_ms: 0,
                    seats,
                })
                .collect(),
        }
    }

    #[test]
    fn wins_are_totals_with_shared_ranks_and_a_pairwise_matrix() {
        use GameResult::{Draw, Loss, Win};
        let games = vec![
            vec![seat("a", 1, Some(Win)), seat("b", 0, Some(Loss))],
            vec![seat("b", 1, Some(Win)), seat("a", 0, Some(Loss))],
            vec![seat("a", 0, Some(Draw)), seat("c", 0, Some(Draw))],
        ];
        let board = Leaderboard::compute(Scoring::Wins, &[], &journal(&["a", "b", "c"], games));
        let ranks: Vec<_> = board
            .leaderboard
            .iter()
            .map(|s| (s.rank, s.name.as_str(), s.score))
            .collect();
        assert_eq!(ranks, [(1, "a", 1.0), (1, "b", 1.0), (3, "c", 0.0)]);
        let a = &board.leaderboard[0];
        assert_eq!(
            (a.wins, a.draws, a.losses, a.min),
            (Some(1), Some(1), Some(1), None)
        );
        assert_eq!((a.requests, a.timeouts, a.invalid_replies), (30, 3, 6));
        let a_vs_b = board
            .pairwise
            .iter()
            .find(|p| p.bot == "a" && p.opponent == "b")
            .unwrap();
        assert_eq!((a_vs_b.wins, a_vs_b.draws, a_vs_b.losses), (1, 0, 1));
        assert_eq!(board.pairwise.len(), 4);
        assert_eq!(board.games_played, 3);
    }

    #[test]
    fn mean_scores_average_per_game_with_min_and_max() {
        let games = vec![
            vec![seat("a", 10, None), seat("b", 3, None), seat("c", 0, None)],
            vec![seat("a", 2, None), seat("b", 5, None), seat("c", 0, None)],
        ];
        let board =
            Leaderboard::compute(Scoring::Mean, &[], &journal(&["a", "b", "c", "d"], games));
        let rows: Vec<_> = board
            .leaderboard
            .iter()
            .map(|s| {
                (
                    s.rank,
                    s.name.as_str(),
                    s.score,
                    s.min,
                    s.max,
                    s.games,
                    s.wins,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (1, "a", 6.0, Some(2), Some(10), 2, None),
                (2, "b", 4.0, Some(3), Some(5), 2, None),
                (3, "c", 0.0, Some(0), Some(0), 2, None),
                (3, "d", 0.0, None, None, 0, None),
            ]
        );
        assert!(board.pairwise.is_empty());
    }

    #[test]
    fn the_largest_scores_and_figures_add_up_without_wrapping() {
        // What a journal without bounds (written before them) may hold: once a mean of -1.
        let huge = || SeatRecord {
            stats: BTreeMap::from([("gold".to_owned(), i64::MAX)]),
            ..seat("a", i64::MAX, None)
        };
        let games = vec![vec![huge()], vec![huge()], vec![seat("a", i64::MIN, None)]];
        let gold = StatColumn {
            name: "gold",
            stat: "gold",
            aggregate: arena_games::Aggregate::Total,
        };
        let board = Leaderboard::compute(Scoring::Mean, &[gold], &journal(&["a"], games));
        let a = &board.leaderboard[0];
        let max = i64::MAX as f64;
        assert_eq!(a.score, (2.0 * max - max) / 3.0);
        assert_eq!(a.stats["gold"], 2.0 * max);
        let Some(crate::ratings::Rating::Skill(rating)) = &a.rating else {
            panic!("{:?}", a.rating);
        };
        assert!(rating.score_low < rating.score_high, "{rating:?}");
        assert!(rating.score_high <= max, "{rating:?}");
    }

    #[test]
    fn built_in_players_are_ranked_and_marked_but_plain_bots_serialize_as_before() {
        let built_in = SeatRecord {
            built_in: true,
            requests: 0,
            ..seat("prey.Cow", 7, None)
        };
        let games = vec![vec![seat("a", 3, None), built_in]];
        let board = Leaderboard::compute(Scoring::Mean, &[], &journal(&["a"], games));
        let cow = &board.leaderboard[0];
        assert_eq!(
            (cow.name.as_str(), cow.built_in, cow.score),
            ("prey.Cow", true, 7.0)
        );
        assert_eq!(
            board.grid().rows[0][Grid::NAME_COLUMN],
            "prey.Cow (built-in)"
        );
        let json = serde_json::to_value(&board).unwrap();
        assert_eq!(json["leaderboard"][0]["built_in"], true);
        assert!(json["leaderboard"][1].get("built_in").is_none());
    }

    #[test]
    fn games_in_any_order_give_the_leaderboard_of_the_games_in_index_order() {
        use GameResult::{Draw, Loss, Win};
        let scored = vec![
            vec![seat("a", 10, None), seat("x", 3, None), seat("c", 0, None)],
            vec![seat("y", 2, None), seat("b", 5, None), seat("a", 0, None)],
            vec![seat("c", 7, None), seat("a", 5, None), seat("x", 1, None)],
            vec![seat("b", 4, None), seat("c", 4, None), seat("y", 9, None)],
        ];
        let head_to_head = vec![
            vec![seat("a", 1, Some(Win)), seat("b", 0, Some(Loss))],
            vec![seat("x", 0, Some(Draw)), seat("a", 0, Some(Draw))],
            vec![seat("b", 1, Some(Win)), seat("x", 0, Some(Loss))],
            vec![seat("a", 0, Some(Loss)), seat("x", 1, Some(Win))],
        ];
        for (scoring, games, bots) in [(Scoring::Mean, scored, 5), (Scoring::Wins, head_to_head, 4)]
        {
            let journal = journal(&["a", "b", "c"], games);
            let in_order = Leaderboard::compute(scoring, &[], &journal);
            let mut builder = LeaderboardBuilder::new(scoring, &[], journal.header.clone());
            for game in journal.games.iter().rev() {
                builder.add(game);
            }
            let reversed = builder.finish();
            assert_eq!(reversed, in_order);
            assert!(in_order.leaderboard.iter().all(|s| s.rating.is_some()));
            assert_eq!(in_order.leaderboard.len(), bots);
        }
    }

    #[test]
    fn fields_beyond_the_exact_limit_keep_and_list_no_pairs_but_rate_every_bot() {
        use GameResult::{Loss, Win};
        for (bots, listed) in [
            (EXACT_LIMIT, true),
            (EXACT_LIMIT + 1, false),
            (10_000, false),
        ] {
            // A ring: every bot beats the next one.
            let names: Vec<String> = (0..bots).map(|i| format!("bot{i}")).collect();
            let games = (0..bots)
                .map(|i| {
                    let next = &names[(i + 1) % bots];
                    vec![seat(&names[i], 1, Some(Win)), seat(next, 0, Some(Loss))]
                })
                .collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let journal = journal(&names, games);
            let mut builder = LeaderboardBuilder::new(Scoring::Wins, &[], journal.header.clone());
            for game in &journal.games {
                builder.add(game);
            }
            let pairs = if listed { 2 * bots } else { 0 };
            assert_eq!(builder.pairs.len(), pairs, "{bots} bots");
            let board = builder.finish();
            assert_eq!(board.pairwise.len(), pairs, "{bots} bots");
            assert!(board.pairwise.iter().all(|p| p.superiority.is_some()));
            assert_eq!(board.leaderboard.len(), bots);
            for standing in &board.leaderboard {
                let Some(Rating::Elo(rating)) = &standing.rating else {
                    panic!("{} has no Elo rating", standing.name);
                };
                // Everyone won one and lost one against equals.
                assert!(rating.elo.abs() < 0.1, "{rating:?}");
                assert!(
                    rating.elo_low < -10.0 && rating.elo_high > 10.0,
                    "{rating:?}"
                );
            }
        }
    }

    /// Ties at .5 go to the even integer on both sides of zero (JavaScript's `toFixed` takes
    /// them away from zero, which made the page's chart disagree with its table), and every
    /// figure of a row is rounded so.
    #[test]
    fn figures_round_half_to_even_and_never_show_minus_zero() {
        let cases = [
            (-176.5, "-176"),
            (234.5, "234"),
            (-374.5, "-374"),
            (21.5, "22"),
            (0.5, "0"),
            (-0.5, "0"),
            (-0.4, "0"),
            (-1.5, "-2"),
            (-0.6, "-1"),
        ];
        for (value, shown) in cases {
            assert_eq!(figure(value, 0), shown, "{value}");
        }
        assert_eq!(figure(27.25, 1), "27.2");
        assert_eq!(figure(12.0625, 3), "12.062");
        assert_eq!(figure(-0.0004, 3), "0.000");
        let rating = |elo, elo_low, elo_high| {
            Some(Rating::Elo(crate::ratings::EloRating {
                elo,
                elo_low,
                elo_high,
            }))
        };
        let cells = rating_cells(rating(-176.5, -374.5, 21.5).as_ref());
        assert_eq!(cells, ["-176", "-374..22"]);
        let cells = rating_cells(rating(234.5, -125.0, 234.5).as_ref());
        assert_eq!(cells, ["234", "-125..234"]);
    }

    /// A shard's journal is measured against its own games: finished when they are played,
    /// said in every table; the JSON adds the shard and keeps `total_games` the tournament's.
    #[test]
    fn a_shard_counts_its_own_games_and_keeps_the_tournaments_total() {
        use GameResult::{Loss, Win};
        // Shard 2/3 of 4 games has game 1 only.
        let mut journal = journal(
            &["a", "b"],
            vec![vec![seat("a", 1, Some(Win)), seat("b", 0, Some(Loss))]],
        );
        journal.header.shard = Some(Shard { index: 2, count: 3 });
        let board = Leaderboard::compute(Scoring::Wins, &[], &journal);
        assert_eq!((board.games_played, board.total_games), (1, 4));
        assert_eq!(board.planned_games(), 1);
        assert_eq!(board.progress(), "1 of 1 game of shard 2/3 played");
        assert_eq!(
            board.grid().played,
            "1 of 1 game of shard 2/3 played, seed 3"
        );
        let json: serde_json::Value = serde_json::to_value(&board).unwrap();
        assert_eq!(
            json["shard"],
            serde_json::json!({"index": 2, "count": 3, "games": 1})
        );
        assert_eq!(json["total_games"], 4);

        journal.header.shard = None;
        let board = Leaderboard::compute(Scoring::Wins, &[], &journal);
        assert_eq!(board.grid().played, "1 of 4 games played, seed 3");
        let json: serde_json::Value = serde_json::to_value(&board).unwrap();
        assert!(json.get("shard").is_none(), "{json}");
    }
}
