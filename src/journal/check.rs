//! What a journal may hold, derived from its own header: a journal is read as evidence, never
//! trusted blindly. Its header must describe a schedule this `arena` can make (a known pairing
//! version and game, a game count that is that schedule's, bots named as a tournament file
//! may name them), and every game must be one of the
//! schedule's: its index in range (and in the journal's shard), its seed the derived one, its
//! seats that fixture's bots in order, then only the game's own built-in players; and its
//! outcome one the game can give: no game won by both sides, no score outside the bounds of
//! the header (or, without them, of the game whatever its options), no request failed twice
//! or rejected more often than a reply can be, invalid replies that add up to their reasons.

use std::collections::BTreeSet;

use crate::config::bot_name_problem;
use crate::schedule::{Schedule, fixture_count};
use crate::shard::Shard;
use crate::text::{plural, reading_of};
use arena_games::{Bounds, GameKind, Pairing, Scoring};

use super::{FORMAT_VERSION, GameRecord, Header, SeatRecord};

/// The schedule a journal's header describes, to check its games against.
#[derive(Debug, Clone)]
pub(super) struct Expected {
    pairing: Pairing,
    bots: Vec<String>,
    games: u32,
    seed: u64,
    total: u64,
    shard: Option<Shard>,
    /// The index of the gauntlet's bot, whose games alone the journal holds.
    gauntlet: Option<usize>,
    /// Whether games come in pairs with one seed (`--sprt`).
    paired: bool,
    built_in_names: Vec<&'static str>,
    scoring: Scoring,
    bounds: Bounds,
}

impl Expected {
    /// The schedule of `header`, or why the header describes none.
    pub(super) fn of(header: &Header) -> Result<Expected, String> {
        if header.format_version != FORMAT_VERSION {
            return Err(format!(
                "format version {} is not one this arena reads (it reads {FORMAT_VERSION})",
                header.format_version
            ));
        }
        let kind = GameKind::from_name(&header.game).ok_or_else(|| {
            format!(
                "the journal is for an unknown game `{}`",
                header.game.escape_debug()
            )
        })?;
        if let Some(why) = header.bots.iter().find_map(|name| bot_name_problem(name)) {
            return Err(why);
        }
        let mut names = BTreeSet::new();
        if let Some(twice) = header
            .bots
            .iter()
            .find(|name| !names.insert(reading_of(name)))
        {
            return Err(format!("bot `{}` is listed twice", twice.escape_debug()));
        }
        let pairing = header.pairing()?;
        if let Some(shard) = header.shard
            && !(1..=shard.count).contains(&shard.index)
        {
            return Err(format!("shard {shard} does not exist"));
        }
        let gauntlet = match &header.gauntlet {
            None => None,
            Some(bot) => Some(header.bots.iter().position(|name| name == bot).ok_or_else(
                || {
                    format!(
                        "the gauntlet's bot `{}` is not one of the bots",
                        bot.escape_debug()
                    )
                },
            )?),
        };
        let widest = kind.widest_bounds();
        let bounds = header.bounds.unwrap_or(widest);
        if let Some(why) = beyond(&bounds, &widest) {
            return Err(format!(
                "the header's bounds cannot be {}'s: {why}",
                kind.name()
            ));
        }
        Ok(Expected {
            bounds,
            pairing,
            gauntlet,
            paired: header.sprt.is_some(),
            bots: header.bots.clone(),
            games: header.games,
            seed: header.seed,
            total: header.total_games,
            shard: header.shard,
            built_in_names: kind.built_in_names(),
            scoring: kind.scoring(),
        })
    }

