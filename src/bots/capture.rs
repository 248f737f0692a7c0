//! Bounded captures: a bot can print gigabytes, the runner keeps at most a cap. Each capture
//! is filled either through the event loop or, for a one-shot bot's stdout, by blocking reads
//! straight from the pipe (see `oneshot.rs`), and a capture can go on one way where the other
//! stopped.

use std::collections::VecDeque;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::net::unix::pipe;

use super::process::dev_null;

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
/// flooding it can neither block on a full pipe nor grow the runner's memory. A flood costs
/// the runner less than a copy: once a read fills a whole chunk, the pipe is widened and
/// what it holds beyond the cap goes to `/dev/null` by `splice` (see [`Tail::read_once`]).
#[derive(Debug)]
pub(crate) struct Tail {
    bytes: VecDeque<u8>,
    cap: usize,
    /// How many bytes the stream has produced, kept or not.
    seen: u64,
    /// The last read filled a whole chunk: the pipe may hold more than the cap.
    flooding: bool,
    /// The pipe was widened to [`FLOOD_PIPE_BYTES`] at the first sign of a flood.
    widened: bool,
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
            flooding: false,
            widened: false,
            ended: false,
        }
    }

    /// Reads to the end through the event loop. Cancel-safe: what was read is kept.
    pub(crate) async fn read_all(&mut self, pipe: &pipe::Receiver) {
        each_readiness(pipe, |fd| {
            let read = self.read_once(fd);
            (read, !self.ended)
        })
        .await;
    }

    /// Reads what `fd` (non-blocking) holds now, outside the event loop, without waiting
    /// for more: no more than the pipe held when called, so that a bot that floods its
    /// stderr from another core cannot keep the runner here.
    pub(crate) fn read_now(&mut self, fd: BorrowedFd<'_>) {
        let held = self.seen + pending(fd.as_raw_fd()) as u64;
        loop {
            let read = self.read_once(fd);
            let empty = matches!(&read, Err(error) if error.kind() == io::ErrorKind::WouldBlock);
            if empty || self.ended || self.seen >= held {
                return;
            }
        }
    }

    /// One step of reading `fd` (non-blocking): while the stream floods, first what the
    /// pipe holds beyond the cap goes to `/dev/null`, then one read. `WouldBlock` and
    /// `Interrupted` are returned as they are; any other error ends the stream, as its end
    /// does (a bot's broken pipe is its own problem).
    fn read_once(&mut self, fd: BorrowedFd<'_>) -> io::Result<usize> {
        if self.flooding {
            if !self.widened {
                self.widened = true;
                widen(fd);
            }
            self.discard_excess(fd);
        }
        let mut chunk = [0; CHUNK];
        let read = read_chunk(fd, &mut chunk);
        if let Err(error) = &read
            && matches!(
                error.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
            )
        {
            self.flooding = false;
            return read;
        }
        let count = *read.as_ref().unwrap_or(&0);
        self.flooding = count == CHUNK;
        self.keep(read, &chunk[..count]);
        Ok(count)
    }

    /// Moves what `fd` holds beyond the cap to `/dev/null`: bytes the tail would only have
    /// copied in to drop again. What the tail kept came before them, so it goes too; what is
    /// read next is the end of the stream so far.
    fn discard_excess(&mut self, fd: BorrowedFd<'_>) {
        let excess = pending(fd.as_raw_fd()).saturating_sub(self.cap);
        if excess == 0 {
            return;
        }
        let Ok(null) = dev_null() else { return };
        // SAFETY: splice moves at most `excess` bytes from the pipe `fd` to `/dev/null`;
        // no memory of this process is touched.
        let moved = unsafe {
            libc::splice(
                fd.as_raw_fd(),
                std::ptr::null_mut(),
                null.as_raw_fd(),
                std::ptr::null_mut(),
                excess,
                libc::SPLICE_F_NONBLOCK,
            )
        };
        if let Ok(moved @ 1..) = usize::try_from(moved) {
            self.seen += moved as u64;
            self.bytes.clear();
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

/// Reads `pipe` to its end into `tail`, which its owner may look at meanwhile.
pub(crate) async fn drain_into(pipe: pipe::Receiver, tail: SharedTail) {
    each_readiness(&pipe, |fd| {
        let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
        let read = tail.read_once(fd);
        (read, !tail.ended)
    })
    .await;
}

/// Calls `step` each time the event loop finds `pipe` readable, until it says to stop. A
/// step reads without blocking and says `WouldBlock` when the pipe is empty, so that the
/// event loop waits for more; one step per wake-up, so a bot that floods its pipe cannot
/// keep the runner's thread from its other tasks. Cancel-safe: a step is whole.
async fn each_readiness(
    pipe: &pipe::Receiver,
    mut step: impl FnMut(BorrowedFd<'_>) -> (io::Result<usize>, bool),
) {
    loop {
        if pipe.readable().await.is_err() {
            return;
        }
        let mut more = true;
        // `try_io` forgets the pipe's readiness when the step says `WouldBlock`.
        let _ = pipe.try_io(|| {
            let (read, go_on) = step(pipe.as_fd());
            more = go_on;
            read
        });
        if !more {
            return;
        }
    }
}

/// The size a flooded stderr pipe is given: each wake-up of the runner then takes this much
/// of the flood instead of a pipe's usual 64 KiB, and the hand-offs between the bot and the
/// runner, most of what a flood costs the runner, are four times fewer. The pages are the
/// bot's, charged to its box's memory.
const FLOOD_PIPE_BYTES: libc::c_int = 256 * 1024;

/// Widens the pipe `fd` to [`FLOOD_PIPE_BYTES`], if the kernel lets it (an unprivileged
/// user's pipes are bounded by `/proc/sys/fs/pipe-max-size` and `pipe-user-pages-soft`);
/// otherwise it stays as it was.
fn widen(fd: BorrowedFd<'_>) {
    // SAFETY: F_SETPIPE_SZ only resizes the pipe's buffer; it fails without effect.
    unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETPIPE_SZ, FLOOD_PIPE_BYTES) };
}

/// How many bytes the pipe `fd` (-1: none) holds; 0 when it cannot say.
pub(crate) fn pending(fd: RawFd) -> usize {
    if fd < 0 {
        return 0;
    }
    let mut bytes: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int into `bytes`; a descriptor that is no longer the one
    // the caller named only makes this answer for another file.
    match unsafe { libc::ioctl(fd, libc::FIONREAD, &mut bytes) } {
        0 => usize::try_from(bytes).unwrap_or(0),
        _ => 0,
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

    /// A pipe holding `bytes`, its writing end closed.
    fn pipe_holding(bytes: &[u8]) -> std::os::fd::OwnedFd {
        use std::io::Write;
        let (read, write) = crate::sandbox::pipe().unwrap();
        std::fs::File::from(write).write_all(bytes).unwrap();
        read
    }

    #[tokio::test]
    async fn a_drained_tail_keeps_the_last_bytes_and_counts_them_all() {
        let input: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        let tail = Arc::new(Mutex::new(Tail::new(100)));
        let pipe = crate::bots::process::receiver(pipe_holding(&input)).unwrap();
        drain_into(pipe, tail.clone()).await;
        let tail = tail.lock().unwrap();
        assert!(tail.ended);
        assert_eq!(tail.seen(), 20_000);
        assert_eq!(tail.after(0), &input[input.len() - 100..]);
        assert_eq!(tail.after(19_990), &input[19_990..], "the last ten bytes");
        assert_eq!(tail.after(20_000), b"");
    }

    /// A flood's excess goes to `/dev/null` once a read fills a chunk; what is kept is still
    /// the stream's end, and every byte is counted. A thread writes a megabyte while the
    /// tail drains the pipe, so the pipe holds far more than the cap at most reads.
    #[tokio::test]
    async fn a_flood_is_skipped_past_and_its_end_kept() {
        use std::io::Write;
        let input: Vec<u8> = (0..1_048_576u32).map(|i| (i % 253) as u8).collect();
        let (read, write) = crate::sandbox::pipe().unwrap();
        let full_pipe = input[..65_536].to_vec();
        let mut write = std::fs::File::from(write);
        write.write_all(&full_pipe).unwrap();
        let rest = input[65_536..].to_vec();
        let writer = std::thread::spawn(move || write.write_all(&rest).unwrap());
        let pipe = crate::bots::process::receiver(read).unwrap();
        let mut tail = Tail::new(100);
        tail.read_all(&pipe).await;
        writer.join().unwrap();
        // SAFETY: F_GETPIPE_SZ only reads the pipe's size.
        let size = unsafe { libc::fcntl(pipe.as_raw_fd(), libc::F_GETPIPE_SZ) };
        assert_eq!(size, FLOOD_PIPE_BYTES, "the flooded pipe was widened");
        assert!(tail.ended);
        assert_eq!(tail.seen(), input.len() as u64);
        assert_eq!(tail.into_bytes(), &input[input.len() - 100..]);
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

    /// A stream that never runs dry (`/dev/zero` stands for a pipe that a bot refills from
    /// another core faster than the runner empties it) is read as far as it held when asked,
    /// and no further: the runner never waits for a flood to end.
    #[test]
    fn read_now_stops_at_what_the_stream_held_even_if_it_never_runs_dry() {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        crate::sandbox::set_nonblocking(zero.as_fd()).unwrap();
        let mut tail = Tail::new(100);
        tail.read_now(zero.as_fd());
        assert_eq!((tail.seen(), tail.ended), (CHUNK as u64, false));
        assert_eq!(tail.after(0), [0; 100]);
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
        let pipe = crate::bots::process::receiver(pipe_holding(b"12")).unwrap();
        tail.read_all(&pipe).await;
        assert_eq!(tail.into_bytes(), b"yz12");
    }
}
