//! Starting one bot process, in the seat's box or (unsandboxed) directly, and the handle to
//! wait for it and kill it with everything it started.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, OnceLock};

use tokio::net::unix::pipe;

use super::blocking::{End, Wait};
use super::call::Exit;
use super::child::DirectChild;
use super::group::ProcessGroup;
use super::program::{BotProgram, CallEnv};
use crate::sandbox::{BotBox, BoxSpec, EmptiedFolder, Ending, Spawn, check, set_nonblocking};

/// Where a seat's processes run during one game. With a sandbox, the seat's box is made on
/// the first request and kept until the place is dropped at the end of the game, which ends
/// the box and everything in it.
#[derive(Debug, Default)]
pub struct Place {
    sandbox: Option<Arc<BotBox>>,
}

impl Place {
    /// Makes the bot's box if it has a sandbox and none is running yet, so that the time
    /// this takes is not counted against the bot's first request. The box bounds the memory
    /// of all the bot's processes by its `memory_mb`, and lets it write its private folder.
    pub(crate) async fn prepare(&mut self, bot: &BotProgram) -> io::Result<()> {
        if let (Some(spec), None) = (&bot.sandbox, &self.sandbox) {
            let spec = BoxSpec {
                writable: bot
                    .private_dir
                    .then(|| bot.dir.clone())
                    .into_iter()
                    .collect(),
                memory_bytes: bot.rlimits.memory_bytes,
                ..BoxSpec::clone(spec)
            };
            self.sandbox = Some(Arc::new(BotBox::start(&spec).await?));
        }
        Ok(())
    }

    /// Ends the box, if there is one and nothing else holds it, and waits until it is gone
    /// and has copied back the private folder; returns the box's report of a folder it
    /// emptied instead.
    pub async fn close(self) -> Vec<EmptiedFolder> {
        match self.sandbox.and_then(Arc::into_inner) {
            Some(sandbox) => sandbox.close().await,
            None => Vec::new(),
        }
    }

    /// Starts a process of `bot` that lives as `lifetime` says.
    pub(crate) async fn start(
        &mut self,
        bot: &BotProgram,
        env: &CallEnv,
        lifetime: Lifetime<'_>,
    ) -> io::Result<BotProcess> {
        let (stdin, extra_args) = match lifetime {
            Lifetime::OneShot { stdin, extra_args } => (stdin, extra_args),
            Lifetime::Session => (true, &[][..]),
        };
        self.prepare(bot).await?;
        super::program::seal_inherited_descriptors();
        let (stdin_theirs, stdin_ours) = if stdin {
            let (read, write) = crate::sandbox::pipe()?;
            (read, Some(write))
        } else {
            (dev_null()?.try_clone_to_owned()?, None)
        };
        let (stdout_ours, stdout_theirs) = crate::sandbox::pipe()?;
        let (stderr_ours, stderr_theirs) = crate::sandbox::pipe()?;
        let stdio = [stdin_theirs, stdout_theirs, stderr_theirs];
        let handle = match &self.sandbox {
            Some(sandbox) => {
                let confirm = matches!(lifetime, Lifetime::Session);
                let serial = sandbox.spawn(launch(bot, env, extra_args, confirm), stdio)?;
                if confirm {
                    sandbox.started(serial).await?;
                }
                Handle {
                    waiter: Waiter::Boxed {
                        sandbox: Arc::clone(sandbox),
                        serial,
                        ending: None,
                    },
                    killer: Killer::Boxed(Arc::clone(sandbox)),
                }
            }
            None => spawn_directly(bot, env, extra_args, stdio)?,
        };
        Ok(BotProcess {
            stdin: stdin_ours,
            stdout: stdout_ours,
            stderr: stderr_ours,
            handle,
        })
    }
}

/// How long a bot process serves, which decides how it starts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Lifetime<'a> {
    /// One request: its stdin is a pipe if `stdin` is true (else empty), and `extra_args`
    /// follow the bot's own. A box does not confirm that it started: a one-shot request's
    /// wait takes any report of the box as its process's end (see `blocking.rs`), and
    /// learns that the process never started from the report that says why.
    OneShot {
        stdin: bool,
        extra_args: &'a [String],
    },
    /// A persistent session, which is started only once its box has confirmed it.
    Session,
}

/// A running bot process and the runner's ends of its pipes, blocking and unknown to the
/// event loop: a one-shot request usually fits in the pipe and is written at once
/// ([`write_at_once`]) and its reply read with blocking reads; what goes through the event
/// loop is made a [`sender`] or [`receiver`] first.
#[derive(Debug)]
pub(crate) struct BotProcess {
    pub(crate) stdin: Option<OwnedFd>,
    pub(crate) stdout: OwnedFd,
    pub(crate) stderr: OwnedFd,
    pub(crate) handle: Handle,
}

