//! Blocking system calls that another thread can end: the cheapest way to wait for a lone
//! request, a persistent bot's reply line or a one-shot bot's stdout and end.
//!
//! The floor loop of BENCHMARKS.md (issue 19) waits with one blocking `read`; a wait in an
//! `epoll` set costs a second system call and the kernel's work to wake the set, about a
//! tenth of a Python bot's whole request on the runner's side, and a `poll` with a timeout
//! arms a kernel timer on every wait. A blocking call has no timeout, so a watchdog thread
//! bounds it: every [`TICK`] it looks at the threads blocked in one and interrupts a call
//! whose wait has reached its bound (two ticks for a session, three for a one-shot
//! request), or whose bot has bytes waiting on its stderr pipe (the event loop drains
//! stderr, so that a bot never blocks on a full one), or whose one-shot bot's process has
//! ended (so that the leak grace of a bot that left something holding its stdout starts
//! within a tick of its end), with a signal whose handler does nothing: the call fails with
//! `EINTR` and the request goes on in the event loop.
//!
//! Every thread that waits has a slot saying whether it is blocked and until which tick. The
//! watchdog claims a slot before it signals and marks it once the signal is sent, and a
//! thread that finds its slot claimed waits for the mark and makes one system call, which
//! takes the signal, before it frees the slot; so no signal lands after the wait it was sent
//! to. One that lands before the call has begun is taken there, and the call blocks anyway:
//! the watchdog signals a thread again at every tick until its slot is free. The signal is
//! `SIGURG`, whose default action is to be ignored: nothing else in the runner uses it, and
//! a child process, whose handlers are reset by `exec`, ignores one.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::sync::atomic::Ordering::SeqCst;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicU64};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread::{self, Thread};
use std::time::Duration;

use super::capture::{pending, read_into};
use crate::sandbox::check;

/// The watchdog's period.
const TICK: Duration = Duration::from_millis(10);

/// A bound on a wait outside the event loop, in the watchdog's ticks: the wait ends at the
/// `n`th tick after it began, so after at least `n - 1` periods and at most `n`. Only
/// requests with more time left than the longest such wait wait there.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ticks(u32);

impl Ticks {
    /// The longest a wait so bounded lasts.
    pub(crate) const fn longest(self) -> Duration {
        TICK.saturating_mul(self.0)
    }
}

/// The bound of a session's wait for its reply line, 10 – 20 ms: a persistent bot answers
/// within a millisecond or two.
pub(crate) const SESSION_WAIT: Ticks = Ticks(2);

/// The bound of a one-shot request's wait, 20 – 30 ms: enough for an interpreter's start
/// (10 – 15 ms for `/usr/bin/python3 -S -I` here), as the 20 ms `poll` that came before.
pub(crate) const ONE_SHOT_WAIT: Ticks = Ticks(3);

/// Ticks without a blocked thread after which the watchdog sleeps until a wait wakes it.
const IDLE_TICKS: u32 = 50;

/// The signal that ends a blocked call.
const KICK: libc::c_int = libc::SIGURG;

/// A slot's state: not in a blocking call.
const IDLE: u64 = 0;
/// The watchdog is about to signal the slot's thread.
const CLAIMED: u64 = u64::MAX;
/// The watchdog has signalled the slot's thread.
const SENT: u64 = u64::MAX - 1;
// Any other state is a blocked call: the last tick its wait may see, after which the
// watchdog ends it.

/// One thread's part in the watchdog's work.
#[derive(Debug)]
struct Slot {
    thread: libc::pthread_t,
    /// [`IDLE`], [`CLAIMED`], [`SENT`] or a blocked call.
    state: AtomicU64,
    /// The stderr pipe of the bot whose stdout the thread reads.
    stderr: AtomicI32,
    /// What tells that the bot's process ended, as [`End::encoded`].
    end: AtomicI64,
}

/// A thread's slot, in the watchdog's list while the thread lives.
struct Registered(Arc<Slot>);

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(watchdog) = watchdog() {
            watchdog.slots().retain(|slot| !Arc::ptr_eq(slot, &self.0));
        }
    }
}

thread_local! {
    static SLOT: Registered = Registered::new();
}

