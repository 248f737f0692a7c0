//! A persistent bot's stdout as capped lines, in a buffer the runner owns, read two ways:
//! through the event loop, or straight from the pipe while the thread waits for nothing
//! else ([`Replies::line_without_event_loop`]). Bytes after a line wait in the buffer for the
//! next request.
//!
//! A wait outside the event loop is an `epoll` set of the session's own, made once: the
//! bot's stdout, its stderr, and the process's ticker, a periodic timer that bounds the
//! wait without arming a timer for each request (arming and cancelling one cost more than
//! the rest of a quick request).

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::sync::OnceLock;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::unix::pipe;

use super::capture::{CHUNK, read_into, would_wait};
use crate::sandbox::{check, owned};

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
    /// For waits outside the event loop; `None` if the kernel would not make one.
    watch: Option<Watch>,
}

impl Replies {
    /// Reads `pipe`, a bot's stdout; `stderr` is its stderr pipe, which a task of the event
    /// loop drains.
    pub(crate) fn new(pipe: pipe::Receiver, stderr: BorrowedFd<'_>) -> Replies {
        let watch = Watch::new(pipe.as_fd(), stderr).ok();
        Replies {
            pipe,
            buffer: Vec::new(),
            ended: false,
            watch,
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
    /// answers quickly. Gives up, `None`, at the ticker's second tick (so within
    /// [`LONGEST_WAIT_OUTSIDE_EVENT_LOOP`]), or as soon as the bot's stderr has bytes, so
    /// that a bot never waits on a full stderr pipe; what was read stays in the buffer for
    /// [`Replies::line`].
    pub(crate) fn line_without_event_loop(&mut self, cap: usize) -> Option<Line> {
        let mut ticks = 0;
        loop {
            if let Some(line) = self.take(cap) {
                return Some(line);
            }
            let woke = self.watch.as_mut()?.wait()?;
            if woke.stdout {
                self.read_now();
            } else if woke.stderr {
                return None;
            }
            // The first tick may be one that came before this request.
            ticks += u32::from(woke.tick);
            if ticks >= 2 {
                return self.take(cap);
            }
        }
    }

    /// The next line if the buffer holds one, or holds more than one may be, or the pipe
    /// ended.
    fn take(&mut self, cap: usize) -> Option<Line> {
        let window = &self.buffer[..self.buffer.len().min(cap.saturating_add(1))];
        if let Some(end) = window.iter().position(|&b| b == b'\n') {
            let line = self.buffer[..end].to_vec();
            self.buffer.drain(..=end);
            return Some(Line::Complete(line));
        }
        if self.buffer.len() > cap {
            return Some(Line::TooLong);
        }
        if !self.ended {
            return None;
        }
        Some(match std::mem::take(&mut self.buffer) {
            rest if rest.is_empty() => Line::Eof,
            rest => Line::Unterminated(rest),
        })
    }

    /// One read of what the (non-blocking) pipe holds, past the event loop: the loop
    /// learns of new bytes from the kernel's next edge, so it never waits for bytes taken
    /// here.
    fn read_now(&mut self) {
        match read_into(self.pipe.as_fd(), &mut self.buffer) {
            Ok(0) => self.ended = true,
            Ok(_) => {}
            read if would_wait(&read) => {}
            Err(_) => self.ended = true,
        }
    }
}

/// The period of the process's ticker.
const TICK: Duration = Duration::from_millis(10);

/// The longest wait outside the event loop: two periods of the ticker. Only requests with
/// more time than this wait there.
pub(crate) const LONGEST_WAIT_OUTSIDE_EVENT_LOOP: Duration = TICK.saturating_mul(2);

/// The process's ticker: a timer that becomes readable every [`TICK`], made on first use;
/// `None` if the kernel would not make one. Each expiry is an edge for every set that
/// watches it, and the kernel arms the next one when the timer is read, so each wait that
/// sees a tick reads it.
fn ticker() -> Option<BorrowedFd<'static>> {
    static TICKER: OnceLock<Option<OwnedFd>> = OnceLock::new();
    let ticker = TICKER.get_or_init(|| periodic_timer(TICK).ok());
    ticker.as_ref().map(|fd| fd.as_fd())
}

/// A timer descriptor that becomes readable every `period`.
fn periodic_timer(period: Duration) -> io::Result<OwnedFd> {
    // SAFETY: timerfd_create takes no pointers.
    let fd = owned(
        unsafe {
            libc::timerfd_create(
                libc::CLOCK_MONOTONIC,
                libc::TFD_NONBLOCK | libc::TFD_CLOEXEC,
            )
        }
        .into(),
    )?;
    let every = libc::timespec {
        tv_sec: period.as_secs() as libc::time_t,
        tv_nsec: period.subsec_nanos() as libc::c_long,
    };
    let spec = libc::itimerspec {
        it_interval: every,
        it_value: every,
    };
    // SAFETY: `spec` is a valid itimerspec for the call; the old value is not asked for.
    check(unsafe { libc::timerfd_settime(fd.as_raw_fd(), 0, &spec, std::ptr::null_mut()) }.into())?;
    Ok(fd)
}

/// The `epoll` set of one session: its stdout and stderr (level-triggered) and the ticker
/// (edge-triggered: one event per expiry).
#[derive(Debug)]
struct Watch {
    epoll: OwnedFd,
    ticker: BorrowedFd<'static>,
    /// Whether stderr is still in the set (it leaves once it ends).
    stderr: Option<RawFd>,
}

/// Which member of a [`Watch`] an event is about.
const STDOUT: u64 = 0;
const STDERR: u64 = 1;
const TICKER: u64 = 2;

/// What one wait of a [`Watch`] found.
#[derive(Debug, Default)]
struct Woke {
    /// Stdout has bytes or ended.
    stdout: bool,
    /// Stderr has bytes.
    stderr: bool,
    /// The ticker ticked.
    tick: bool,
}

impl Watch {
    fn new(stdout: BorrowedFd<'_>, stderr: BorrowedFd<'_>) -> io::Result<Watch> {
        let ticker = ticker().ok_or_else(|| io::Error::other("no ticker"))?;
        // SAFETY: epoll_create1 takes no pointers.
        let epoll = owned(unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) }.into())?;
        let watch = Watch {
            epoll,
            ticker,
            stderr: Some(stderr.as_raw_fd()),
        };
        watch.control(
            libc::EPOLL_CTL_ADD,
            stdout.as_raw_fd(),
            libc::EPOLLIN,
            STDOUT,
        )?;
        watch.control(
            libc::EPOLL_CTL_ADD,
            stderr.as_raw_fd(),
            libc::EPOLLIN,
            STDERR,
        )?;
        let edge = libc::EPOLLIN | libc::EPOLLET;
        watch.control(libc::EPOLL_CTL_ADD, ticker.as_raw_fd(), edge, TICKER)?;
        Ok(watch)
    }

    fn control(
        &self,
        op: libc::c_int,
        fd: RawFd,
        events: libc::c_int,
        token: u64,
    ) -> io::Result<()> {
        let mut event = libc::epoll_event {
            events: events as u32,
            u64: token,
        };
        // SAFETY: `event` is a valid epoll_event for the call; the set keeps no pointer.
        check(unsafe { libc::epoll_ctl(self.epoll.as_raw_fd(), op, fd, &mut event) }.into())?;
        Ok(())
    }

    /// Blocks until a member is ready; `None` if the wait failed. An ended stderr leaves
    /// the set (the event loop's drain reads its end), so that it wakes no later wait.
    fn wait(&mut self) -> Option<Woke> {
        let mut events = [libc::epoll_event { events: 0, u64: 0 }; 3];
        // SAFETY: `events` has room for the 3 events asked for.
        let ready = unsafe { libc::epoll_wait(self.epoll.as_raw_fd(), events.as_mut_ptr(), 3, -1) };
        let ready = usize::try_from(ready).ok()?;
        let mut woke = Woke::default();
        for event in &events[..ready] {
            let (token, flags) = (event.u64, event.events as libc::c_int);
            match token {
                STDOUT => woke.stdout = true,
                TICKER => {
                    woke.tick = true;
                    read_ticks(self.ticker);
                }
                _ if flags & libc::EPOLLIN != 0 => woke.stderr = true,
                _ => {
                    if let Some(stderr) = self.stderr.take() {
                        let _ = self.control(libc::EPOLL_CTL_DEL, stderr, 0, STDERR);
                    }
                }
            }
        }
        Some(woke)
    }
}

