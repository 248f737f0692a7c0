//! A persistent bot's stdout as capped lines, in a buffer the runner owns, read two ways:
//! through the event loop, or straight from the pipe while the thread waits for nothing
//! else ([`Replies::line_without_event_loop`], a blocking read that a watchdog bounds, see
//! `blocking.rs`). Bytes after a line wait in the buffer for the next request.

use std::io::ErrorKind;
use std::os::fd::{AsFd, BorrowedFd};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::unix::pipe;
use tokio::time::timeout;

use super::blocking::BlockingPipe;
use super::capture::CHUNK;

/// One line read from a persistent bot.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line, without its `\n`.
    Complete(Vec<u8>),
    /// The stream ended after these bytes without a newline.
    Unterminated(Vec<u8>),
    /// The stream ended before any byte.
    Eof,
    /// The line grew past the cap.
    TooLong,
}

/// The reading end of a persistent bot's stdout.
#[derive(Debug)]
pub(crate) struct Replies {
    pipe: pipe::Receiver,
    /// Read and not taken yet: the start of the next line, at most a cap and a chunk.
    buffer: Vec<u8>,
    /// The pipe reached its end (or failed, which ends it as far as a bot is concerned).
    ended: bool,
    /// For waits outside the event loop; `None` if the pipe cannot be opened again.
    blocking: Option<BlockingPipe>,
}

impl Replies {
    /// Reads `pipe`, a bot's stdout; `stderr` is its stderr pipe, which a task of the event
    /// loop drains.
    pub(crate) fn new(pipe: pipe::Receiver, stderr: BorrowedFd<'_>) -> Replies {
        let blocking = BlockingPipe::open(pipe.as_fd(), stderr).ok();
        Replies {
            pipe,
            buffer: Vec::new(),
            ended: false,
            blocking,
        }
    }

    /// Reads one `\n`-terminated line of at most `cap` bytes (newline excluded) through the
    /// event loop. Cancel-safe: what was read stays in the buffer.
    pub(crate) async fn line(&mut self, cap: usize) -> Line {
        loop {
            if let Some(line) = self.take(cap) {
                return line;
            }
            self.buffer.reserve(CHUNK);
            match self.pipe.read_buf(&mut self.buffer).await {
                Ok(0) | Err(_) => self.ended = true,
                Ok(_) => {}
            }
        }
    }

    /// Reads one line as [`Replies::line`] does, but blocks the thread instead of returning
    /// to the event loop, which saves the loop's work on every request of a bot that
    /// answers quickly. Gives up, `None`, within
    /// [`SESSION_WAIT`](super::blocking::SESSION_WAIT),
    /// or at the watchdog's next tick once the bot's stderr has bytes, so that a bot never
    /// waits long on a full stderr pipe; what was read stays in the buffer for
    /// [`Replies::line`]. The event loop learns of new bytes from the kernel's next edge, so
    /// it never waits for bytes taken here.
    pub(crate) fn line_without_event_loop(&mut self, cap: usize) -> Option<Line> {
        let blocking = self.blocking.as_ref()?;
        let wait = blocking.wait()?;
        loop {
            if let Some(line) = take_line(&mut self.buffer, self.ended, cap) {
                return Some(line);
            }
            match wait.read(blocking.stdout(), &mut self.buffer)? {
                Ok(0) | Err(_) => self.ended = true,
                Ok(_) => {}
            }
        }
    }

    /// What the bot wrote past the last line taken, as far as it comes within `settle` (at
    /// most about `cap` bytes): for `arena check`, which tells a bot whose lines run out of
    /// step with its requests (a debugging line on stdout, two lines a request). The bytes
    /// stay in the buffer, so the next request takes them first, as in a tournament.
    pub(crate) async fn unasked(&mut self, settle: Duration, cap: usize) -> &[u8] {
        if self.buffer.is_empty() && !self.ended {
            self.buffer.reserve(CHUNK);
            // Cancel-safe: a read the timeout ends has read nothing.
            if let Ok(Ok(0) | Err(_)) = timeout(settle, self.pipe.read_buf(&mut self.buffer)).await
            {
                self.ended = true;
            }
        }
        while !self.ended && self.buffer.len() <= cap {
            self.buffer.reserve(CHUNK);
            match self.pipe.try_read_buf(&mut self.buffer) {
                Ok(0) => self.ended = true,
                Ok(_) => {}
                Err(error) if error.kind() == ErrorKind::WouldBlock => break,
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(_) => self.ended = true,
            }
        }
        &self.buffer
    }

    /// The next line if the buffer holds one, or holds more than one may be, or the pipe
    /// ended.
    fn take(&mut self, cap: usize) -> Option<Line> {
        take_line(&mut self.buffer, self.ended, cap)
    }
}

/// The next line of `buffer` if it holds one, or holds more than `cap` bytes without one, or
/// the stream `ended`.
fn take_line(buffer: &mut Vec<u8>, ended: bool, cap: usize) -> Option<Line> {
    let window = &buffer[..buffer.len().min(cap.saturating_add(1))];
    if let Some(end) = window.iter().position(|&b| b == b'\n') {
        let line = buffer[..end].to_vec();
        buffer.drain(..=end);
        return Some(Line::Complete(line));
    }
    if buffer.len() > cap {
        return Some(Line::TooLong);
    }
    if !ended {
        return None;
    }
    Some(match std::mem::take(buffer) {
        rest if rest.is_empty() => Line::Eof,
        rest => Line::Unterminated(rest),
    })
}

