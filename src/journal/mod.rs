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

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::fnv::fnv1a;

mod check;
mod error;
#[cfg(test)]
mod fixtures;
mod records;
mod versions;
mod writer;

use check::Expected;
pub use error::JournalError;
pub use records::{GameRecord, Header, OVERSIZED_REASON, Record, Sandboxing, SeatRecord};
pub use versions::BotVersions;
pub use writer::JournalWriter;
use writer::line_of;

/// Bumped whenever a field changes meaning.
pub const FORMAT_VERSION: u32 = 2;

/// The journal's file name inside a results folder.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// How every journal starts: its header line's first bytes.
pub const HEADER_START: &[u8] = br#"{"type":"header""#;

/// A journal read back: its header and its games, ordered by index.
#[derive(Debug, Clone, PartialEq)]
pub struct Journal {
    /// The tournament.
    pub header: Header,
    /// The finished games, by index.
    pub games: Vec<GameRecord>,
}

impl Journal {
    /// The journal's file contents: its header line, then its games in index order.
    pub fn to_jsonl(&self) -> Vec<u8> {
        let mut text = line_of(&Record::Header(self.header.clone()));
        for game in &self.games {
            text.extend(line_of(&Record::Game(game.clone())));
        }
        text
    }

    /// Reads a whole journal (see [`JournalReader`]).
    pub fn read(path: &Path) -> Result<Journal, JournalError> {
        let mut reader = JournalReader::open(path)?;
        let mut games = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
        games.sort_by_key(|game| game.index);
        Ok(Journal {
            header: reader.header,
            games,
        })
    }
}

/// A journal read one game at a time, in file (completion) order, so that what is computed
/// from it need not hold its records. Every game is checked against the schedule its header
/// describes (see [`check`]). A last line without its newline is a write cut short by a
/// crash and ends the games; any other unreadable line, and any game that is not one of the
/// tournament's, is an error naming its line, after which the reader goes on with the next
/// line (a reader that must not go on stops at the first error), except after a line too
/// long to be a journal's, which ends the games too (see [`Lines::next`]). A game is never given
/// twice, even if a journal was concatenated by hand: the first record of an index counts.
/// A later record of a game that differs from the first is an error too, given once the
/// whole file is read: two results for one game are a forgery or a mix-up, never a game
/// played again.
#[derive(Debug)]
pub struct JournalReader {
    lines: Lines,
    header: Header,
    expected: Expected,
    seen: SeenGames,
    /// The records of games read before, to compare with their first once the file is read.
    repeats: Vec<Repeat>,
    /// Those that differ from their first record, once compared.
    conflicts: Option<std::vec::IntoIter<JournalError>>,
    /// Past the last game, or past an error reading the file.
    finished: bool,
}

/// A record of a game read before.
#[derive(Debug)]
struct Repeat {
    index: u64,
    line: usize,
    hash: u64,
}

/// What tells two records of a game apart.
fn hash_of(game: &GameRecord) -> u64 {
    // Serializing a record cannot fail (its maps have string keys).
    fnv1a(&serde_json::to_vec(game).unwrap_or_default())
}

impl JournalReader {
    /// Opens the journal at `path` and reads its header.
    pub fn open(path: &Path) -> Result<JournalReader, JournalError> {
        let mut lines = Lines::open(path)?;
        let header = match lines.next() {
            Ok(Some(Record::Header(header))) => header,
            Ok(Some(Record::Game(game))) => {
                return Err(lines.invalid(format!(
                    "the first line must be the journal's header, but it is game {} (is the \
                     header missing, or the file not an arena journal?)",
                    game.index
                )));
            }
            Ok(None) => {
                return Err(JournalError::NoHeader {
                    path: path.to_path_buf(),
                });
            }
            Err(JournalError::Corrupt { message, .. }) => {
                return Err(lines.corrupt(format!(
                    "{message} (the first line must be the journal's header)"
                )));
            }
            Err(error) => return Err(error),
        };
        let expected = Expected::of(&header).map_err(|why| lines.invalid(why))?;
        Ok(JournalReader {
            lines,
            header,
            expected,
            seen: SeenGames::default(),
            repeats: Vec::new(),
            conflicts: None,
            finished: false,
        })
    }

