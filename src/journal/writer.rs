//! Writing a journal as a run plays: creating it with its header, appending each game as it
//! finishes, and reopening it to resume a stopped run. Kept apart from the reader because
//! only a run writes a journal this way, and what it writes must outlast a crash (each line
//! handed to the system at once and synced every few seconds, a torn last line cut off).

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{BotVersions, GameRecord, Header, JournalError, JournalReader, Record};

/// Appends records to a journal file, one line each, handed to the operating system at once
/// (a killed runner loses nothing) and synced to disk every [`JournalWriter::SYNC_EVERY`] and
/// by [`JournalWriter::sync`] (a machine that goes down loses at most that much).
#[derive(Debug)]
pub struct JournalWriter {
    path: PathBuf,
    file: File,
    synced: Instant,
}

impl JournalWriter {
    /// How long appended games may wait for a sync to disk.
    pub const SYNC_EVERY: Duration = Duration::from_secs(5);

    fn new(path: &Path, file: File) -> JournalWriter {
        JournalWriter {
            path: path.to_path_buf(),
            file,
            synced: Instant::now(),
        }
    }

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
        let mut writer = JournalWriter::new(path, file);
        writer.append(&Record::Header(header))?;
        writer.sync()?;
        // The new file's name lasts only once its folder is synced too.
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        File::open(folder.unwrap_or(Path::new(".")))
            .and_then(|folder| folder.sync_all())
            .map_err(|source| writer.io_error(source))?;
        Ok(writer)
    }

    /// Reopens the journal at `path` to continue the run described by `expected`, whose bots
    /// have the digests `bots` (by name): refuses a journal of another tournament, with any
    /// record that is not one of its games, or with games of another version of a bot (see
    /// [`BotVersions`]), cuts off a last line torn by a crash (that game is played again)
    /// and returns the indexes of the games already finished, handing each to `each` as it
    /// reads it (the journal is read once). A refused journal is left as it was, byte for
    /// byte.
    pub fn resume(
        path: &Path,
        expected: &Header,
        bots: &BTreeMap<String, String>,
        mut each: impl FnMut(&GameRecord),
    ) -> Result<(JournalWriter, BTreeSet<u64>), JournalError> {
        let mut reader = JournalReader::open(path).map_err(|error| match error {
            JournalError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound => {
                JournalError::Missing {
                    path: path.to_path_buf(),
                }
            }
            other => other,
        })?;
        if let Some(mut why) = reader.header().mismatch(expected) {
            if reader.header().bots != expected.bots {
                why.push_str(
                    "\n(hint: a run of some of the file's bots resumes with the same --bots, \
                     --exclude or --gauntlet; the command printed when it stopped has them)",
                );
            }
            return Err(JournalError::Mismatch {
                path: path.to_path_buf(),
                why,
            });
        }
        let mut versions = BotVersions::default();
        let done = reader
            .by_ref()
            .map(|game| {
                game.map(|game| {
                    versions.note(&game);
                    each(&game);
                    game.index
                })
            })
            .collect::<Result<_, _>>()?;
        let changes: Vec<String> = versions
            .differing(bots)
            .map(|(bot, then)| {
                format!(
                    "  - bot `{}`: its games there record digest {}, it is {} now (a file \
                     under its `dir`, or its command, environment, limits or sandbox changed)",
                    bot.escape_debug(),
                    then.join(" and "),
                    bots[bot]
                )
            })
            .collect();
        if !changes.is_empty() {
            return Err(JournalError::BotsChanged {
                path: path.to_path_buf(),
                changes,
            });
        }
        let complete = reader.lines.complete_bytes;
        let io_error = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_error)?;
        if file.metadata().map_err(io_error)?.len() > complete {
            tracing::warn!("{}: dropping a torn last line", path.display());
            file.set_len(complete).map_err(io_error)?;
        }
        Ok((JournalWriter::new(path, file), done))
    }

    /// Appends one record as one line and flushes it to the operating system.
    pub fn append(&mut self, record: &Record) -> Result<(), JournalError> {
        self.file
            .write_all(&line_of(record))
            .map_err(|source| self.io_error(source))?;
        if self.synced.elapsed() >= Self::SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Syncs every line appended so far to disk.
    pub fn sync(&mut self) -> Result<(), JournalError> {
        self.file
            .sync_data()
            .map_err(|source| self.io_error(source))?;
        self.synced = Instant::now();
        Ok(())
    }

    fn io_error(&self, source: io::Error) -> JournalError {
        JournalError::Io {
            path: self.path.clone(),
            source,
        }
    }
}

