//! A results folder: the journal, leaderboard, replays and private folders of one run. One
//! run at a time uses a folder: it holds an exclusive advisory lock on the folder for as long
//! as it runs, so a second run or resume on it is refused instead of playing the same games
//! again. Files written whole (the leaderboard, a replay, a merged journal) are written to a
//! temporary name, synced and renamed: a kill at any moment leaves the old file or the new
//! one, never a part.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::errors::Error;
use crate::journal::{JOURNAL_FILE, JournalError};

/// The leaderboard's file name inside a results folder, written when a run is over.
pub const LEADERBOARD_FILE: &str = "leaderboard.json";

/// The folder of the replay files inside a results folder.
pub const REPLAYS_DIR: &str = "replays";

/// The replay file of game `index` inside the results folder `out`.
pub fn replay_path(out: &Path, index: u64) -> PathBuf {
    out.join(REPLAYS_DIR).join(format!("game-{index}.jsonl"))
}

/// Whether a run starts a new journal or continues one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Create the journal; the folder must not hold one.
    Fresh,
    /// Continue the journal in the folder, skipping its finished games.
    Resume,
}

/// A results folder claimed by this process for one run (see the module's documentation).
/// The lock lasts as long as the value.
#[derive(Debug)]
pub struct ResultsFolder {
    path: PathBuf,
    start: Start,
    _lock: File,
}

impl ResultsFolder {
    /// Claims `path` for a run: for [`Start::Fresh`], a folder without a journal (created if
    /// missing); for [`Start::Resume`], the folder of the run to continue. Refused if another
    /// run holds it.
    pub fn claim(path: &Path, start: Start) -> Result<ResultsFolder, Error> {
        let journal = path.join(JOURNAL_FILE);
        if start == Start::Fresh {
            refuse_a_journal(path)?;
            std::fs::create_dir_all(path)
                .with_context(|| format!("cannot create the results folder {}", path.display()))?;
        }
        let folder = File::open(path).map_err(|error| match error.kind() {
            io::ErrorKind::NotFound if start == Start::Resume => {
                Error::Journal(JournalError::Missing { path: journal })
            }
            _ => anyhow::Error::new(error)
                .context(format!("cannot open the results folder {}", path.display()))
                .into(),
        })?;
        lock(&folder, path)?;
        // Checked again under the lock: a run that started meanwhile has made its journal.
        if start == Start::Fresh {
            refuse_a_journal(path)?;
        }
        Ok(ResultsFolder {
            path: path.to_path_buf(),
            start,
            _lock: folder,
        })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the run starts a journal or continues one.
    pub fn start(&self) -> Start {
        self.start
    }

    /// The journal in the folder.
    pub fn journal(&self) -> PathBuf {
        self.path.join(JOURNAL_FILE)
    }
}

/// A fresh run in a folder that holds a journal would mix two runs' games.
fn refuse_a_journal(path: &Path) -> Result<(), Error> {
    if path.join(JOURNAL_FILE).exists() {
        return Err(Error::Usage(format!(
            "{} already holds the journal of a run: give --out another folder (or, to \
             continue that run, `arena run` it with --resume {0})",
            path.display()
        )));
    }
    Ok(())
}

/// Takes the exclusive lock on the open `folder` at `path`, without waiting.
fn lock(folder: &File, path: &Path) -> Result<(), Error> {
    // SAFETY: flock on a descriptor we own; it only changes the lock state.
    if unsafe { libc::flock(folder.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    if error.kind() == io::ErrorKind::WouldBlock {
        return Err(Error::Usage(format!(
            "{} is in use by another arena run; wait for it to end, or give another folder",
            path.display()
        )));
    }
    Err(anyhow::Error::new(error)
        .context(format!("cannot lock the results folder {}", path.display()))
        .into())
}

/// Writes `bytes` to `path` whole: into a temporary file beside it, synced to disk, then
/// renamed over `path`, and the folder synced so the rename lasts too.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("not a file name"))?;
    let partial = path.with_file_name(format!(
        ".{}.partial-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = File::create(&partial).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    let renamed = written.and_then(|()| std::fs::rename(&partial, path));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    renamed?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    File::open(parent)?.sync_all()
}

/// Whether `a` and `b` are one file (the same device and inode), however they are spelled
/// and through whatever links: a command refuses to write its output over one of its
/// inputs. A path that names no file is no other file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_is_known_by_any_of_its_names_and_never_by_a_missing_one() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game-0.jsonl");
        let other = dir.path().join("game-1.jsonl");
        std::fs::write(&file, "a").unwrap();
        std::fs::write(&other, "a").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let hard_link = dir.path().join("hard");
        std::fs::hard_link(&file, &hard_link).unwrap();
        let symlink = dir.path().join("soft");
        std::os::unix::fs::symlink(&file, &symlink).unwrap();
        let roundabout = dir.path().join("sub/../game-0.jsonl");
        for name in [&file, &hard_link, &symlink, &roundabout] {
            assert!(same_file(&file, name), "{}", name.display());
        }
        let missing = dir.path().join("missing");
        for name in [&other, &missing] {
            assert!(!same_file(&file, name), "{}", name.display());
        }
        assert!(!same_file(&missing, &missing));
    }

    #[test]
    fn a_folder_is_claimed_by_one_run_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let first = ResultsFolder::claim(&out, Start::Fresh).unwrap();
        let error = ResultsFolder::claim(&out, Start::Resume).unwrap_err();
        assert!(
            error.to_string().contains("is in use by another arena run"),
            "{error}"
        );
        drop(first);
        ResultsFolder::claim(&out, Start::Resume).unwrap();
    }

    #[test]
    fn a_fresh_run_refuses_a_folder_with_a_journal_and_a_resume_needs_one() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(JOURNAL_FILE), "").unwrap();
        let error = ResultsFolder::claim(dir.path(), Start::Fresh).unwrap_err();
        assert!(error.to_string().contains("with --resume"), "{error}");
        let missing = dir.path().join("nothing");
        let error = ResultsFolder::claim(&missing, Start::Resume).unwrap_err();
        assert!(
            matches!(error, Error::Journal(JournalError::Missing { .. })),
            "{error}"
        );
        assert!(!missing.exists());
    }

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("leaderboard.json");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["leaderboard.json"]);
    }
}