    /// Whether `game` is one of the schedule's games, or why not.
    pub(super) fn check(&self, game: &GameRecord) -> Result<(), String> {
        let index = game.index;
        let fixture = Schedule::new(self.pairing, &self.bots, self.games, self.seed)
            .paired(self.paired)
            .fixture(index)
            .ok_or_else(|| {
                format!(
                    "game {index} does not exist: the tournament has {}",
                    plural(self.total, "game", "games")
                )
            })?;
        if let Some(shard) = self.shard
            && !shard.contains(index)
        {
            return Err(format!("game {index} is not in shard {shard}"));
        }
        if let Some(bot) = self.gauntlet
            && !fixture.seats.contains(&bot)
        {
            return Err(format!(
                "game {index} is not a game of the gauntlet's bot `{}`",
                self.bots[bot].escape_debug()
            ));
        }
        if game.seed != fixture.seed {
            return Err(format!(
                "game {index} has seed {}, but the tournament's game {index} has seed {}",
                game.seed, fixture.seed
            ));
        }
        let seated: Vec<&str> = game
            .seats
            .iter()
            .take_while(|seat| !seat.built_in)
            .map(|seat| seat.bot.as_str())
            .collect();
        let scheduled: Vec<&str> = fixture
            .seats
            .iter()
            .map(|&bot| self.bots[bot].as_str())
            .collect();
        if seated != scheduled {
            return Err(format!(
                "game {index} seats {}, but the tournament's game {index} seats {}",
                names(&seated),
                names(&scheduled)
            ));
        }
        if let Some(why) = game
            .seats
            .iter()
            .find_map(|seat| self.impossible_tally(seat))
        {
            return Err(format!("game {index} {why}"));
        }
        let outcome: Vec<_> = (game.seats.iter())
            .map(|seat| (seat.score, seat.result))
            .collect();
        if let Some(why) = self.scoring.impossible(&outcome[..seated.len()]) {
            return Err(format!("game {index} cannot have ended so: {why}"));
        }
        let scores = self.bounds.min_score..=self.bounds.max_score;
        if let Some(seat) = game.seats.iter().find(|seat| !scores.contains(&seat.score)) {
            return Err(format!(
                "game {index} gives `{}` a score of {}, but a seat of this tournament's games \
                 scores from {} to {}",
                seat.bot.escape_debug(),
                seat.score,
                scores.start(),
                scores.end()
            ));
        }
        let mut seen = BTreeSet::new();
        for seat in &game.seats[seated.len()..] {
            let known = seat.built_in && self.built_in_names.contains(&seat.bot.as_str());
            if !known || !seen.insert(seat.bot.as_str()) {
                return Err(format!(
                    "game {index} has a player `{}` that is neither its bot nor one of the \
                     game's built-in players",
                    seat.bot.escape_debug()
                ));
            }
        }
        Ok(())
    }

    /// Why `seat`'s requests cannot have given its failures, if they cannot (a sentence
    /// after "game N"). Each request ends one way: a timeout, a crash without a reply, a
    /// reply over the size cap (an invalid reply), or a reply, which the game may reject
    /// (at most [`Bounds::invalid_per_request`] times) and after which the process may
    /// still crash. So timeouts and crashes fit in the requests, and so do the invalid
    /// replies in those not timed out; a crash may share its request with an invalid reply.
    fn impossible_tally(&self, seat: &SeatRecord) -> Option<String> {
        let name = seat.bot.escape_debug();
        let [requests, timeouts, crashes, invalid] = [
            seat.requests,
            seat.timeouts,
            seat.crashes,
            seat.invalid_replies,
        ]
        .map(u64::from);
        if timeouts + crashes > requests {
            return Some(format!(
                "gives `{name}` more timeouts and crashes than requests (a request fails at \
                 most once)"
            ));
        }
        let per_request = u64::from(self.bounds.invalid_per_request);
        if invalid > (requests - timeouts) * per_request {
            let most = match per_request {
                1 => "one".to_owned(),
                n => format!("at most {n}"),
            };
            return Some(format!(
                "gives `{name}` {} in {}, {timeouts} of them timed out (a request that did not \
                 time out gives {most})",
                plural(invalid, "invalid reply", "invalid replies"),
                plural(requests, "request", "requests"),
            ));
        }
        let reasons: u64 = seat.invalid_reasons.values().copied().map(u64::from).sum();
        if !seat.invalid_reasons.is_empty() && reasons != invalid {
            return Some(format!(
                "gives `{name}` {}, but its reasons for them add up to {reasons}",
                plural(invalid, "invalid reply", "invalid replies"),
            ));
        }
        None
    }
}

/// Why a journal's header may not claim `claimed` for a game whose `widest` bounds, whatever
/// its options, are those; `None` if it may.
fn beyond(claimed: &Bounds, widest: &Bounds) -> Option<String> {
    if claimed.min_score > claimed.max_score {
        Some(format!(
            "its scores run from {} down to {}",
            claimed.min_score, claimed.max_score
        ))
    } else if claimed.min_score < widest.min_score || claimed.max_score > widest.max_score {
        Some(format!(
            "its scores run from {} to {}, but the game's from {} to {} whatever its options",
            claimed.min_score, claimed.max_score, widest.min_score, widest.max_score
        ))
    } else if claimed.invalid_per_request > widest.invalid_per_request {
        Some(format!(
            "a request counts up to {} invalid replies, but the game's at most {}",
            claimed.invalid_per_request, widest.invalid_per_request
        ))
    } else {
        None
    }
}

