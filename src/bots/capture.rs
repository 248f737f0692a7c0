//! Bounded captures: a bot can print gigabytes, the runner keeps at most a cap. Each capture
//! is filled either through the event loop or, for a one-shot bot's stdout, by blocking reads
//! straight from the pipe (see `oneshot.rs`), and a capture can go on one way where the other
//! stopped.

use std::collections::VecDeque;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::io::{AsyncRead, AsyncReadExt};

/// How much one read asks of a bot's pipe.
pub(crate) const CHUNK: usize = 8192;

/// Everything a stream produced up to a cap: a one-shot bot's stdout. A reply is measured as
/// a session's reply line is (see `replies.rs`): one newline that ends the stream does not
/// count against the cap, so one cap means the same reply in both modes.
#[derive(Debug)]
pub(crate) struct Capped {
    pub(crate) bytes: Vec<u8>,
    cap: usize,
    /// The stream had more than the cap; reading stopped there.
    pub(crate) overflow: bool,
    /// The stream ended (a read error ends it too: a bot's broken pipe is its own problem).
    pub(crate) ended: bool,
}

impl Capped {
    pub(crate) fn new(cap: usize) -> Capped {
        Capped {
            bytes: Vec::new(),
            cap,
            overflow: false,
            ended: false,
        }
    }

    /// Whether reading is over: the stream ended or went past the cap.
    pub(crate) fn done(&self) -> bool {
        self.ended || self.overflow
    }

    /// Reads until the stream ends or passes the cap, through the event loop. Cancel-safe:
    /// what was read is kept.
    pub(crate) async fn read_all(&mut self, mut reader: impl AsyncRead + Unpin) {
        while !self.done() {
            self.bytes.reserve(CHUNK);
            let read = reader.read_buf(&mut self.bytes).await;
            self.record(read);
        }
    }

    /// Takes note of one read into `chunk` (`Ok(0)`: the end), made outside the event loop.
    pub(crate) fn take(&mut self, read: io::Result<usize>, chunk: &[u8]) {
        if let Ok(count) = &read {
            self.bytes.extend_from_slice(&chunk[..*count]);
        }
        self.record(read);
    }

    /// Takes note of one read into `bytes`.
    fn record(&mut self, read: io::Result<usize>) {
        match read {
            Ok(0) | Err(_) => {
                self.ended = true;
                self.overflow = self.bytes.len() > self.cap && self.bytes.last() != Some(&b'\n');
            }
            Ok(_) => self.overflow = self.bytes.len() > self.cap.saturating_add(1),
        }
    }
}

/// The last bytes of a stream, at most a cap: a bot's stderr, read to its end so that a bot
/// flooding it can neither block on a full pipe nor grow the runner's memory.
#[derive(Debug)]
pub(crate) struct Tail {
    bytes: VecDeque<u8>,
    cap: usize,
    /// How many bytes the stream has produced, kept or not.
    seen: u64,
    /// The stream ended.
    pub(crate) ended: bool,
}

/// A [`Tail`] filled by a task that drains the stream, and looked at by the stream's owner
/// meanwhile.
pub(crate) type SharedTail = Arc<Mutex<Tail>>;

impl Tail {
    pub(crate) fn new(cap: usize) -> Tail {
        Tail {
            bytes: VecDeque::new(),
            cap,
            seen: 0,
            ended: false,
        }
    }

    /// Reads to the end through the event loop. Cancel-safe: what was read is kept.
    pub(crate) async fn read_all(&mut self, reader: impl AsyncRead + Unpin) {
        if !self.ended {
            each_read(reader, |read, chunk| {
                self.keep(read, chunk);
                !self.ended
            })
            .await;
        }
    }

    /// Reads what `fd` holds now, outside the event loop, without waiting for more.
    pub(crate) fn read_now(&mut self, fd: BorrowedFd<'_>) {
        let mut chunk = [0; CHUNK];
        while !self.ended {
            match read_chunk(fd, &mut chunk) {
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                read => {
                    let count = *read.as_ref().unwrap_or(&0);
                    self.keep(read, &chunk[..count]);
                }
            }
        }
    }

    /// How many bytes the stream has produced so far.
    pub(crate) fn seen(&self) -> u64 {
        self.seen
    }

    /// What the stream produced after its first `seen` bytes, as far as the cap kept it.
    pub(crate) fn after(&self, seen: u64) -> Vec<u8> {
        let new = usize::try_from(self.seen.saturating_sub(seen)).unwrap_or(usize::MAX);
        let kept = self.bytes.len();
        self.bytes
            .range(kept.saturating_sub(new)..)
            .copied()
            .collect()
    }

    /// Takes note of one read of `chunk`.
    fn keep(&mut self, read: io::Result<usize>, chunk: &[u8]) {
        match read {
            Ok(0) | Err(_) => self.ended = true,
            Ok(_) => {
                self.seen += chunk.len() as u64;
                let keep = &chunk[chunk.len().saturating_sub(self.cap)..];
                let excess = (self.bytes.len() + keep.len()).saturating_sub(self.cap);
                self.bytes.drain(..excess);
                self.bytes.extend(keep);
            }
        }
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes.into()
    }
}

/// Reads `reader` to its end into `tail`, which its owner may look at meanwhile.
pub(crate) async fn drain_into(reader: impl AsyncRead + Unpin, tail: SharedTail) {
    each_read(reader, |read, chunk| {
        let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
        tail.keep(read, chunk);
        !tail.ended
    })
    .await;
}

