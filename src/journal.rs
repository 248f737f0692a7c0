//! The results journal: append-only JSON Lines, one record per line, flushed as each game
//! finishes, so a crash loses at most the games still running. Leaderboards are computed
//! from the journal, never from in-memory state.
//!
//! Every line is an object `{"type": ..., "data": {...}}`. The first line is a `header`;
//! each further line is a `game`:
//!
//! ```text
//! {"type":"header","data":{"format_version":1,"arena_version":"0.1.0","game":"petri","seed":1,"games":100,"bots":["a","b"],"total_games":100,"config_digest":"5f0c…"}}
//! {"type":"game","data":{"index":0,"seed":123,"summary":"...","duration_ms":84,"seats":[{"bot":"a","score":1,"result":"win","requests":40,"timeouts":0,"crashes":0,"invalid_replies":0},{"bot":"b",...}]}}
//! ```
//!
//! Games with figures beyond the score add them per seat as `"stats":{"gold":3,...}`.
//!
//! Game lines appear in completion order; readers order them by `index`. Players built into
//! a game (AlienWar's prey) follow the bots' seats, marked `"built_in":true`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::GameResult;
use crate::shard::Shard;

/// Bumped whenever a field changes meaning.
pub const FORMAT_VERSION: u32 = 1;

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
    /// Whether the bots ran in sandboxes; absent in journals older than the sandbox.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<Sandboxing>,
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
    /// How `self` (a journal's header) differs from `expected` in what matters for resuming,
    /// or `None` if a run described by `expected` may continue it.
    pub fn mismatch(&self, expected: &Header) -> Option<String> {
        let differs = |what: &str, found: String, wanted: String| {
            (found != wanted).then(|| format!("{what} is {found} in the journal but {wanted} now"))
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
            (self.config_digest != expected.config_digest)
                .then(|| "the tournament file's options or bot commands changed".to_owned())
        })
        .or_else(|| {
            let shard = |shard: Option<Shard>| shard.map_or("all".to_owned(), |s| s.to_string());
            differs("the shard", shard(self.shard), shard(expected.shard))
        })
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
    /// A player built into the engine (AlienWar's prey), not a bot: it has no process and
    /// is not in the header's bot list.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub built_in: bool,
    /// The game's named figures beyond the score (see `SeatOutcome::stats`); absent for
    /// games without them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, i64>,
}

/// A journal that cannot be written or read.
#[derive(Debug, Error)]
pub enum JournalError {
    /// The file could not be created, written or read.
    #[error("journal {}: {source}", path.display())]
    Io {
        /// The journal file.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// A line is not a journal record.
    #[error("journal {}:{line}: not a journal record: {message}", path.display())]
    Corrupt {
        /// The journal file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What the parser said.
        message: String,
    },
    /// There is no journal where a run was to be resumed.
    #[error(
        "no journal to resume at {}\n(hint: --resume takes the results folder of the interrupted run)",
        path.display()
    )]
    Missing {
        /// Where the journal was looked for.
        path: PathBuf,
    },
    /// The journal belongs to another tournament.
    #[error("journal {} belongs to another tournament: {why}", path.display())]
    Mismatch {
        /// The journal file.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// The file does not start with a header.
    #[error("journal {}: no header line (is this an arena journal?)", path.display())]
    NoHeader {
        /// The journal file.
        path: PathBuf,
    },
}

/// Appends records to a journal file, one flushed line each.
#[derive(Debug)]
pub struct JournalWriter {
    path: PathBuf,
    file: File,
}