#[cfg(test)]
mod tests {
    use std::fs::File;
    use std::io::Write;
    use std::os::fd::OwnedFd;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::bots::blocking::SESSION_WAIT;

    /// A bot's stdout and stderr pipes: the runner's side, and the bot's ends.
    struct Pipes {
        replies: Replies,
        stdout: File,
        stderr: File,
        /// The runner's end of stderr, which the event loop would drain.
        _stderr_read: OwnedFd,
    }

    fn new_pipes() -> Pipes {
        let (read, write) = crate::sandbox::pipe().unwrap();
        let (stderr_read, stderr_write) = crate::sandbox::pipe().unwrap();
        let pipe = crate::bots::process::receiver(read).unwrap();
        Pipes {
            replies: Replies::new(pipe, stderr_read.as_fd()),
            stdout: File::from(write),
            stderr: File::from(stderr_write),
            _stderr_read: stderr_read,
        }
    }

    #[tokio::test]
    async fn lines_are_split_capped_and_unterminated_tails_kept() {
        let mut pipes = new_pipes();
        pipes.stdout.write_all(b"one\ntwo\nthree").unwrap();
        drop(pipes.stdout);
        assert_eq!(
            pipes.replies.line(10).await,
            Line::Complete(b"one".to_vec())
        );
        assert_eq!(
            pipes.replies.line(10).await,
            Line::Complete(b"two".to_vec())
        );
        assert_eq!(
            pipes.replies.line(10).await,
            Line::Unterminated(b"three".to_vec())
        );
        assert_eq!(pipes.replies.line(10).await, Line::Eof);
    }

    #[tokio::test]
    async fn a_line_of_the_cap_fits_and_one_byte_more_is_too_long() {
        let mut pipes = new_pipes();
        pipes
            .stdout
            .write_all(b"0123456789\n0123456789a\n")
            .unwrap();
        let line = pipes.replies.line(10).await;
        assert_eq!(line, Line::Complete(b"0123456789".to_vec()));
        assert_eq!(pipes.replies.line(10).await, Line::TooLong);
        let mut pipes = new_pipes();
        pipes.stdout.write_all(b"0123456789a\n").unwrap();
        assert_eq!(
            pipes.replies.line_without_event_loop(10),
            Some(Line::TooLong)
        );
    }

    #[tokio::test]
    async fn read_outside_the_event_loop_a_line_arrives_whole_and_the_rest_waits() {
        let mut pipes = new_pipes();
        pipes.stdout.write_all(b"one\ntw").unwrap();
        let line = pipes.replies.line_without_event_loop(10);
        assert_eq!(line, Some(Line::Complete(b"one".to_vec())));
        let mut stdout = pipes.stdout;
        let writer = std::thread::spawn(move || {
            std::thread::sleep(SESSION_WAIT.longest() / 8);
            stdout.write_all(b"o\nthree\n").unwrap();
        });
        let line = pipes.replies.line_without_event_loop(10);
        writer.join().unwrap();
        // On a busy machine the watchdog may end the wait first: then the line waits.
        let line = match line {
            Some(line) => line,
            None => pipes.replies.line(10).await,
        };
        assert_eq!(line, Line::Complete(b"two".to_vec()));
        assert_eq!(
            pipes.replies.line(10).await,
            Line::Complete(b"three".to_vec())
        );
    }

    #[tokio::test]
    async fn the_wait_outside_the_event_loop_ends_in_time_or_at_bytes_on_stderr() {
        let mut pipes = new_pipes();
        pipes.stdout.write_all(b"par").unwrap();
        for _ in 0..3 {
            let started = Instant::now();
            assert_eq!(pipes.replies.line_without_event_loop(10), None);
            // The longest wait, and however late the busiest machine ends it after that.
            let waited = started.elapsed();
            assert!(waited < Duration::from_secs(2), "{waited:?}");
        }
        pipes.stderr.write_all(b"log").unwrap();
        // However much time passes, the bytes on stderr end each wait.
        for _ in 0..3 {
            assert_eq!(pipes.replies.line_without_event_loop(10), None);
            std::thread::sleep(SESSION_WAIT.longest());
        }
        pipes.stdout.write_all(b"t\n").unwrap();
        assert_eq!(
            pipes.replies.line(10).await,
            Line::Complete(b"part".to_vec())
        );
    }

    #[tokio::test]
    async fn an_ended_stderr_does_not_end_a_wait_and_an_ended_stdout_does() {
        let mut pipes = new_pipes();
        drop(pipes.stderr);
        pipes.stdout.write_all(b"ok\n").unwrap();
        let line = pipes.replies.line_without_event_loop(10);
        assert_eq!(line, Some(Line::Complete(b"ok".to_vec())));
        let started = Instant::now();
        assert_eq!(pipes.replies.line_without_event_loop(10), None);
        // The watchdog's first tick, at least: an ended stderr has no bytes.
        let waited = started.elapsed();
        assert!(waited >= SESSION_WAIT.longest() / 2, "{waited:?}");
        pipes.stdout.write_all(b"last").unwrap();
        drop(pipes.stdout);
        let line = pipes.replies.line_without_event_loop(10);
        assert_eq!(line, Some(Line::Unterminated(b"last".to_vec())));
    }
}
