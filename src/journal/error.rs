//! Why a journal cannot be written or read: one error for the writer and the reader alike,
//! in a file of its own because callers match on its variants (a missing journal, a bad
//! line, a failed read) whichever of the two gave it.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

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
    #[error("{}:{line}: not a journal record: {message}", path.display())]
    Corrupt {
        /// The journal file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What the parser said.
        message: String,
    },
    /// A record that is not one of the tournament's: a header describing no schedule this
    /// `arena` makes, or a game its header's schedule does not have.
    #[error("{}:{line}: {why}", path.display())]
    Invalid {
        /// The journal file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong, in a sentence.
        why: String,
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
    /// The journal's games were played with other versions of some bots than a resume would
    /// play the rest with.
    #[error(
        "journal {} holds games of other versions of bots than this run's:\n{}\n\
         A resume plays every game with the same bots: nothing was played, and the journal is \
         as it was.\n(hint: to keep the games of the bots that did not change, start a new run \
         with --reuse {})",
        path.display(),
        changes.join("\n"),
        path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).display()
    )]
    BotsChanged {
        /// The journal file.
        path: PathBuf,
        /// One line per changed bot.
        changes: Vec<String>,
    },
}
