//! Stderr is advisory: logs, progress and warnings are for a person watching, while the
//! results are the files a run writes and what it prints on stdout. A line that cannot be
//! written (stderr closed, its reader gone as in `2>&1 | head`, or `2>/dev/full`) is dropped,
//! never an error: `eprint!` panics on such a failure, and a run that panicked at its last
//! log line lost its leaderboard. Everything `arena` writes to stderr goes through
//! [`write()`]: the log lines (through [`crate::progress::LogWriter`]) and the notices.

use std::io::{self, Write};

/// Writes `bytes` to stderr, or as much of them as it takes, and drops the rest if it
/// fails. Rust ignores SIGPIPE, so a reader that is gone shows here as an `EPIPE` error,
/// dropped like any other.
pub fn write(bytes: &[u8]) {
    let _ = io::stderr().lock().write_all(bytes);
}