impl JournalWriter {
    /// Creates `path` (which must not exist yet) and writes the header.
    pub fn create(path: &Path, header: Header) -> Result<JournalWriter, JournalError> {
        let io_error = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)
            .map_err(io_error)?;
        let mut writer = JournalWriter {
            path: path.to_path_buf(),
            file,
        };
        writer.append(&Record::Header(header))?;
        Ok(writer)
    }

    /// Reopens the journal at `path` to continue the run described by `expected`: refuses a
    /// journal of another tournament, cuts off a last line torn by a crash (that game is played
    /// again) and returns the indexes of the games already finished.
    pub fn resume(
        path: &Path,
        expected: &Header,
    ) -> Result<(JournalWriter, BTreeSet<u64>), JournalError> {
        let io_error = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bytes = std::fs::read(path).map_err(|source| match source.kind() {
            io::ErrorKind::NotFound => JournalError::Missing {
                path: path.to_path_buf(),
            },
            _ => io_error(source),
        })?;
        let complete = bytes
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |end| end + 1);
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_error)?;
        if complete < bytes.len() {
            tracing::warn!("{}: dropping a torn last line", path.display());
            file.set_len(complete as u64).map_err(io_error)?;
        }
        let mut reader = JournalReader::open(path)?;
        let done = reader
            .by_ref()
            .map(|game| game.map(|game| game.index))
            .collect::<Result<_, _>>()?;
        if let Some(why) = reader.header.mismatch(expected) {
            return Err(JournalError::Mismatch {
                path: path.to_path_buf(),
                why,
            });
        }
        let writer = JournalWriter {
            path: path.to_path_buf(),
            file,
        };
        Ok((writer, done))
    }

    /// Appends one record as one line and flushes it to the operating system.
    pub fn append(&mut self, record: &Record) -> Result<(), JournalError> {
        let mut line = serde_json::to_vec(record).expect("journal records always serialize");
        line.push(b'\n');
        self.file
            .write_all(&line)
            .map_err(|source| JournalError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

/// A journal read back: its header and its games, ordered by index.
#[derive(Debug, Clone, PartialEq)]
pub struct Journal {
    /// The tournament.
    pub header: Header,
    /// The finished games, by index.
    pub games: Vec<GameRecord>,
}

impl Journal {
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
/// from it need not hold its records. A last line without its newline is a write cut short
/// by a crash and ends the games; any other unreadable line is an error. A game is never
/// given twice, even if a journal was concatenated by hand: the first record of an index
/// counts.
#[derive(Debug)]
pub struct JournalReader {
    lines: Lines,
    header: Header,
    seen: SeenGames,
    /// Past the last game, or past an error.
    finished: bool,
}

impl JournalReader {
    /// Opens the journal at `path` and reads its header.
    pub fn open(path: &Path) -> Result<JournalReader, JournalError> {
        let file = File::open(path).map_err(|source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut lines = Lines {
            path: path.to_path_buf(),
            reader: BufReader::new(file),
            line: String::new(),
            number: 0,
        };
        let header = match lines.next()? {
            Some(Record::Header(header)) => header,
            Some(Record::Game(_)) => return Err(lines.out_of_place()),
            None => {
                return Err(JournalError::NoHeader {
                    path: path.to_path_buf(),
                });
            }
        };
        Ok(JournalReader {
            lines,
            header,
            seen: SeenGames::default(),
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
                    if self.seen.insert(game.index, self.header.total_games) {
                        return Ok(Some(game));
                    }
                }
                Some(Record::Header(_)) => return Err(self.lines.out_of_place()),
                None => return Ok(None),
            }
        }
    }
}

impl Iterator for JournalReader {
    type Item = Result<GameRecord, JournalError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let next = self.next_game().transpose();
        self.finished = !matches!(next, Some(Ok(_)));
        next
    }
}

/// The records of a journal file, line by line.
#[derive(Debug)]
struct Lines {
    path: PathBuf,
    reader: BufReader<File>,
    line: String,
    /// 1-based number of the last line read.
    number: usize,
}

impl Lines {
    /// The next record; `None` at the end of the file or at a torn last line.
    fn next(&mut self) -> Result<Option<Record>, JournalError> {
        self.line.clear();
        self.number += 1;
        self.reader
            .read_line(&mut self.line)
            .map_err(|source| JournalError::Io {
                path: self.path.clone(),
                source,
            })?;
        if !self.line.ends_with('\n') {
            return Ok(None);
        }
        serde_json::from_str(self.line.trim_end())
            .map(Some)
            .map_err(|error| JournalError::Corrupt {
                path: self.path.clone(),
                line: self.number,
                message: error.to_string(),
            })
    }

    /// The error of a record where it cannot be: a header after the first line, a game
    /// before the header.
    fn out_of_place(&self) -> JournalError {
        JournalError::Corrupt {
            path: self.path.clone(),
            line: self.number,
            message: "record out of place".into(),
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
    use super::*;

    fn header() -> Header {
        Header {
            format_version: FORMAT_VERSION,
            arena_version: "test".into(),
            game: "petri".into(),
            seed: 1,
            games: 2,
            bots: vec!["a".into(), "b".into()],
            total_games: 2,
            config_digest: "abc".into(),
            shard: None,
            sandbox: None,
        }
    }

    fn game(index: u64) -> GameRecord {
        let seat = |bot: &str, score| SeatRecord {
            bot: bot.into(),
            score,
            result: Some(if score == 1 {
                GameResult::Win
            } else {
                GameResult::Loss
            }),
            requests: 3,
            timeouts: 0,
            crashes: 0,
            invalid_replies: 1,
            built_in: false,
            stats: BTreeMap::from([("gold".to_owned(), score)]),
        };
        GameRecord {
            index,
            seed: 9,
            summary: "done".into(),
            duration_ms: 1,
            seats: vec![seat("a", 1), seat("b", 0)],
        }
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
    fn resuming_drops_a_torn_line_and_lists_the_finished_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut writer = JournalWriter::create(&path, header()).unwrap();
        writer.append(&Record::Game(game(1))).unwrap();
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"type\":\"game\",\"da").unwrap();
        let (mut writer, done) = JournalWriter::resume(&path, &header()).unwrap();
        assert_eq!(done, BTreeSet::from([1]));
        writer.append(&Record::Game(game(0))).unwrap();
        assert_eq!(Journal::read(&path).unwrap().games, vec![game(0), game(1)]);
    }

    #[test]
    fn resuming_refuses_another_tournament() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        JournalWriter::create(&path, header()).unwrap();
        let other = Header {
            seed: 2,
            ..header()
        };
        let error = JournalWriter::resume(&path, &other).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("the seed is 1 in the journal but 2 now"),
            "{error}"
        );
        let other = Header {
            config_digest: "def".into(),
            ..header()
        };
        assert!(matches!(
            JournalWriter::resume(&path, &other),
            Err(JournalError::Mismatch { .. })
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
    fn a_file_without_header_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        std::fs::write(&path, b"").unwrap();
        assert!(matches!(
            Journal::read(&path),
            Err(JournalError::NoHeader { .. })
        ));
    }
}
