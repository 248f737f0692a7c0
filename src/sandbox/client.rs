//! The runner's side of a box: starts the helper, asks it for processes, hears how they end.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

use super::home::away_from_home;
use super::wire::{self, EmptiedFolder, FromBox, Spawn, StartFailure, ToBox};
use super::{BOX_ARG, BoxSpec, Enforced, helper};

/// How long a box may take to set itself up.
const SET_UP_LIMIT: Duration = Duration::from_secs(10);

/// A live box: its helper process and the socket to its init. Dropping it closes the
/// socket, which ends the init and with it every process in the box; the helper is then
/// waited for by [`wait_for_abandoned`].
#[derive(Debug)]
pub struct BotBox {
    /// Declared before the helper: dropped first, so the helper is told to end before it is
    /// kept for [`wait_for_abandoned`].
    control: AsyncFd<OwnedFd>,
    helper: Helper,
    enforced: Enforced,
    serial: AtomicU64,
}

/// A box's helper process. Dropped while it still runs (its box dropped, not closed: a game
/// stopped, failed or never set up), it is kept in [`ABANDONED`] until it ends, so
/// that `arena` can wait for it before exiting instead of leaving it behind.
#[derive(Debug)]
struct Helper(Option<tokio::process::Child>);

/// Helpers of boxes dropped without [`BotBox::close`] that may still run.
static ABANDONED: Mutex<Vec<tokio::process::Child>> = Mutex::new(Vec::new());

impl Drop for Helper {
    fn drop(&mut self) {
        let Some(mut helper) = self.0.take() else {
            return;
        };
        if still_running(&mut helper) {
            let mut abandoned = ABANDONED.lock().unwrap_or_else(PoisonError::into_inner);
            // Those that ended are reaped here, so a long run keeps none of them as zombies.
            abandoned.retain_mut(still_running);
            abandoned.push(helper);
        }
    }
}

/// Whether `helper` still runs; reaps it if it ended. `try_wait` needs no runtime, so the
/// helper of a game's runtime that has gone can still be waited for.
fn still_running(helper: &mut tokio::process::Child) -> bool {
    matches!(helper.try_wait(), Ok(None))
}

/// Waits up to `limit` for the helpers of boxes that were dropped without being closed (see
/// [`Helper`]) to end. Called before `arena` exits: a helper ends within milliseconds of its
/// box's socket closing, and one that outlived `arena` would still run its program, which
/// then cannot be replaced (`ETXTBSY`), and its processes' CPU time would go uncounted.
/// Returns how many still run after `limit`.
pub fn wait_for_abandoned(limit: Duration) -> usize {
    let deadline = Instant::now() + limit;
    loop {
        let mut abandoned = ABANDONED.lock().unwrap_or_else(PoisonError::into_inner);
        abandoned.retain_mut(still_running);
        if abandoned.is_empty() || Instant::now() >= deadline {
            return abandoned.len();
        }
        drop(abandoned);
        std::thread::sleep(Duration::from_millis(1));
    }
}