/// Reads the ticker, which arms its next expiry; another wait may have read it first.
fn read_ticks(ticker: BorrowedFd<'_>) {
    let mut count = 0u64;
    // SAFETY: a timerfd read writes one u64 into `count`; a failure (nothing to read)
    // leaves it alone.
    unsafe {
        libc::read(
            ticker.as_raw_fd(),
            (&raw mut count).cast(),
            size_of::<u64>(),
        )
    };
}

#[cfg(test)]
mod tests {
    use std::fs::File;
    use std::io::Write;
    use std::time::Instant;

    use super::*;

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
            std::thread::sleep(TICK / 4);
            stdout.write_all(b"o\nthree\n").unwrap();
        });
        let line = pipes.replies.line_without_event_loop(10);
        writer.join().unwrap();
        // On a busy machine the ticks may end the wait first: then the line waits.
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
    async fn the_wait_outside_the_event_loop_ends_at_the_ticks_or_at_bytes_on_stderr() {
        let mut pipes = new_pipes();
        pipes.stdout.write_all(b"par").unwrap();
        // The ticker goes on ticking from one wait to the next (its next expiry is armed
        // when it is read).
        for _ in 0..3 {
            let started = Instant::now();
            assert_eq!(pipes.replies.line_without_event_loop(10), None);
            // Two ticks, and however late the busiest machine wakes the thread after them.
            let waited = started.elapsed();
            assert!(waited < Duration::from_secs(2), "{waited:?}");
        }
        pipes.stderr.write_all(b"log").unwrap();
        // However many ticks pass, the bytes on stderr end each wait.
        for _ in 0..3 {
            assert_eq!(pipes.replies.line_without_event_loop(10), None);
            std::thread::sleep(TICK);
        }
        pipes.stdout.write_all(b"t\n").unwrap();
        assert_eq!(
            pipes.replies.line(10).await,
            Line::Complete(b"part".to_vec())
        );
    }

    #[tokio::test]
    async fn an_ended_stderr_leaves_the_watch_and_an_ended_stdout_ends_the_wait() {
        let mut pipes = new_pipes();
        drop(pipes.stderr);
        pipes.stdout.write_all(b"ok\n").unwrap();
        let line = pipes.replies.line_without_event_loop(10);
        assert_eq!(line, Some(Line::Complete(b"ok".to_vec())));
        assert_eq!(pipes.replies.line_without_event_loop(10), None);
        assert_eq!(pipes.replies.watch.as_ref().unwrap().stderr, None);
        pipes.stdout.write_all(b"last").unwrap();
        drop(pipes.stdout);
        let line = pipes.replies.line_without_event_loop(10);
        assert_eq!(line, Some(Line::Unterminated(b"last".to_vec())));
    }
}
