//! The records a journal's lines hold ([`Record`]: a [`Header`], then [`GameRecord`]s of
//! [`SeatRecord`]s) and what they tell of themselves. Apart from writing and reading the
//! file, as most of the crate (the driver, the leaderboard, the ratings, the progress line)
//! builds or reads records and never touches the file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::shard::Shard;
use arena_games::Bounds;
use arena_games::engine::GameResult;

use super::FORMAT_VERSION;

/// One line of the journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "kebab-case")]
pub enum Record {
    /// What the tournament is; always the first line.
    Header(Header),
    /// One finished game.
    Game(GameRecord),
}

/// The tournament a journal belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// The `arena` version that wrote it.
    pub arena_version: String,
    /// The game's name.
    pub game: String,
    /// The master seed.
    pub seed: u64,
    /// Games per pairing or runs.
    pub games: u32,
    /// The entries, in tournament-file order.
    pub bots: Vec<String>,
    /// How many games the full tournament has.
    pub total_games: u64,
    /// A digest of everything that decides the games (game, options, seed, bots and how they
    /// are started), so a run is never resumed with a different tournament.
    pub config_digest: String,
    /// The part of the tournament this journal plays (`arena run --shard`); absent for all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The bot whose games alone this journal plays (`arena run --gauntlet`); absent for all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gauntlet: Option<String>,
    /// The early-stopping test this journal's games are played for (`arena run --sprt`):
    /// its games come in pairs with one seed ([`crate::schedule::Schedule::paired`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<crate::sprt::Sprt>,
    /// Whether the bots ran in sandboxes; absent in journals older than the sandbox.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<Sandboxing>,
    /// A digest of the game's options and the tournament-wide limits (see
    /// [`crate::reuse::rules_digest`]): what `--reuse` requires to be unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// What one game with the tournament's options can give a seat (its scores, the invalid
    /// replies of one request), which the games are checked against; absent in journals
    /// older than it, whose games are checked against what any options can give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bounds>,
}

/// Whether a tournament's bots run in sandboxes (`sandbox` in the tournament file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sandboxing {
    /// Every bot.
    On,
    /// Some bots (others have `sandbox = "none"`).
    Partial,
    /// No bot (`--no-sandbox`, or `sandbox = "none"` for all).
    Off,
}

impl Sandboxing {
    /// How `sandboxed` bots of `all` are.
    pub fn of(sandboxed: usize, all: usize) -> Sandboxing {
        match sandboxed {
            0 => Sandboxing::Off,
            n if n == all => Sandboxing::On,
            _ => Sandboxing::Partial,
        }
    }
}

impl std::fmt::Display for Sandboxing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Sandboxing::On => "on",
            Sandboxing::Partial => "partial",
            Sandboxing::Off => "off",
        })
    }
}

impl Header {
    /// The header of a whole run by this `arena` of `bots` at `game` (its `games` per pairing
    /// or runs, `total_games` in all), with none of the optional parts: no shard, gauntlet,
    /// test, sandbox, rules or bounds record. A run sets those it has.
    pub fn new(
        game: &str,
        seed: u64,
        games: u32,
        bots: Vec<String>,
        total_games: u64,
        config_digest: String,
    ) -> Header {
        Header {
            format_version: FORMAT_VERSION,
            arena_version: env!("CARGO_PKG_VERSION").to_owned(),
            game: game.to_owned(),
            seed,
            games,
            bots,
            total_games,
            config_digest,
            shard: None,
            gauntlet: None,
            sprt: None,
            sandbox: None,
            rules: None,
            bounds: None,
        }
    }

    /// How `self` (a journal's header) differs from `expected` in what matters for resuming,
    /// or `None` if a run described by `expected` may continue it.
    pub fn mismatch(&self, expected: &Header) -> Option<String> {
        self.differs_from(expected, "in the journal", "now")
    }