    /// The tournament.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The next game not read before, `None` at the end.
    fn next_game(&mut self) -> Result<Option<GameRecord>, JournalError> {
        loop {
            match self.lines.next()? {
                Some(Record::Game(game)) => {
                    self.expected
                        .check(&game)
                        .map_err(|why| self.lines.invalid(why))?;
                    if self.seen.insert(game.index, self.header.total_games) {
                        return Ok(Some(game));
                    }
                    self.repeats.push(Repeat {
                        index: game.index,
                        line: self.lines.number,
                        hash: hash_of(&game),
                    });
                }
                Some(Record::Header(_)) => {
                    return Err(self.lines.invalid(
                        "a second header: only the first line is the journal's header \
                         (journals joined by hand? `arena merge` joins shards)"
                            .into(),
                    ));
                }
                None => return Ok(None),
            }
        }
    }

    /// The repeated games whose record differs from their first, each an error at its line.
    /// The first records are found by reading the file again, by the same rules as the first
    /// time: only a journal with repeated games pays for it, and nothing is kept per game
    /// meanwhile.
    fn conflicts(&self) -> Vec<JournalError> {
        if self.repeats.is_empty() {
            return Vec::new();
        }
        let repeated: BTreeSet<u64> = self.repeats.iter().map(|repeat| repeat.index).collect();
        let mut first: BTreeMap<u64, (usize, u64)> = BTreeMap::new();
        let mut again = match JournalReader::open(&self.lines.path) {
            Ok(again) => again,
            Err(error) => return vec![error],
        };
        loop {
            match again.next_game() {
                Ok(Some(game)) if repeated.contains(&game.index) => {
                    first.insert(game.index, (again.lines.number, hash_of(&game)));
                }
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(error @ JournalError::Io { .. }) => return vec![error],
                // Said in the first reading.
                Err(_) => {}
            }
        }
        self.repeats
            .iter()
            .filter_map(|repeat| {
                let &(line, hash) = first.get(&repeat.index)?;
                (hash != repeat.hash).then(|| JournalError::Invalid {
                    path: self.lines.path.clone(),
                    line: repeat.line,
                    why: format!(
                        "game {} is recorded again, with another result than at line {line}",
                        repeat.index
                    ),
                })
            })
            .collect()
    }
}

impl Iterator for JournalReader {
    type Item = Result<GameRecord, JournalError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(conflicts) = &mut self.conflicts {
            return conflicts.next().map(Err);
        }
        if self.finished {
            return None;
        }
        let next = self.next_game().transpose();
        self.finished = matches!(next, None | Some(Err(JournalError::Io { .. })));
        if next.is_none() {
            // The whole file is read: the repeated games can be compared with their first.
            let mut conflicts = self.conflicts().into_iter();
            let conflict = conflicts.next().map(Err);
            self.conflicts = Some(conflicts);
            return conflict;
        }
        next
    }
}

/// The records of a journal file, line by line.
#[derive(Debug)]
struct Lines {
    path: PathBuf,
    reader: BufReader<File>,
    line: Vec<u8>,
    /// 1-based number of the last line read.
    number: usize,
    /// The bytes of the lines read that end in a newline: where a torn last line starts.
    complete_bytes: u64,
    /// Past a line over [`Lines::MAX_LINE`]: the rest of the file is not read.
    abandoned: bool,
}

impl Lines {
    /// The lines of the file at `path`, from its first.
    fn open(path: &Path) -> Result<Lines, JournalError> {
        let file = File::open(path).map_err(|source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Lines {
            path: path.to_path_buf(),
            reader: BufReader::new(file),
            line: Vec::new(),
            number: 0,
            complete_bytes: 0,
            abandoned: false,
        })
    }

    /// The longest line read (a header of 10,000 long names, a game of as many seats, fit
    /// many times over): a longer one is not read into memory.
    const MAX_LINE: u64 = 64 << 20;