/// How to wait for a bot process, and how to kill it with everything it started: two
/// parts, so that one task can wait while another kills.
#[derive(Debug)]
pub(crate) struct Handle {
    /// First, so that a dropped handle kills the group before the waiter reaps its leader.
    pub(crate) killer: Killer,
    pub(crate) waiter: Waiter,
}

/// Waits for one bot process.
#[derive(Debug)]
pub(crate) enum Waiter {
    /// Started by the runner.
    Direct(DirectChild),
    /// Asked of the seat's box; how it ended, once known (the box reports it once).
    Boxed {
        sandbox: Arc<BotBox>,
        serial: u64,
        ending: Option<Ending>,
    },
}

impl Waiter {
    /// Waits for the process to end. Cancel-safe.
    pub(crate) async fn wait(&mut self) -> Exit {
        match self {
            Waiter::Direct(child) => child.wait().await,
            Waiter::Boxed {
                sandbox,
                serial,
                ending,
            } => match ending {
                Some(ending) => exit_of(ending),
                None => exit_of(ending.insert(sandbox.wait(*serial).await)),
            },
        }
    }

    /// Why the process never started, if its box said so: a one-shot process is asked of
    /// its box without waiting for the answer, which comes in place of its end.
    pub(crate) fn start_failure(&self) -> Option<io::Error> {
        match self {
            Waiter::Boxed {
                ending: Some(Ending::NotStarted(failure)),
                ..
            } => Some(failure.clone().into_error()),
            _ => None,
        }
    }

    /// What tells a wait outside the event loop that the process ended.
    pub(crate) fn end(&self) -> End {
        match self {
            Waiter::Direct(child) => End::Child(child.id() as libc::pid_t),
            Waiter::Boxed { sandbox, .. } => End::Reported(sandbox.reports().as_raw_fd()),
        }
    }

    /// How the process ended, if that is known now, without waiting.
    pub(crate) fn exit_now(&mut self) -> Option<Exit> {
        match self {
            Waiter::Direct(child) => child.exit_now(),
            Waiter::Boxed {
                sandbox,
                serial,
                ending,
            } => match ending {
                Some(ending) => Some(exit_of(ending)),
                None => Some(exit_of(ending.insert(sandbox.exit_now(*serial)?))),
            },
        }
    }

    /// Reaps the process if it has ended and the runner started it (a box reaps its own):
    /// its pid names its process group until then, so kill the group first.
    pub(crate) fn reap(&mut self) {
        if let Waiter::Direct(child) = self {
            child.reap();
        }
    }

    /// Waits for the process to end with blocking calls that `wait` bounds: how it ended,
    /// or `None` once the watchdog ended the wait.
    pub(crate) fn wait_blocking(&mut self, wait: &Wait<'_>) -> Option<Exit> {
        let sandbox = match self {
            Waiter::Direct(child) => return child.wait_blocking(wait),
            Waiter::Boxed { sandbox, .. } => Arc::clone(sandbox),
        };
        loop {
            if let Some(exit) = self.exit_now() {
                return Some(exit);
            }
            wait.block(|| readable(sandbox.reports()))?.ok()?;
        }
    }
}

/// Blocks until `fd` is readable.
fn readable(fd: BorrowedFd<'_>) -> io::Result<()> {
    let mut polled = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd entry for the call.
    check(unsafe { libc::poll(&mut polled, 1, -1) }.into()).map(drop)
}

/// How a boxed process ended, from its box's report. One that never started, or whose box
/// ended first, has no exit status to tell.
fn exit_of(ending: &Ending) -> Exit {
    match ending {
        Ending::Exited(status) => Exit::from_status(*status),
        Ending::OutOfMemory => Exit::OutOfMemory,
        Ending::NotStarted(_) | Ending::BoxEnded => Exit::Unknown,
    }
}

/// Kills a bot process and everything it started (SIGKILL).
#[derive(Debug)]
pub(crate) enum Killer {
    /// The process group it leads; dropping the group kills it.
    Group(ProcessGroup),
    /// Every process in its box.
    Boxed(Arc<BotBox>),
}

impl Killer {
    pub(crate) fn kill(&self) {
        match self {
            Killer::Group(group) => group.kill(),
            Killer::Boxed(sandbox) => sandbox.kill_all(),
        }
    }
}

/// The request to the box for one process of `bot`. Paths are made absolute: the box
/// enters the bot's folder before it runs the program.
fn launch(bot: &BotProgram, env: &CallEnv, extra_args: &[String], confirm: bool) -> Spawn {
    let absolute = |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let program = absolute(&bot.program);
    let argv = std::iter::once(bot.program.display().to_string())
        .chain(bot.args.iter().cloned())
        .chain(extra_args.iter().cloned())
        .collect();
    // One value per name, the last given.
    let mut vars = BTreeMap::new();
    vars.extend(bot.environment(env, true));
    let env = vars
        .into_iter()
        .map(|(key, value)| format!("{}={}", key.to_string_lossy(), value.to_string_lossy()))
        .collect();
    Spawn {
        serial: 0,
        program,
        argv,
        env,
        dir: absolute(&bot.dir),
        memory_bytes: bot.rlimits.memory_bytes,
        cpu_seconds: bot.rlimits.cpu_seconds,
        confirm,
    }
}