/// `record` as one journal line.
pub(super) fn line_of(record: &Record) -> Vec<u8> {
    let mut line = serde_json::to_vec(record).expect("journal records always serialize");
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::fixtures::{game, header, journal_with, line};
    use crate::journal::{HEADER_START, Journal};

    #[test]
    fn a_refused_resume_leaves_the_journal_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let mut beyond = game(1);
        beyond.index = 9;
        let path = journal_with(dir.path(), &[line(&game(0)), line(&beyond)]);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"type\":\"ga").unwrap();
        let before = std::fs::read(&path).unwrap();
        let error = JournalWriter::resume(&path, &header(), &BTreeMap::new(), |_| {}).unwrap_err();
        assert!(
            matches!(error, JournalError::Invalid { line: 3, .. }),
            "{error}"
        );
        let other = Header {
            seed: 5,
            ..header()
        };
        assert!(JournalWriter::resume(&path, &other, &BTreeMap::new(), |_| {}).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn a_resume_with_a_changed_bot_is_refused_and_changes_no_byte() {
        let dir = tempfile::tempdir().unwrap();
        let mut played = game(0);
        for seat in &mut played.seats {
            seat.digest = Some(format!("{}1", seat.bot));
        }
        let path = journal_with(dir.path(), &[line(&played)]);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"type\":\"ga").unwrap();
        let before = std::fs::read(&path).unwrap();
        let digests =
            |b: &str| BTreeMap::from([("a", "a1"), ("b", b)].map(|(k, v)| (k.into(), v.into())));
        let error = JournalWriter::resume(&path, &header(), &digests("b2"), |_| {})
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("\n  - bot `b`: its games there record digest b1, it is b2 now")
                && !error.contains("bot `a`"),
            "{error}"
        );
        let hint = format!("start a new run with --reuse {}", dir.path().display());
        assert!(error.ends_with(&format!("{hint})")), "{error}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        assert!(JournalWriter::resume(&path, &header(), &digests("b1"), |_| {}).is_ok());
    }

    #[test]
    fn a_journal_starts_with_its_header_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with(dir.path(), &[]);
        assert!(std::fs::read(&path).unwrap().starts_with(HEADER_START));
    }

    #[test]
    fn resuming_drops_a_torn_line_and_lists_the_finished_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut writer = JournalWriter::create(&path, header()).unwrap();
        writer.append(&Record::Game(game(1))).unwrap();
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"type\":\"game\",\"da").unwrap();
        let (mut writer, done) =
            JournalWriter::resume(&path, &header(), &BTreeMap::new(), |_| {}).unwrap();
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
        let error = JournalWriter::resume(&path, &other, &BTreeMap::new(), |_| {}).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("the seed is 1 in the journal but 2 now"),
            "{error}"
        );
        assert!(!error.to_string().contains("--bots"), "{error}");
        // A run of fewer bots: the hint says how it resumes.
        let mut fewer = header();
        fewer.bots.pop();
        let error = JournalWriter::resume(&path, &fewer, &BTreeMap::new(), |_| {}).unwrap_err();
        assert!(
            error.to_string().contains("the bot list is ")
                && error.to_string().contains("resumes with the same --bots"),
            "{error}"
        );
        let other = Header {
            config_digest: "def".into(),
            ..header()
        };
        assert!(matches!(
            JournalWriter::resume(&path, &other, &BTreeMap::new(), |_| {}),
            Err(JournalError::Mismatch { .. })
        ));
        // A changed `timeout_ms` changes the rules' digest.
        let other = Header {
            rules: Some("other".into()),
            ..header()
        };
        let error = JournalWriter::resume(&path, &other, &BTreeMap::new(), |_| {}).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("the time, reply or output limits changed"),
            "{error}"
        );
    }
}