/// Reads `reader` through the event loop and hands each read to `keep`, until it says to
/// stop. A read is handed over in the poll that made it, so a caller that is cancelled
/// loses nothing that was read.
async fn each_read(
    mut reader: impl AsyncRead + Unpin,
    mut keep: impl FnMut(io::Result<usize>, &[u8]) -> bool,
) {
    let mut chunk = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        let read = reader.read_buf(&mut chunk).await;
        if !keep(read, &chunk) {
            return;
        }
    }
}

/// One `read` of at most [`CHUNK`] bytes from `fd` appended to `buffer`, outside the event
/// loop.
pub(crate) fn read_into(fd: BorrowedFd<'_>, buffer: &mut Vec<u8>) -> io::Result<usize> {
    buffer.reserve(CHUNK);
    let spare = buffer.spare_capacity_mut();
    let room = spare.len().min(CHUNK);
    // SAFETY: `read` writes at most `room` bytes into the vector's spare capacity, and only
    // the bytes it reports written are added to the length below.
    let read = unsafe { libc::read(fd.as_raw_fd(), spare.as_mut_ptr().cast(), room) };
    let read = usize::try_from(read).map_err(|_| io::Error::last_os_error())?;
    // SAFETY: `read` initialised the first `read` bytes of the spare capacity.
    unsafe { buffer.set_len(buffer.len() + read) };
    Ok(read)
}

/// One `read` from `fd` into `chunk`, outside the event loop: a buffer on the stack, so that
/// a short reply costs no large allocation.
pub(crate) fn read_chunk(fd: BorrowedFd<'_>, chunk: &mut [u8; CHUNK]) -> io::Result<usize> {
    // SAFETY: `read` writes at most `CHUNK` bytes into the array.
    let read = unsafe { libc::read(fd.as_raw_fd(), chunk.as_mut_ptr().cast(), CHUNK) };
    usize::try_from(read).map_err(|_| io::Error::last_os_error())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn read_capped(bytes: &[u8], cap: usize) -> Capped {
        let mut captured = Capped::new(cap);
        captured.read_all(bytes).await;
        captured
    }

    #[tokio::test]
    async fn read_capped_keeps_everything_up_to_the_cap() {
        let captured = read_capped(b"hello", 5).await;
        assert_eq!(captured.bytes, b"hello");
        assert!(!captured.overflow);
        assert!(captured.ended);
    }

    #[tokio::test]
    async fn read_capped_stops_past_the_cap() {
        let captured = read_capped(b"hello!", 5).await;
        assert!(captured.overflow);
    }

    #[tokio::test]
    async fn the_newline_that_ends_a_reply_is_not_counted_against_the_cap() {
        let captured = read_capped(b"hello\n", 5).await;
        assert_eq!(captured.bytes, b"hello\n");
        assert!(!captured.overflow);
        assert!(read_capped(b"hello!\n", 5).await.overflow);
        assert!(read_capped(b"hello\n\n", 5).await.overflow);
    }

    #[tokio::test]
    async fn a_drained_tail_keeps_the_last_bytes_and_counts_them_all() {
        let input: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        let tail = Arc::new(Mutex::new(Tail::new(100)));
        drain_into(&input[..], tail.clone()).await;
        let tail = tail.lock().unwrap();
        assert!(tail.ended);
        assert_eq!(tail.seen(), 20_000);
        assert_eq!(tail.after(0), &input[input.len() - 100..]);
        assert_eq!(tail.after(19_990), &input[19_990..], "the last ten bytes");
        assert_eq!(tail.after(20_000), b"");
    }

    /// What a pipe holds now is read at once, without waiting for its end.
    #[test]
    fn read_now_takes_what_the_pipe_holds_and_after_says_what_came_since() {
        use std::io::Write;
        let (read, write) = crate::sandbox::pipe().unwrap();
        crate::sandbox::set_nonblocking(std::os::fd::AsFd::as_fd(&read)).unwrap();
        let mut write = std::fs::File::from(write);
        let mut tail = Tail::new(8);
        write.write_all(b"first\n").unwrap();
        tail.read_now(std::os::fd::AsFd::as_fd(&read));
        let seen = tail.seen();
        assert_eq!(
            (tail.after(0), seen, tail.ended),
            (b"first\n".to_vec(), 6, false)
        );
        write.write_all(b"second\n").unwrap();
        tail.read_now(std::os::fd::AsFd::as_fd(&read));
        assert_eq!(tail.after(seen), b"second\n", "only what came since");
        assert_eq!(tail.after(0), b"\nsecond\n", "as far as the cap keeps it");
        drop(write);
        tail.read_now(std::os::fd::AsFd::as_fd(&read));
        assert!(tail.ended);
    }

    /// Reads straight from the pipe and through the event loop add to the same capture.
    #[tokio::test]
    async fn a_capture_goes_on_through_the_event_loop_where_direct_reads_stopped() {
        use std::io::Write;
        let (read, write) = crate::sandbox::pipe().unwrap();
        let mut write = std::fs::File::from(write);
        let (mut reply, mut tail) = (Capped::new(100), Tail::new(4));
        write.write_all(b"abcdef").unwrap();
        let mut chunk = [0; CHUNK];
        let count = read_chunk(std::os::fd::AsFd::as_fd(&read), &mut chunk);
        reply.take(count, &chunk);
        tail.keep(Ok(3), b"xyz");
        assert_eq!(reply.bytes, b"abcdef");
        assert!(!reply.done());
        write.write_all(b"gh").unwrap();
        drop(write);
        let pipe = crate::bots::process::receiver(read).unwrap();
        reply.read_all(pipe).await;
        assert_eq!(reply.bytes, b"abcdefgh");
        assert!(reply.ended && !reply.overflow);
        tail.read_all(&b"12"[..]).await;
        assert_eq!(tail.into_bytes(), b"yz12");
    }
}