/// Starts `bot` without a sandbox, in a process group of its own, limits applied at once.
fn spawn_directly(
    bot: &BotProgram,
    env: &CallEnv,
    extra_args: &[String],
    [stdin, stdout, stderr]: [OwnedFd; 3],
) -> io::Result<Handle> {
    // The bot's last request was killed with its process group: only a daemon that left
    // the group could change the folder between this check and the child entering it.
    if bot.private_dir && crate::sandbox::open_without_links(&bot.dir).is_err() {
        return Err(io::Error::other(format!(
            "its private folder {} is not a folder any more (replaced by a link?)",
            bot.dir.display()
        )));
    }
    let mut command = std::process::Command::new(&bot.program);
    command
        .args(&bot.args)
        .args(extra_args)
        .current_dir(&bot.dir)
        .env_clear()
        .envs(bot.environment(env, false))
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr))
        .process_group(0);
    let child = command.spawn()?;
    let group = ProcessGroup::led_by(child.id());
    let child = DirectChild::new(child);
    bot.rlimits.apply_to(child.id());
    Ok(Handle {
        waiter: Waiter::Direct(child),
        killer: Killer::Group(group),
    })
}

/// The runner's end `fd` of a pipe it made, as the event loop's writer. One `fcntl` to make
/// it non-blocking: `from_owned_fd` would also check what the descriptor is, three system
/// calls per pipe.
pub(crate) fn sender(fd: OwnedFd) -> io::Result<pipe::Sender> {
    set_nonblocking(fd.as_fd())?;
    pipe::Sender::from_owned_fd_unchecked(fd)
}

/// As [`sender`], for reading.
pub(crate) fn receiver(fd: OwnedFd) -> io::Result<pipe::Receiver> {
    set_nonblocking(fd.as_fd())?;
    pipe::Receiver::from_owned_fd_unchecked(fd)
}

/// Writes as much of `bytes` as the pipe `stdin` takes without waiting, outside the event
/// loop: a fresh pipe takes a request of up to its capacity (64 KiB by default) at once, so
/// most requests need neither a registration with the event loop nor a turn of it to learn
/// that the pipe is writable. Returns the pipe, registered, and the bytes it did not take
/// yet, if any; `None` also when the bot closed its stdin (it may answer without reading).
pub(crate) fn write_at_once(
    stdin: OwnedFd,
    bytes: &[u8],
) -> io::Result<Option<(pipe::Sender, &[u8])>> {
    // Up to PIPE_BUF bytes go into an empty pipe whole and at once, even a blocking one.
    if bytes.len() > libc::PIPE_BUF {
        set_nonblocking(stdin.as_fd())?;
    }
    match write_what_fits(stdin.as_fd(), bytes) {
        // A short request the pipe did not take whole (a signal came first) goes on through
        // the event loop like a long one, which needs the pipe non-blocking.
        Some(rest) if !rest.is_empty() => Ok(Some((sender(stdin)?, rest))),
        _ => Ok(None),
    }
}

/// As [`write_at_once`], to a session's stdin: returns what the pipe did not take yet, and
/// nothing once the bot closed its stdin (what it printed decides the request). The event
/// loop learns that the pipe filled from its own next write.
pub(crate) fn write_now<'a>(stdin: &pipe::Sender, bytes: &'a [u8]) -> &'a [u8] {
    write_what_fits(stdin.as_fd(), bytes).unwrap_or_default()
}

/// One write of `bytes` to the pipe `fd` (non-blocking, unless it takes all of `bytes` at
/// once): the bytes it did not take, or `None` if nobody reads the pipe any more.
fn write_what_fits<'a>(fd: BorrowedFd<'_>, bytes: &'a [u8]) -> Option<&'a [u8]> {
    // SAFETY: `write` reads at most `bytes.len()` bytes of the slice.
    let written = unsafe { libc::write(fd.as_raw_fd(), bytes.as_ptr().cast(), bytes.len()) };
    match usize::try_from(written) {
        Ok(written) => Some(&bytes[written..]),
        Err(_) => match io::Error::last_os_error().kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Some(bytes),
            _ => None,
        },
    }
}

/// `/dev/null`, opened once to read and write: the stdin of a bot that is given nothing, and
/// where the excess of a flood of stderr goes (see `capture.rs`).
pub(crate) fn dev_null() -> io::Result<BorrowedFd<'static>> {
    static NULL: OnceLock<File> = OnceLock::new();
    let file = match NULL.get() {
        Some(file) => file,
        None => {
            let file = File::options().read(true).write(true).open("/dev/null")?;
            NULL.get_or_init(|| file)
        }
    };
    Ok(file.as_fd())
}