impl Registered {
    fn new() -> Registered {
        unblock_kick();
        let slot = Arc::new(Slot {
            // SAFETY: pthread_self has no preconditions.
            thread: unsafe { libc::pthread_self() },
            state: AtomicU64::new(IDLE),
            stderr: AtomicI32::new(-1),
            end: AtomicI64::new(End::Untold.encoded()),
        });
        if let Some(watchdog) = watchdog() {
            watchdog.slots().push(Arc::clone(&slot));
        }
        Registered(slot)
    }
}

/// Unblocks [`KICK`] in this thread. A thread's signal mask is inherited, from the thread
/// that made it and, across `exec`, from whatever started the runner: a kick that stays
/// blocked would leave a wait unbounded.
fn unblock_kick() {
    // SAFETY: the set is initialised by sigemptyset before use; pthread_sigmask changes this
    // thread's mask alone and is not asked for the old one.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, KICK);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
    }
}

/// The process's watchdog thread and what it watches.
#[derive(Debug)]
struct Watchdog {
    slots: Mutex<Vec<Arc<Slot>>>,
    tick: AtomicU64,
    /// The watchdog sleeps until a wait wakes it.
    parked: AtomicBool,
    thread: Thread,
}

/// The watchdog, started on first use with the signal's handler; `None` if either could
/// not be set up (then no request waits outside the event loop).
fn watchdog() -> Option<&'static Watchdog> {
    static WATCHDOG: OnceLock<Option<Watchdog>> = OnceLock::new();
    WATCHDOG
        .get_or_init(|| {
            install_handler().ok()?;
            let thread = thread::Builder::new()
                .name("read-watchdog".into())
                .spawn(|| {
                    if let Some(watchdog) = watchdog() {
                        watchdog.watch();
                    }
                })
                .ok()?;
            Some(Watchdog {
                slots: Mutex::new(Vec::new()),
                // From 1, so that no wait's last tick reads as IDLE.
                tick: AtomicU64::new(1),
                parked: AtomicBool::new(false),
                thread: thread.thread().clone(),
            })
        })
        .as_ref()
}

/// Makes [`KICK`] interrupt the system call it lands in (no `SA_RESTART`) and do nothing
/// else.
fn install_handler() -> io::Result<()> {
    extern "C" fn ignore(_: libc::c_int) {}
    // SAFETY: a zeroed sigaction is a valid value to fill in; the handler is
    // async-signal-safe (it does nothing), and the old action is not asked for.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = ignore as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        check(libc::sigaction(KICK, &action, std::ptr::null_mut()).into())?;
    }
    Ok(())
}

impl Watchdog {
    fn slots(&self) -> MutexGuard<'_, Vec<Arc<Slot>>> {
        self.slots
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Ticks and kicks; sleeps after [`IDLE_TICKS`] ticks without a blocked read.
    fn watch(&self) {
        let mut idle = 0;
        loop {
            thread::sleep(TICK);
            let tick = self.tick.fetch_add(1, SeqCst) + 1;
            idle = if self.kick(tick) { 0 } else { idle + 1 };
            if idle >= IDLE_TICKS {
                self.parked.store(true, SeqCst);
                // A read that began before `parked` was set is seen by this look; one that
                // begins after it wakes the watchdog.
                if !self.kick(tick) {
                    thread::park();
                }
                self.parked.store(false, SeqCst);
                idle = 0;
            }
        }
    }

    /// Signals every thread whose read is due to end at `tick`; says whether any thread was
    /// blocked.
    fn kick(&self, tick: u64) -> bool {
        let mut blocked = false;
        for slot in self.slots().iter() {
            let state = slot.state.load(SeqCst);
            let due = match state {
                IDLE | CLAIMED => continue,
                // Still not taken a tick later: the signal came before the call began, and
                // the call blocks. Another one ends it.
                SENT => true,
                last_tick => {
                    tick > last_tick
                        || has_bytes(slot.stderr.load(SeqCst))
                        || End::decoded(slot.end.load(SeqCst)).has_come()
                }
            };
            blocked = true;
            if due
                && slot
                    .state
                    .compare_exchange(state, CLAIMED, SeqCst, SeqCst)
                    .is_ok()
            {
                // SAFETY: the thread is alive: it leaves a wait only after the state is
                // marked below, and a thread's slot leaves the list before the thread ends.
                let sent = unsafe { libc::pthread_kill(slot.thread, KICK) } == 0;
                slot.state.store(if sent { SENT } else { IDLE }, SeqCst);
            }
        }
        blocked
    }