impl Header {
    /// The pairing of the schedule the header describes: the game's, the one with its number
    /// of games where the game's options allow more than one (Slime's seat rotation).
    pub fn pairing(&self) -> Result<Pairing, String> {
        let kind = GameKind::from_name(&self.game).ok_or_else(|| {
            format!(
                "the journal is for an unknown game `{}`",
                self.game.escape_debug()
            )
        })?;
        let bots = self.bots.len();
        kind.pairings()
            .iter()
            .copied()
            .find(|&pairing| fixture_count(pairing, bots, self.games) == self.total_games)
            .ok_or_else(|| {
                format!(
                    "{} games is not a {} tournament of {bots} bots and {} games each",
                    self.total_games,
                    kind.name(),
                    self.games
                )
            })
    }
}

/// Bot names for a message: `a, b`, or `nobody`.
fn names(names: &[&str]) -> String {
    if names.is_empty() {
        return "nobody".into();
    }
    names
        .iter()
        .map(|name| format!("`{}`", name.escape_debug()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::journal::fixtures::{game, header, journal_with, line};
    use crate::journal::{Journal, JournalWriter, Record};
    use arena_games::engine::GameResult;

    #[test]
    fn games_that_are_not_the_tournaments_are_refused_with_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut foreign = game(0);
        foreign.seats[1].bot = "ghost".into();
        let mut reseeded = game(1);
        reseeded.seed += 1;
        let mut beyond = game(1);
        beyond.index = 2;
        let mut swapped = game(1);
        swapped.seats.swap(0, 1);
        let mut housed = game(0);
        housed.seats.push(SeatRecord {
            built_in: true,
            ..housed.seats[0].clone()
        });
        let mut both_won = game(0);
        both_won.seats[1].score = 1;
        both_won.seats[1].result = Some(GameResult::Win);
        let mut inflated = game(1);
        inflated.seats[0].score = 99;
        let mut overfailed = game(1);
        overfailed.seats[1].timeouts = 2;
        overfailed.seats[1].crashes = 2;
        // The tester's edit: more invalid replies than requests.
        let mut overinvalid = game(1);
        overinvalid.seats[0].invalid_replies = 100;
        overinvalid.seats[0].invalid_reasons = BTreeMap::from([("x".to_owned(), 100)]);
        // A timed-out request has no reply to reject.
        let mut timed_out_and_invalid = game(0);
        timed_out_and_invalid.seats[1].timeouts = 2;
        timed_out_and_invalid.seats[1].invalid_replies = 2;
        timed_out_and_invalid.seats[1].invalid_reasons = BTreeMap::from([("x".to_owned(), 2)]);
        let mut unreasoned = game(0);
        unreasoned.seats[0].invalid_reasons = BTreeMap::from([("x".to_owned(), 2)]);
        let cases = [
            (
                both_won,
                "game 0 cannot have ended so: its two seats are not a win and a loss, or a draw",
            ),
            (
                inflated,
                "game 1 cannot have ended so: a score is not 1 for the win and 0 otherwise",
            ),
            (
                overfailed,
                "game 1 gives `a` more timeouts and crashes than requests",
            ),
            (
                overinvalid,
                "game 1 gives `b` 100 invalid replies in 3 requests, 0 of them timed out (a \
                 request that did not time out gives one)",
            ),
            (
                timed_out_and_invalid,
                "game 0 gives `b` 2 invalid replies in 3 requests, 2 of them timed out",
            ),
            (
                unreasoned,
                "game 0 gives `a` 1 invalid reply, but its reasons for them add up to 2",
            ),
            (
                foreign,
                "game 0 seats `a`, `ghost`, but the tournament's game 0 seats `a`, `b`",
            ),
            (reseeded, "game 1 has seed"),
            (beyond, "game 2 does not exist: the tournament has 2 games"),
            (
                swapped,
                "game 1 seats `a`, `b`, but the tournament's game 1 seats `b`, `a`",
            ),
            (
                housed,
                "a player `a` that is neither its bot nor one of the game's built-in",
            ),
        ];
        for (bad, why) in cases {
            let path = journal_with(dir.path(), &[line(&game(0)), line(&bad)]);
            let error = Journal::read(&path).unwrap_err().to_string();
            let at = format!("{}:3: ", path.display());
            assert!(error.starts_with(&at) && error.contains(why), "{error}");
            std::fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn a_crash_after_a_reply_shares_its_request_with_the_replys_rejection() {
        // A one-shot bot that printed garbage and exited 1, three times.
        let mut game = game(0);
        game.seats[0].crashes = 3;
        game.seats[0].invalid_replies = 3;
        game.seats[0].invalid_reasons = BTreeMap::from([("x".to_owned(), 3)]);
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), &[line(&game)]);
        assert_eq!(Journal::read(&path).unwrap().games, vec![game]);
    }

    /// An Egg Hunt journal of bots `a` and `b`, one run, whose header records `bounds`, with
    /// the run's game scoring `scores`.
    fn eggs_journal(dir: &Path, bounds: Option<Bounds>, scores: [i64; 2]) -> PathBuf {
        let path = dir.join("journal.jsonl");
        let _ = std::fs::remove_file(&path);
        let bots = vec!["a".to_owned(), "b".to_owned()];
        let header = Header {
            bounds,
            ..Header::new("eggs", 1, 1, bots.clone(), 1, "d".into())
        };
        let mut writer = JournalWriter::create(&path, header).unwrap();
        let fixture = crate::schedule::Schedule::new(Pairing::FreeForAll, &bots, 1, 1)
            .fixture(0)
            .unwrap();
        let seats = bots.iter().zip(scores).map(|(bot, score)| {
            SeatRecord {
                result: None,
                invalid_replies: 0,
                invalid_reasons: BTreeMap::new(),
                ..game(0).seats[0].clone()
            }
            .with(bot, score)
        });
        let record = GameRecord {
            seed: fixture.seed,
            seats: seats.collect(),
            ..game(0)
        };
        writer.append(&Record::Game(record)).unwrap();
        path
    }

    impl SeatRecord {
        fn with(self, bot: &str, score: i64) -> SeatRecord {
            SeatRecord {
                bot: bot.into(),
                score,
                ..self
            }
        }
    }

    #[test]
    fn a_score_no_game_gives_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let three_eggs = Some(Bounds::up_to(3));
        for scores in [[3, 0], [1, 2]] {
            let path = eggs_journal(dir.path(), three_eggs, scores);
            assert!(Journal::read(&path).is_ok(), "{scores:?}");
        }
        for (bounds, score) in [
            (three_eggs, 1000),
            (three_eggs, -1),
            (three_eggs, i64::MAX),
            // Without bounds in its header, what any options give.
            (None, -1),
        ] {
            let path = eggs_journal(dir.path(), bounds, [score, 0]);
            let error = Journal::read(&path).unwrap_err().to_string();
            let (low, high) = bounds.map_or((0, i64::MAX), |b| (b.min_score, b.max_score));
            let why = format!(
                ":2: game 0 gives `a` a score of {score}, but a seat of this tournament's games \
                 scores from {low} to {high}"
            );
            assert!(error.ends_with(&why), "{error}");
        }
        let path = eggs_journal(dir.path(), None, [i64::MAX, i64::MAX]);
        assert!(
            Journal::read(&path).is_ok(),
            "a map may hold any number of eggs"
        );
    }

    #[test]
    fn a_header_claiming_bounds_beyond_the_games_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        for (bounds, why) in [
            (
                Bounds::up_to(5),
                "the header's bounds cannot be petri's: its scores run from 0 to 5, but the \
                 game's from 0 to 1 whatever its options",
            ),
            (
                Bounds {
                    invalid_per_request: 2,
                    ..Bounds::up_to(1)
                },
                "a request counts up to 2 invalid replies, but the game's at most 1",
            ),
            (
                Bounds {
                    min_score: 1,
                    ..Bounds::up_to(0)
                },
                "its scores run from 1 down to 0",
            ),
        ] {
            let header = Header {
                bounds: Some(bounds),
                ..header()
            };
            JournalWriter::create(&path, header).unwrap();
            let error = Journal::read(&path).unwrap_err().to_string();
            assert!(error.contains(":1: ") && error.contains(why), "{error}");
            std::fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn a_header_without_a_schedule_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        for (header, why) in [
            (
                Header {
                    total_games: 13,
                    ..header()
                },
                "13 games is not a petri tournament of 2 bots and 2 games each",
            ),
            (
                Header {
                    format_version: 7,
                    ..header()
                },
                "format version 7 is not one this arena reads",
            ),
            (
                Header {
                    bots: vec!["a".into(), "a".into()],
                    ..header()
                },
                "bot `a` is listed twice",
            ),
            (
                Header {
                    bots: vec!["caf\u{e9}".into(), "cafe\u{301}".into()],
                    ..header()
                },
                "bot `cafe\u{301}` is listed twice",
            ),
            (
                Header {
                    bots: vec!["a".into(), "\x1b[31mb\n".into()],
                    ..header()
                },
                "bot name `\\x1b[31mb\\n` contains the control or invisible character U+001B",
            ),
        ] {
            JournalWriter::create(&path, header).unwrap();
            let error = Journal::read(&path).unwrap_err().to_string();
            assert!(error.contains(&format!(":1: {why}")), "{error}");
            std::fs::remove_file(&path).unwrap();
        }
    }
}
