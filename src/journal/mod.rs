//! The results journal: append-only JSON Lines, one record per line, flushed as each game
//! finishes, so a crash loses at most the games still running. Leaderboards are computed
//! from the journal, never from in-memory state.
//!
//! Every line is an object `{"type": ..., "data": {...}}`. The first line is a `header`;
//! each further line is a `game`:
//!
//! ```text
//! {"type":"header","data":{"format_version":2,"arena_version":"0.1.0","game":"petri","seed":1,"games":100,"bots":["a","b"],"total_games":100,"config_digest":"5f0c…","sandbox":"on","rules":"16fe…","bounds":{"min_score":0,"max_score":1,"invalid_per_request":1}}}
//! {"type":"game","data":{"index":0,"seed":123,"summary":"...","duration_ms":84,"seats":[{"bot":"a","score":1,"result":"win","requests":40,"timeouts":0,"crashes":0,"invalid_replies":0,"digest":"3ddd…"},{"bot":"b",...}]}}
//! ```
//!
//! Games with figures beyond the score add them per seat as `"stats":{"gold":3,...}`, and a
//! seat with invalid replies counts them by reason as
//! `"invalid_reasons":{"the attack strength is not 1, 2 or 3":4}`.
//!
//! The header also records the tournament's `bounds` (see
//! [`Bounds`](arena_games::Bounds)): the range of a seat's score and how many invalid replies
//! one request can count, which every game is checked against.
//!
//! Game lines appear in completion order; readers order them by `index`. Players built into
//! a game (AlienWar's prey) follow the bots' seats, marked `"built_in":true`.

mod check;
mod error;
#[cfg(test)]
mod fixtures;
mod reader;
mod records;
mod versions;
mod writer;

pub use error::JournalError;
pub use reader::{Journal, JournalReader};
pub use records::{GameRecord, Header, OVERSIZED_REASON, Record, Sandboxing, SeatRecord};
pub use versions::BotVersions;
pub use writer::JournalWriter;

/// Bumped whenever a field changes meaning.
pub const FORMAT_VERSION: u32 = 2;

/// The journal's file name inside a results folder.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// How every journal starts: its header line's first bytes.
pub const HEADER_START: &[u8] = br#"{"type":"header""#;

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};

    use super::fixtures::{game, header, journal_with, line};
    use super::*;
    use arena_games::engine::GameResult;
    use arena_games::{Bounds, Pairing};

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