impl BotBox {
    /// Starts a box as `spec` says and waits until it is ready (or says why it cannot be).
    pub async fn start(spec: &BoxSpec) -> io::Result<BotBox> {
        let (ours, theirs) = wire::socket_pair()?;
        let theirs_fd = theirs.as_raw_fd();
        let mut command = tokio::process::Command::new(helper());
        command
            .arg(BOX_ARG)
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            // Not the runner's stderr, which may be its terminal: it reports on the socket.
            .stderr(Stdio::null())
            .process_group(0);
        // SAFETY: dup2 is async-signal-safe; it gives the helper the socket as descriptor 3
        // (without close-on-exec).
        unsafe {
            command.pre_exec(move || {
                if libc::dup2(theirs_fd, 3) == -1 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let helper = command
            .spawn()
            .map_err(|error| io::Error::new(error.kind(), HelperNotStarted(error)))?;
        drop(theirs);
        super::set_nonblocking(ours.as_fd())?;
        // SAFETY: the descriptor is owned by the AsyncFd and stays open as long as it.
        let control = unsafe { AsyncFd::register_with_interest(ours, Interest::READABLE) }
            .map_err(io::Error::from)?;
        wire::send(control.get_ref().as_raw_fd(), &away_from_home(spec), &[])?;
        let mut sandbox = BotBox {
            control,
            helper: Helper(Some(helper)),
            enforced: Enforced::default(),
            serial: AtomicU64::new(0),
        };
        match tokio::time::timeout(SET_UP_LIMIT, sandbox.receive()).await {
            Ok(Ok(Some(FromBox::Ready(enforced)))) => {
                sandbox.enforced = enforced;
                Ok(sandbox)
            }
            Ok(Ok(Some(FromBox::Failed(why)))) => Err(io::Error::other(why)),
            Ok(Ok(_)) => Err(io::Error::other("the box helper ended during set-up")),
            Ok(Err(error)) => Err(error),
            Err(_) => Err(io::Error::other("the box took over 10 s to set up")),
        }
    }

    /// What this box enforces.
    pub fn enforced(&self) -> &Enforced {
        &self.enforced
    }

    /// Asks the box to start the process `spawn` describes with the given stdio, without
    /// waiting for it; returns its serial (the box's to give). The box reports why if it
    /// cannot start it, that it started if `spawn.confirm` asks ([`BotBox::started`]), and
    /// how it ended ([`BotBox::wait`]). A one-shot request does not ask: waking the runner
    /// only to learn that its process started cost about 3 % of a sandboxed request
    /// (BENCHMARKS.md, "A boxed request does not wait to hear that its process started").
    pub(crate) fn spawn(&self, mut spawn: Spawn, stdio: [OwnedFd; 3]) -> io::Result<u64> {
        let serial = self.serial.fetch_add(1, Ordering::Relaxed);
        spawn.serial = serial;
        let request = ToBox::Spawn(spawn);
        let fds = stdio.each_ref().map(AsRawFd::as_raw_fd);
        wire::send(self.control.get_ref().as_raw_fd(), &request, &fds)?;
        Ok(serial)
    }

    /// Waits until the process `serial` has started, or for why it could not.
    pub(crate) async fn started(&self, serial: u64) -> io::Result<()> {
        loop {
            match self.receive().await? {
                Some(FromBox::Started(started)) if started == serial => return Ok(()),
                Some(FromBox::NotStarted(failed, failure)) if failed == serial => {
                    return Err(failure.into_error());
                }
                Some(_) => {}
                None => return Err(io::Error::other("the sandbox ended")),
            }
        }
    }

    /// Waits for the process `serial` to end.
    pub(crate) async fn wait(&self, serial: u64) -> Ending {
        loop {
            if let Some(ending) = ending_of(serial, self.receive().await) {
                return ending;
            }
        }
    }

    /// The descriptor that becomes readable when the box has something to report, for a
    /// wait outside the event loop.
    pub(crate) fn reports(&self) -> BorrowedFd<'_> {
        self.control.get_ref().as_fd()
    }

    /// How the process `serial` ended, if the box has said so by now: its reports so far
    /// are read without waiting.
    pub(crate) fn exit_now(&self, serial: u64) -> Option<Ending> {
        let mut buffer = [0u8; 8192];
        loop {
            let report = wire::receive(self.control.get_ref().as_raw_fd(), &mut buffer);
            match report {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return None,
                report => {
                    let report = report.map(|message| message.map(|(message, _)| message));
                    if let Some(ending) = ending_of(serial, report) {
                        return Some(ending);
                    }
                }
            }
        }
    }

    /// Ends the box and waits for its helper to exit: once it has, its private folder holds
    /// what the bot left there (or was emptied: the returned reports say why), and the CPU
    /// time of the box's processes is counted in the runner's (`RUSAGE_CHILDREN`).
    pub async fn close(self) -> Vec<EmptiedFolder> {
        // The end of its input ends the init; the helper then reports on the folders and
        // closes the socket.
        // SAFETY: shutting down the writing side of a socket we own.
        unsafe { libc::shutdown(self.control.get_ref().as_raw_fd(), libc::SHUT_WR) };
        let mut emptied = Vec::new();
        while let Ok(Some(report)) = self.receive().await {
            if let FromBox::FolderEmptied(folder) = report {
                emptied.push(folder);
            }
        }
        let BotBox {
            control,
            mut helper,
            ..
        } = self;
        drop(control);
        // Kept in `helper` while waited for: if this wait is dropped, so is the helper, and
        // [`wait_for_abandoned`] waits for it instead.
        if let Some(child) = &mut helper.0 {
            let _ = child.wait().await;
        }
        emptied
    }

    /// Kills every process in the box (the box stays, ready for the next).
    pub(crate) fn kill_all(&self) {
        let _ = wire::send(self.control.get_ref().as_raw_fd(), &ToBox::KillAll, &[]);
    }

    /// The next report of the box; `None` once its socket closed. The buffer lives only in
    /// the read, not across the wait: every future that waits for a box's report (each boxed
    /// request's, for its process's end) would otherwise carry it, and be copied with it.
    async fn receive(&self) -> io::Result<Option<FromBox>> {
        loop {
            let mut ready = self.control.readable().await?;
            let read = ready.try_io(|fd| {
                let mut buffer = [0u8; 8192];
                wire::receive(fd.as_raw_fd(), &mut buffer)
            });
            if let Ok(result) = read {
                return result.map(|message| message.map(|(message, _)| message));
            }
        }
    }
}

/// How a process the box was asked to start ended, as the box reported it.
#[derive(Debug)]
pub(crate) enum Ending {
    /// It ran and ended with this wait status.
    Exited(ExitStatus),
    /// It ran, and the kernel killed it because its box's memory ran out.
    OutOfMemory,
    /// It never started: why.
    NotStarted(StartFailure),
    /// The box itself ended first.
    BoxEnded,
}

/// What one report of the box (or its failure) says of the process `serial`: nothing
/// (`None`) or its end.
fn ending_of(serial: u64, report: io::Result<Option<FromBox>>) -> Option<Ending> {
    match report {
        Ok(Some(FromBox::Exited {
            serial: exited,
            out_of_memory: true,
            ..
        })) if exited == serial => Some(Ending::OutOfMemory),
        Ok(Some(FromBox::Exited {
            serial: exited,
            status,
            ..
        })) if exited == serial => Some(Ending::Exited(ExitStatus::from_raw(status))),
        Ok(Some(FromBox::NotStarted(failed, failure))) if failed == serial => {
            Some(Ending::NotStarted(failure))
        }
        Ok(Some(_)) => None,
        Ok(None) | Err(_) => Some(Ending::BoxEnded),
    }
}

impl StartFailure {
    /// The error for the request whose process this was: a [`SetupRefused`] if the machine
    /// refused the process's set-up, else the bot's own failure to start.
    pub(crate) fn into_error(self) -> io::Error {
        if self.setup {
            io::Error::other(SetupRefused(self.why))
        } else {
            io::Error::other(self.why)
        }
    }
}

/// The machine refused to set up a bot's process in its box (its limits, its user) before
/// anything of the bot's ran: every start of every bot would fail alike, so it is the
/// runner's failure (`bots::RunnerFault`), never the bot's crash.
#[derive(Debug)]
pub struct SetupRefused(pub String);

impl std::fmt::Display for SetupRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupRefused {}

/// Why the box helper could not be started; the error keeps the system's, whose code tells
/// the runner's own failures from others (see `bots::RunnerFault`).
#[derive(Debug)]
struct HelperNotStarted(io::Error);

impl std::fmt::Display for HelperNotStarted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot start the box helper: {}", self.0)
    }
}

impl std::error::Error for HelperNotStarted {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}