    /// The next record; `None` at the end of the file, at a torn last line, and after a line
    /// over [`Lines::MAX_LINE`]. Such a line ends the reading: finding where it ends would
    /// mean reading on without bound (`/dev/zero` has no end, a file of gigabytes without a
    /// newline takes seconds), and a file with one is no journal an `arena` wrote.
    fn next(&mut self) -> Result<Option<Record>, JournalError> {
        if self.abandoned {
            return Ok(None);
        }
        self.line.clear();
        self.number += 1;
        let read = (&mut self.reader)
            .take(Self::MAX_LINE)
            .read_until(b'\n', &mut self.line)
            .map_err(|source| JournalError::Io {
                path: self.path.clone(),
                source,
            })?;
        if self.line.last() != Some(&b'\n') {
            if (read as u64) < Self::MAX_LINE {
                return Ok(None);
            }
            self.abandoned = true;
            return Err(self.corrupt(format!(
                "a line of more than {} MiB, far longer than a journal's lines; the rest of \
                 the file is not read",
                Self::MAX_LINE >> 20
            )));
        }
        self.complete_bytes += read as u64;
        let text = std::str::from_utf8(&self.line)
            .map_err(|error| self.corrupt(format!("not UTF-8: {error}")))?;
        serde_json::from_str(text.trim_end())
            .map(Some)
            .map_err(|error| self.corrupt(error.to_string()))
    }

    /// The error of the last line read, not a journal record.
    fn corrupt(&self, message: String) -> JournalError {
        JournalError::Corrupt {
            path: self.path.clone(),
            line: self.number,
            message,
        }
    }

    /// The error of the last line read, a record that is not one of the tournament's.
    fn invalid(&self, why: String) -> JournalError {
        JournalError::Invalid {
            path: self.path.clone(),
            line: self.number,
            why,
        }
    }
}

/// The indexes of the games read so far: a bit per game of the tournament (an arena journal
/// numbers its games below the header's total), and a set for any other index (a journal
/// edited by hand).
#[derive(Debug, Default)]
struct SeenGames {
    bits: Vec<u64>,
    others: BTreeSet<u64>,
}

impl SeenGames {
    /// The most games kept as bits (16 MiB of them); beyond, indexes go to the set.
    const MAX_BITS: u64 = 1 << 27;

    /// Records `index` of a tournament of `total` games; false if it was there already.
    fn insert(&mut self, index: u64, total: u64) -> bool {
        if index >= total.min(Self::MAX_BITS) {
            return self.others.insert(index);
        }
        let (word, bit) = ((index / 64) as usize, 1u64 << (index % 64));
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        let new = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        new
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::fs::OpenOptions;
    use std::io::Write;
    use std::time::Duration;

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

    #[test]
    fn a_reader_goes_on_after_a_bad_line_and_counts_each_game_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut beyond = game(1);
        beyond.index = 5;
        let lines = [
            line(&game(0)),
            "{not json".into(),
            line(&beyond),
            line(&game(1)),
        ];
        let path = journal_with(dir.path(), &lines);
        let read: Vec<_> = JournalReader::open(&path).unwrap().collect();
        assert_eq!(read.len(), 4);
        assert!(matches!(
            read[1],
            Err(JournalError::Corrupt { line: 3, .. })
        ));
        assert!(matches!(
            read[2],
            Err(JournalError::Invalid { line: 4, .. })
        ));
        assert_eq!(read[3].as_ref().unwrap(), &game(1));
    }

