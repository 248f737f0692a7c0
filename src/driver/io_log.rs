//! `--log-io DIR`: everything one bot was sent and sent back in one game, written to
//! `DIR/game-<index>/seat-<seat>-<name>.log` as it happens, so a bot's author can replay a
//! request by hand or read the stderr of a crash without a replay. Each file is cut at
//! [`MAX_LOG_BYTES`]: a bot that floods stderr or replies in megabytes cannot fill a disk.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::bots::{CallResult, CallStatus};
use crate::folders::folder_name;
use arena_games::engine::Input;

/// The most bytes one bot's log of one game takes; what would go past it is left out, with
/// a last line that says so.
pub(crate) const MAX_LOG_BYTES: u64 = 1 << 20;

/// One bot's log file for one game.
#[derive(Debug)]
pub(crate) struct IoLog {
    file: File,
    written: u64,
    requests: u32,
    cut: bool,
}

impl IoLog {
    /// Creates the log of `seat` (bot `name`) in game `index` under `dir`.
    pub(crate) fn create(dir: &Path, index: u64, seat: usize, name: &str) -> io::Result<IoLog> {
        let folder = dir.join(format!("game-{index}"));
        std::fs::create_dir_all(&folder)?;
        let file = File::create(log_path(&folder, seat, name))?;
        Ok(IoLog {
            file,
            written: 0,
            requests: 0,
            cut: false,
        })
    }

    /// Appends one request and what came of it: the exact bytes sent and received, how the
    /// request ended and the end of stderr the runner kept.
    pub(crate) fn record(&mut self, input: &Input, result: &CallResult) {
        self.requests += 1;
        let mut entry = Vec::new();
        let (how, sent) = match input {
            Input::Stdin(bytes) => ("on stdin, then end of input", bytes.clone()),
            Input::Args(args) => ("as arguments", args.join(" ").into_bytes()),
            Input::Session(bytes) => ("on the persistent process's stdin", bytes.clone()),
        };
        let _ = writeln!(
            entry,
            "=== request {} ({how}, {} bytes)",
            self.requests,
            sent.len()
        );
        entry.extend_from_slice(&sent);
        let status = match &result.status {
            CallStatus::Replied { exit } => format!("replied, {exit}"),
            CallStatus::TimedOut => "timed out".to_owned(),
            CallStatus::TooLong => "reply over the size cap, discarded".to_owned(),
            CallStatus::SpawnFailed(error) => format!("cannot start: {error}"),
            CallStatus::RunnerFault(fault) => format!("the runner failed: {fault}"),
            CallStatus::Died { exit } => format!("ended without replying, {exit}"),
            CallStatus::SessionGone => "its persistent process had ended".to_owned(),
        };
        let _ = writeln!(
            entry,
            "\n=== reply in {} ms ({status}, {} bytes)",
            result.elapsed.as_millis(),
            result.output.len()
        );
        entry.extend_from_slice(&result.output);
        if !result.stderr.is_empty() {
            entry.extend_from_slice(b"\n=== stderr (its end)\n");
            entry.extend_from_slice(&result.stderr);
        }
        entry.push(b'\n');
        self.append(&entry);
    }

    /// Writes `bytes` within the cap; a failed write stops the log, not the game.
    fn append(&mut self, bytes: &[u8]) {
        if self.cut {
            return;
        }
        let room = MAX_LOG_BYTES - self.written;
        let fits = (bytes.len() as u64).min(room) as usize;
        let mut ok = self.file.write_all(&bytes[..fits]).is_ok();
        self.written += fits as u64;
        if fits < bytes.len() {
            let note = format!("\n=== cut: this log reached its {MAX_LOG_BYTES} bytes\n");
            ok = ok && self.file.write_all(note.as_bytes()).is_ok();
            self.cut = true;
        }
        if !ok {
            self.cut = true;
        }
    }
}

/// `folder/seat-<seat>-<name>.log`, the name made safe for a file name; the seat keeps two
/// names that read the same as file names apart.
fn log_path(folder: &Path, seat: usize, name: &str) -> PathBuf {
    folder.join(format!("seat-{seat}-{}.log", folder_name(name)))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::bots::Exit;

    #[test]
    fn requests_replies_and_stderr_are_logged_and_the_log_is_cut_at_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let mut log = IoLog::create(dir.path(), 3, 1, "my bot/1").unwrap();
        let reply = CallResult {
            output: b"REST".to_vec(),
            status: CallStatus::Replied {
                exit: Exit::Success,
            },
            elapsed: Duration::from_millis(12),
            stderr: b"thinking\n".to_vec(),
        };
        log.record(&Input::Stdin(b"5 3\n".to_vec()), &reply);
        let path = dir.path().join("game-3/seat-1-my_bot_1.log");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("=== request 1 (on stdin, then end of input, 4 bytes)\n5 3\n\n"),
            "{text}"
        );
        assert!(text.contains("=== reply in 12 ms (replied, "), "{text}");
        assert!(
            text.contains("REST\n=== stderr (its end)\nthinking\n"),
            "{text}"
        );

        let flood = CallResult {
            output: vec![b'x'; MAX_LOG_BYTES as usize],
            ..reply
        };
        log.record(&Input::Args(vec!["a".into()]), &flood);
        log.record(&Input::Args(vec!["b".into()]), &flood);
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size < MAX_LOG_BYTES + 100, "{size}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.ends_with("this log reached its 1048576 bytes\n"),
            "{text:.80}"
        );
    }
}
