//! Errors that end a run, and the exit codes they map to (documented in `--help` and the
//! README). Bot misbehaviour is never an error here: it is data in the results.

use thiserror::Error;

use crate::config::ConfigError;
use crate::journal::JournalError;
use crate::merge::MergeError;
use crate::replay::ReplayError;

/// Exit status of a successful run.
pub const EXIT_OK: u8 = 0;
/// Exit status when the run failed for a reason outside the tournament file (I/O, journal).
pub const EXIT_FAILURE: u8 = 1;
/// Exit status for a bad command line, tournament file, journal, replay file or set of shards;
/// nothing was changed.
pub const EXIT_USAGE: u8 = 2;
/// Exit status under `--strict` when a bot timed out, crashed or sent an invalid reply, and of
/// `arena check` when a reply was not valid.
pub const EXIT_STRICT: u8 = 3;
/// Exit status of an `--sprt` run that accepted H0 (the candidate is not elo1 stronger).
pub const EXIT_SPRT_H0: u8 = 4;
/// Exit status of an `--sprt` run whose games ran out before either bound was reached.
pub const EXIT_SPRT_UNDECIDED: u8 = 5;

/// Why a command failed.
#[derive(Debug, Error)]
pub enum Error {
    /// The tournament file is wrong.
    #[error("{0}")]
    Config(#[from] ConfigError),
    /// The journal cannot be written or read.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// Journals that are not the complete shards of one tournament.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// A replay file that cannot be read.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A command line that cannot be carried out (a bot program that does not exist, a file
    /// that `arena new` would overwrite); nothing was started.
    #[error("{0}")]
    Usage(String),
    /// Anything else that stops the run (creating the results folder, writing output).
    #[error("{0:#}")]
    Other(#[from] anyhow::Error),
}

impl Error {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Journal(error) | Error::Merge(MergeError::Journal(error)) => match error {
                // No journal where the command line points is the command line's mistake.
                JournalError::Io { source, .. }
                    if matches!(
                        source.kind(),
                        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                    ) =>
                {
                    EXIT_USAGE
                }
                JournalError::Io { .. } => EXIT_FAILURE,
                _ => EXIT_USAGE,
            },
            Error::Config(_)
            | Error::Usage(_)
            | Error::Merge(MergeError::Shards { .. })
            | Error::Replay(_) => EXIT_USAGE,
            Error::Other(_) => EXIT_FAILURE,
        }
    }
}
