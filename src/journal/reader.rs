//! Reading a journal back: the whole of it at once ([`Journal`]) or one game at a time
//! ([`JournalReader`]), each game checked against the tournament its header describes.
//! Kept apart from the writer because everything computed from a journal (leaderboards,
//! merges, reuse) only reads it, and reading must stand up to files no `arena` wrote: torn,
//! repeated, forged or endless lines.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::fnv::fnv1a;

use super::check::Expected;
use super::writer::line_of;
use super::{GameRecord, Header, JournalError, Record};

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
/// describes (see [`check`](super::check)). A last line without its newline is a write cut short
/// by a crash and ends the games; any other unreadable line, and any game that is not one of the
/// tournament's, is an error naming its line, after which the reader goes on with the next
/// line (a reader that must not go on stops at the first error), except after a line too
/// long to be a journal's, which ends the games too (see [`Lines::next`]). A game is never given
/// twice, even if a journal was concatenated by hand: the first record of an index counts.
/// A later record of a game that differs from the first is an error too, given once the
/// whole file is read: two results for one game are a forgery or a mix-up, never a game
/// played again.
#[derive(Debug)]
pub struct JournalReader {
    pub(super) lines: Lines,
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

/// Whether the file at `path` begins as a leaderboard written by arena does (a results
/// folder's `leaderboard.json`, often given where its journal is meant): its first fields
/// are the game's and the count of games played, which no journal record has.
fn is_a_leaderboard(path: &Path) -> bool {
    let mut start = Vec::new();
    let read = File::open(path).and_then(|file| file.take(4096).read_to_end(&mut start));
    let start = String::from_utf8_lossy(&start);
    read.is_ok()
        && start.trim_start().starts_with('{')
        && start.contains("\"games_played\":")
        && start.contains("\"leaderboard\":")
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
            Err(JournalError::Corrupt { .. }) if is_a_leaderboard(path) => {
                return Err(lines.corrupt(
                    "this is a run's leaderboard (`leaderboard.json`), not its journal: give the \
                     results folder, or the `journal.jsonl` in it"
                        .to_owned(),
                ));
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
pub(super) struct Lines {
    path: PathBuf,
    reader: BufReader<File>,
    line: Vec<u8>,
    /// 1-based number of the last line read.
    number: usize,
    /// The bytes of the lines read that end in a newline: where a torn last line starts.
    pub(super) complete_bytes: u64,
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
    use std::fs::OpenOptions;
    use std::io::Write;
    use std::time::Duration;

    use super::*;
    use crate::journal::JournalWriter;
    use crate::journal::fixtures::{game, header, journal_with, line};
    use arena_games::engine::GameResult;

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