    /// How `self` differs from `expected` in what makes a tournament, or `None`: each
    /// difference says `what is A <here> but B <there>`.
    pub fn differs_from(&self, expected: &Header, here: &str, there: &str) -> Option<String> {
        let differs = |what: &str, found: String, wanted: String| {
            (found != wanted).then(|| format!("{what} is {found} {here} but {wanted} {there}"))
        };
        differs(
            "the format version",
            self.format_version.to_string(),
            expected.format_version.to_string(),
        )
        .or_else(|| differs("the game", self.game.clone(), expected.game.clone()))
        .or_else(|| differs("the seed", self.seed.to_string(), expected.seed.to_string()))
        .or_else(|| {
            differs(
                "`games`",
                self.games.to_string(),
                expected.games.to_string(),
            )
        })
        .or_else(|| {
            differs(
                "the bot list",
                self.bots.join(", "),
                expected.bots.join(", "),
            )
        })
        .or_else(|| {
            differs(
                "the number of games",
                self.total_games.to_string(),
                expected.total_games.to_string(),
            )
        })
        .or_else(|| {
            let sandbox =
                |s: Option<Sandboxing>| s.map_or("unrecorded".to_owned(), |s| s.to_string());
            differs(
                "the sandbox",
                sandbox(self.sandbox),
                sandbox(expected.sandbox),
            )
        })
        .or_else(|| {
            (self.rules != expected.rules).then(|| {
                "the game's options or the time, reply or output limits changed".to_owned()
            })
        })
        .or_else(|| {
            (self.config_digest != expected.config_digest)
                .then(|| "the tournament file's options or bot commands changed".to_owned())
        })
        .or_else(|| {
            let shard = |shard: Option<Shard>| shard.map_or("all".to_owned(), |s| s.to_string());
            differs("the shard", shard(self.shard), shard(expected.shard))
        })
        .or_else(|| {
            let gauntlet = |bot: &Option<String>| {
                bot.as_ref()
                    .map_or("none".to_owned(), |bot| format!("`{}`", bot.escape_debug()))
            };
            differs(
                "the gauntlet",
                gauntlet(&self.gauntlet),
                gauntlet(&expected.gauntlet),
            )
        })
        .or_else(|| {
            let sprt = |sprt: &Option<crate::sprt::Sprt>| {
                sprt.as_ref().map_or("none".to_owned(), |s| s.to_string())
            };
            differs("the SPRT", sprt(&self.sprt), sprt(&expected.sprt))
        })
    }

    /// How many games the run this journal belongs to plays: the whole tournament's, or only
    /// those of its gauntlet's bot. (A shard's board still counts the whole tournament.)
    pub fn planned_games(&self) -> u64 {
        match (&self.gauntlet, self.pairing()) {
            (Some(_), Ok(pairing)) => {
                crate::schedule::games_of_one(pairing, self.bots.len(), self.games)
            }
            _ => self.total_games,
        }
    }
}

/// One finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the tournament.
    pub index: u64,
    /// The game's seed.
    pub seed: u64,
    /// How the game ended, in one line.
    pub summary: String,
    /// Wall time of the game.
    pub duration_ms: u64,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatRecord>,
}

impl GameRecord {
    /// The result of `bot`'s seat, if it played and the game gives results.
    pub fn result_of(&self, bot: &str) -> Option<GameResult> {
        self.seats
            .iter()
            .find(|seat| seat.bot == bot)
            .and_then(|seat| seat.result)
    }
}

/// The reason an invalid reply over `max_reply_bytes` is counted under.
pub const OVERSIZED_REASON: &str = "reply over the size cap";

/// One seat of one game: who, how it scored, and how its bot behaved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The bot's name.
    pub bot: String,
    /// The game's points for this seat.
    pub score: i64,
    /// Win, draw or loss in head-to-head games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Requests sent to the bot.
    pub requests: u32,
    /// Requests that got no reply in time.
    pub timeouts: u32,
    /// Processes that failed to start or ended abnormally.
    pub crashes: u32,
    /// Replies the game rejected, including replies over the size cap.
    pub invalid_replies: u32,
    /// The invalid replies by the game's reason (`reply over the size cap` for those), adding
    /// up to `invalid_replies`; absent when there were none, and in journals written before
    /// it existed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub invalid_reasons: BTreeMap<String, u32>,
    /// A player built into the engine (AlienWar's prey), not a bot: it has no process and
    /// is not in the header's bot list.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub built_in: bool,
    /// The game's named figures beyond the score (see `SeatOutcome::stats`); absent for
    /// games without them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, i64>,
    /// A digest of what decided the bot's play (see [`crate::reuse::bot_digests`]), for
    /// `--reuse`; absent for built-in players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

impl SeatRecord {
    /// A seat of `bot` that scored `score` and nothing more: no result, requests, failures
    /// or figures (a built-in player's, and what tests build their seats from).
    pub fn new(bot: impl Into<String>, score: i64) -> SeatRecord {
        SeatRecord {
            bot: bot.into(),
            score,
            result: None,
            requests: 0,
            timeouts: 0,
            crashes: 0,
            invalid_replies: 0,
            invalid_reasons: BTreeMap::new(),
            built_in: false,
            stats: BTreeMap::new(),
            digest: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_written_before_invalid_reasons_existed_still_reads() {
        let line =
            r#"{"bot":"a","score":1,"requests":3,"timeouts":0,"crashes":0,"invalid_replies":2}"#;
        let seat: SeatRecord = serde_json::from_str(line).unwrap();
        assert_eq!(seat.invalid_replies, 2);
        assert!(seat.invalid_reasons.is_empty());
        let written = serde_json::to_string(&seat).unwrap();
        assert!(!written.contains("invalid_reasons"), "{written}");
    }
}