    /// Wakes the watchdog if it sleeps.
    fn wake(&self) {
        if self.parked.load(SeqCst) && self.parked.swap(false, SeqCst) {
            self.thread.unpark();
        }
    }
}

/// Whether the pipe or socket `fd` (-1: none) has bytes to read.
fn has_bytes(fd: RawFd) -> bool {
    pending(fd) > 0
}

/// Whether the child process `pid` has ended; it is not reaped.
fn has_ended(pid: libc::pid_t) -> bool {
    // SAFETY: waitid writes one siginfo_t into `info`; WNOWAIT leaves the child unreaped,
    // so its pid names it until the thread that waits for it reaps it after its wait.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) == 0 && info.si_pid() != 0
    }
}

/// The blocking side of a persistent bot's stdout: a second open file description of the
/// pipe without `O_NONBLOCK` (the event loop keeps its own, non-blocking), and the bot's
/// stderr pipe, for the watchdog to look at.
#[derive(Debug)]
pub(crate) struct BlockingPipe {
    file: File,
    stderr: OwnedFd,
}

impl BlockingPipe {
    /// Opens `pipe` again through `/proc/self/fd`; an error if that, or the watchdog, is
    /// not available.
    pub(crate) fn open(pipe: BorrowedFd<'_>, stderr: BorrowedFd<'_>) -> io::Result<BlockingPipe> {
        watchdog().ok_or_else(|| io::Error::other("no read watchdog"))?;
        Ok(BlockingPipe {
            file: File::open(format!("/proc/self/fd/{}", pipe.as_raw_fd()))?,
            stderr: stderr.try_clone_to_owned()?,
        })
    }

    /// The pipe's blocking description.
    pub(crate) fn stdout(&self) -> BorrowedFd<'_> {
        self.file.as_fd()
    }

    /// Starts a wait for bytes on [`BlockingPipe::stdout`]; `None` only without a watchdog,
    /// which [`BlockingPipe::open`] rules out.
    pub(crate) fn wait(&self) -> Option<Wait<'_>> {
        Wait::begin(self.stderr.as_fd(), End::Untold, SESSION_WAIT)
    }
}

/// What tells a waiting thread that its bot's process ended, when that decides the
/// request: the watchdog then ends the wait at its next tick, so that a process that ended
/// while something it started holds its stdout is seen to end as soon.
#[derive(Debug, Clone, Copy)]
pub(crate) enum End {
    /// Nothing: a persistent bot's reply decides.
    Untold,
    /// The process, a child of the runner: `waitid` tells.
    Child(libc::pid_t),
    /// The socket on which the process's box reports its end (looked at only while the wait
    /// lasts, which the box outlives).
    Reported(RawFd),
}

impl End {
    /// One number for a thread's slot: 0 for [`End::Untold`], a pid, or `-1 - socket`.
    fn encoded(self) -> i64 {
        match self {
            End::Untold => 0,
            End::Child(pid) => pid.into(),
            End::Reported(socket) => -1 - i64::from(socket),
        }
    }

    /// The end that [`End::encoded`] gave `number` for.
    fn decoded(number: i64) -> End {
        match number {
            0 => End::Untold,
            pid if pid > 0 => End::Child(pid as libc::pid_t),
            socket => End::Reported((-1 - socket) as RawFd),
        }
    }

    /// Whether the process is known to have ended (it is not reaped).
    fn has_come(self) -> bool {
        match self {
            End::Untold => false,
            End::Child(pid) => has_ended(pid),
            End::Reported(socket) => has_bytes(socket),
        }
    }
}

/// One wait outside the event loop, which may take several blocking calls: all of them end
/// within the wait's bound of its start, or at the watchdog's next tick once the bot's
/// stderr has bytes or its process has ended.
pub(crate) struct Wait<'a> {
    stderr: BorrowedFd<'a>,
    end: End,
    /// The last tick the wait may see.
    last_tick: u64,
}