    #[test]
    fn records_round_trip_sorted_by_index() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut writer = JournalWriter::create(&path, header()).unwrap();
        writer.append(&Record::Game(game(1))).unwrap();
        writer.append(&Record::Game(game(0))).unwrap();
        let journal = Journal::read(&path).unwrap();
        assert_eq!(journal.header, header());
        assert_eq!(journal.games, vec![game(0), game(1)]);
    }

    #[test]
    fn a_torn_last_line_is_ignored_but_a_corrupt_middle_line_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut writer = JournalWriter::create(&path, header()).unwrap();
        writer.append(&Record::Game(game(0))).unwrap();
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"type\":\"game\",\"da").unwrap();
        assert_eq!(Journal::read(&path).unwrap().games, vec![game(0)]);
        file.write_all(b"\n").unwrap();
        writer.append(&Record::Game(game(1))).unwrap();
        assert!(matches!(
            Journal::read(&path),
            Err(JournalError::Corrupt { line: 3, .. })
        ));
    }

    #[test]
    fn a_game_recorded_twice_counts_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut writer = JournalWriter::create(&path, header()).unwrap();
        writer.append(&Record::Game(game(0))).unwrap();
        writer.append(&Record::Game(game(0))).unwrap();
        assert_eq!(Journal::read(&path).unwrap().games, vec![game(0)]);
    }

    #[test]
    fn a_game_recorded_again_with_another_result_is_an_error_once_the_rest_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut writer = JournalWriter::create(&path, header()).unwrap();
        // The same game, its win given to the other side.
        let mut forged = game(0);
        let outcome = [(0, GameResult::Loss), (1, GameResult::Win)];
        for (seat, (score, result)) in forged.seats.iter_mut().zip(outcome) {
            seat.score = score;
            seat.result = Some(result);
        }
        for record in [game(0), forged, game(1), game(0)] {
            writer.append(&Record::Game(record)).unwrap();
        }
        let read: Vec<_> = JournalReader::open(&path).unwrap().collect();
        assert_eq!(read.len(), 3, "{read:?}");
        assert_eq!(read[0].as_ref().unwrap(), &game(0));
        assert_eq!(read[1].as_ref().unwrap(), &game(1));
        // The forged line 3 is named; line 5, the same as the first, is not.
        let error = read[2].as_ref().unwrap_err().to_string();
        assert!(
            error.ends_with(":3: game 0 is recorded again, with another result than at line 2"),
            "{error}"
        );
        assert!(Journal::read(&path).is_err());
    }

    #[test]
    fn a_file_without_header_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        std::fs::write(&path, b"").unwrap();
        assert!(matches!(
            Journal::read(&path),
            Err(JournalError::NoHeader { .. })
        ));
    }

    #[test]
    fn a_header_missing_or_out_of_place_is_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        std::fs::write(&path, line(&game(0)) + "\n").unwrap();
        let error = Journal::read(&path).unwrap_err().to_string();
        assert!(
            error.ends_with(
                ":1: the first line must be the journal's header, but it is game 0 \
                 (is the header missing, or the file not an arena journal?)"
            ),
            "{error}"
        );
        std::fs::write(&path, "not json\n").unwrap();
        let error = Journal::read(&path).unwrap_err().to_string();
        assert!(
            error.contains(":1: not a journal record: ")
                && error.ends_with("(the first line must be the journal's header)"),
            "{error}"
        );
        let header = serde_json::to_string(&Record::Header(header())).unwrap();
        std::fs::remove_file(&path).unwrap();
        let path = journal_with(dir.path(), &[line(&game(0)), header]);
        let error = Journal::read(&path).unwrap_err().to_string();
        assert!(
            error.contains(":3: a second header: only the first line is the journal's header"),
            "{error}"
        );
    }

    #[test]
    fn a_line_over_the_cap_ends_the_reading_at_once() {
        use std::os::unix::fs::FileExt;
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), &[]);
        // A hole of zeros longer than a line may be, then a game: the reader neither reads
        // through the zeros to find the newline nor gives the game after it.
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        let after = file.metadata().unwrap().len() + Lines::MAX_LINE + 1;
        let rest = format!("\n{}\n", line(&game(0)));
        file.write_all_at(rest.as_bytes(), after).unwrap();
        let read: Vec<_> = JournalReader::open(&path).unwrap().collect();
        assert_eq!(read.len(), 1, "{read:?}");
        let error = read[0].as_ref().unwrap_err().to_string();
        assert!(
            error.contains(":2: not a journal record: a line of more than 64 MiB")
                && error.contains("the rest of the file is not read"),
            "{error}"
        );
    }

    #[test]
    fn an_endless_file_is_refused_at_once() {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(Journal::read(Path::new("/dev/zero")).map(|_| ()));
        });
        let read = receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("reading /dev/zero ends");
        let error = read.unwrap_err().to_string();
        assert!(
            error.starts_with("/dev/zero:1: not a journal record: a line of more than 64 MiB"),
            "{error}"
        );
    }
}