impl<'a> Wait<'a> {
    /// Starts a wait of at most `bound` for a bot whose stderr pipe is `stderr`. `None` if
    /// there is no watchdog.
    pub(crate) fn begin(stderr: BorrowedFd<'a>, end: End, bound: Ticks) -> Option<Wait<'a>> {
        let watchdog = watchdog()?;
        let since = watchdog.tick.load(SeqCst);
        Some(Wait {
            stderr,
            end,
            last_tick: since + u64::from(bound.0.max(1)) - 1,
        })
    }

    /// Appends what the blocking pipe `fd` has to `buffer`, blocking until it has something
    /// or ends (`Ok(0)`); `None` once the wait is over, as [`Wait::block`].
    pub(crate) fn read(
        &self,
        fd: BorrowedFd<'_>,
        buffer: &mut Vec<u8>,
    ) -> Option<io::Result<usize>> {
        self.block(|| read_into(fd, buffer))
    }

    /// Makes `call`, a blocking system call, which the watchdog's signal ends with `EINTR`:
    /// its result, or `None` once the watchdog has ended the wait (or on a thread that is
    /// ending, which has no slot any more).
    pub(crate) fn block<T>(&self, call: impl FnOnce() -> io::Result<T>) -> Option<io::Result<T>> {
        let watchdog = watchdog()?;
        let last_tick = self.last_tick;
        if watchdog.tick.load(SeqCst) > last_tick {
            // The wait is over: a bot that sends a byte at a time does not stretch it.
            return None;
        }
        SLOT.try_with(|Registered(slot)| {
            slot.stderr.store(self.stderr.as_raw_fd(), SeqCst);
            slot.end.store(self.end.encoded(), SeqCst);
            slot.state.store(last_tick, SeqCst);
            watchdog.wake();
            let result = call();
            if slot
                .state
                .compare_exchange(last_tick, IDLE, SeqCst, SeqCst)
                .is_err()
            {
                take_kick(slot);
            }
            match result {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => None,
                result => Some(result),
            }
        })
        .ok()
        .flatten()
    }
}

/// Waits until the watchdog has signalled this thread, takes the signal, and frees the slot;
/// a signal sent meanwhile is taken too.
fn take_kick(slot: &Slot) {
    loop {
        match slot.state.load(SeqCst) {
            CLAIMED => thread::yield_now(),
            SENT => {
                // The signal is pending on this thread, if its handler has not run yet: the
                // kernel runs it before this system call returns.
                thread::yield_now();
                if (slot.state)
                    .compare_exchange(SENT, IDLE, SeqCst, SeqCst)
                    .is_ok()
                {
                    return;
                }
            }
            // The signal could not be sent.
            _ => {
                slot.state.store(IDLE, SeqCst);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::time::Instant;

    use super::*;

    /// A pipe for stdout and one for stderr, with the writing ends.
    fn pipes() -> (BlockingPipe, File, File, OwnedFd) {
        let (read, write) = crate::sandbox::pipe().unwrap();
        let (stderr_read, stderr_write) = crate::sandbox::pipe().unwrap();
        let blocking = BlockingPipe::open(read.as_fd(), stderr_read.as_fd()).unwrap();
        // The first end is kept open by the File the blocking side opened.
        drop(read);
        (
            blocking,
            File::from(write),
            File::from(stderr_write),
            stderr_read,
        )
    }

    /// One read in a wait of its own.
    fn read_once(blocking: &BlockingPipe, buffer: &mut Vec<u8>) -> Option<io::Result<usize>> {
        blocking.wait()?.read(blocking.stdout(), buffer)
    }

    #[test]
    fn a_read_returns_what_arrives_and_the_end_of_the_pipe() {
        let (blocking, mut stdout, _stderr, _stderr_read) = pipes();
        let mut buffer = Vec::new();
        stdout.write_all(b"one\n").unwrap();
        assert_eq!(read_once(&blocking, &mut buffer).unwrap().unwrap(), 4);
        drop(stdout);
        assert_eq!(read_once(&blocking, &mut buffer).unwrap().unwrap(), 0);
        assert_eq!(buffer, b"one\n");
    }

    #[test]
    fn the_watchdog_ends_a_wait_within_two_ticks_and_the_signal_goes_nowhere_else() {
        let (blocking, _stdout, _stderr, _stderr_read) = pipes();
        for _ in 0..3 {
            let started = Instant::now();
            assert!(read_once(&blocking, &mut Vec::new()).is_none());
            let waited = started.elapsed();
            // At least a tick; at most two and however late a busy machine runs the watchdog.
            assert!(
                waited >= TICK && waited < Duration::from_secs(2),
                "{waited:?}"
            );
            // No signal is left for the next system call: a 30 ms poll of nothing times out.
            // SAFETY: a poll of no descriptors.
            let polled = unsafe { libc::poll(std::ptr::null_mut(), 0, 30) };
            assert_eq!(polled, 0, "{}", io::Error::last_os_error());
        }
    }

    #[test]
    fn a_bot_that_sends_a_byte_at_a_time_cannot_hold_a_wait_open() {
        let (blocking, mut stdout, _stderr, _stderr_read) = pipes();
        let dribbling = thread::spawn(move || {
            // Stops when the reading side is gone.
            while stdout.write_all(b".").is_ok() {
                thread::sleep(TICK / 5);
            }
        });
        let started = Instant::now();
        let wait = blocking.wait().unwrap();
        let mut buffer = Vec::new();
        while wait.read(blocking.stdout(), &mut buffer).is_some() {}
        let waited = started.elapsed();
        assert!(waited < Duration::from_secs(2), "{waited:?}");
        drop(blocking);
        dribbling.join().unwrap();
    }

    #[test]
    fn bytes_on_stderr_end_a_wait_at_the_next_tick() {
        let (blocking, _stdout, mut stderr, _stderr_read) = pipes();
        stderr.write_all(b"log").unwrap();
        let wait = blocking.wait().unwrap();
        // However long ago the wait began, the bytes end each read.
        for _ in 0..3 {
            assert!(wait.read(blocking.stdout(), &mut Vec::new()).is_none());
        }
        thread::sleep(3 * TICK);
        assert!(wait.read(blocking.stdout(), &mut Vec::new()).is_none());
    }

    #[test]
    fn a_thread_that_inherited_a_blocked_kick_is_still_bounded() {
        thread::spawn(|| {
            // SAFETY: as in `unblock_kick`, blocking instead.
            unsafe {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, KICK);
                libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            }
            let (blocking, mut stdout, _stderr, _stderr_read) = pipes();
            // Were the kick left blocked, this byte would end the read, late.
            let late = thread::spawn(move || {
                thread::sleep(Duration::from_secs(3));
                let _ = stdout.write_all(b".");
            });
            let started = Instant::now();
            assert!(read_once(&blocking, &mut Vec::new()).is_none());
            let waited = started.elapsed();
            assert!(waited < Duration::from_secs(2), "{waited:?}");
            drop(blocking);
            late.join().unwrap();
        })
        .join()
        .unwrap();
    }

    #[test]
    fn the_watchdog_sees_a_child_end_without_reaping_it() {
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", "read line || exit 3"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id() as libc::pid_t;
        // As the watchdog reads it from a slot.
        let end = || End::decoded(End::Child(pid).encoded());
        assert!(!end().has_come());
        drop(child.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        while !end().has_come() {
            assert!(Instant::now() < deadline, "{pid} still running");
            thread::sleep(TICK / 10);
        }
        // Still there to be reaped, with its status.
        assert_eq!(child.wait().unwrap().code(), Some(3));
        assert!(!End::decoded(End::Untold.encoded()).has_come() && !has_bytes(-1));
    }

    #[test]
    fn a_box_socket_with_a_report_tells_the_end() {
        let (socket, mut peer) = std::os::unix::net::UnixStream::pair().unwrap();
        let end = || End::decoded(End::Reported(socket.as_raw_fd()).encoded());
        assert!(!end().has_come());
        peer.write_all(b"exited").unwrap();
        assert!(end().has_come());
    }

    #[test]
    fn threads_waiting_at_once_are_each_kicked_in_time_and_once() {
        let waits: Vec<_> = (0..8)
            .map(|_| {
                thread::spawn(|| {
                    let (blocking, _stdout, _stderr, _stderr_read) = pipes();
                    for _ in 0..3 {
                        let started = Instant::now();
                        assert!(read_once(&blocking, &mut Vec::new()).is_none());
                        // Each thread is watched on its own: none waits for another's kick.
                        let waited = started.elapsed();
                        assert!(waited < Duration::from_secs(1), "{waited:?}");
                        // SAFETY: a poll of no descriptors.
                        let polled = unsafe { libc::poll(std::ptr::null_mut(), 0, 15) };
                        assert_eq!(polled, 0, "{}", io::Error::last_os_error());
                    }
                })
            })
            .collect();
        for wait in waits {
            wait.join().unwrap();
        }
    }
}
