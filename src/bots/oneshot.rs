//! One-shot requests: a fresh process per request.
//!
//! A request sent [`Waiting::Alone`] waits for its process outside the event loop, as a lone
//! persistent request does: blocking reads of its stdout, then a blocking wait for its end,
//! which the read watchdog bounds (see `blocking.rs`) to at most 30 ms ([`ONE_SHOT_WAIT`]).
//! Most one-shot bots answer and exit well within it, and the wait skips the event loop's
//! registrations and timers. A request still undecided then goes on in the event loop, from
//! the same captures.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::pin::pin;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;
use tokio::time::{Instant, sleep_until, timeout};

use super::blocking::{ONE_SHOT_WAIT, Wait};
use super::call::{CallResult, CallStatus, Exit, Waiting};
use super::capture::{CHUNK, Capped, Tail, read_chunk};
use super::process::{
    BotProcess, Handle, Killer, Lifetime, Place, Waiter, receiver, write_at_once,
};
use super::program::{BotProgram, CallEnv, Limits};

/// How long to wait, after a bot exited, for its stdout to close. Only a grandchild that
/// inherited the pipe keeps it open; it is killed with the group after this grace. A request
/// sent alone learns of the exit at the watchdog's next tick, so its grace may start up to a
/// tick (10 ms) after the exit.
const LEAK_GRACE: Duration = Duration::from_millis(50);

/// What a one-shot process receives.
#[derive(Debug, Clone, Copy)]
pub enum OneShotInput<'a> {
    /// These bytes on stdin, then EOF.
    Stdin(&'a [u8]),
    /// These extra arguments; stdin is empty.
    Args(&'a [String]),
}

/// Starts a fresh process of `bot` in `place`, gives it `input` and collects everything it
/// writes to stdout until it exits, within `limit`. Everything it started is killed
/// afterwards (its process group, or every process in its box), so nothing outlives the
/// request. `waiting` says whether other requests go on meanwhile.
pub async fn call_once(
    place: &mut Place,
    bot: &BotProgram,
    env: &CallEnv,
    input: OneShotInput<'_>,
    limit: Duration,
    limits: &Limits,
    waiting: Waiting,
) -> CallResult {
    if let Err(error) = place.prepare(bot).await {
        return not_started(Instant::now(), error);
    }
    let started = Instant::now();
    let deadline = started + limit;
    let (stdin_bytes, extra_args): (&[u8], &[String]) = match input {
        OneShotInput::Stdin(bytes) => (bytes, &[]),
        OneShotInput::Args(args) => (&[], args),
    };
    let lifetime = Lifetime::OneShot {
        stdin: matches!(input, OneShotInput::Stdin(_)),
        extra_args,
    };
    // A box does not confirm the start: a failure to start comes in place of the end (see
    // `Waiter::start_failure`).
    let process = match place.start(bot, env, lifetime).await {
        Ok(process) => process,
        Err(error) => return not_started(started, error),
    };
    let BotProcess {
        stdin,
        stdout,
        stderr,
        handle: Handle { mut waiter, killer },
    } = process;

    // Writing and reading run together: a bot may answer before reading all its input, or
    // never read it at all (a broken pipe is then expected, not an error).
    let unwritten = match stdin.map(|stdin| write_at_once(stdin, stdin_bytes)) {
        Some(Err(error)) => return abandon(started, error, &killer, &mut waiter).await,
        Some(Ok(unwritten)) => unwritten,
        None => None,
    };
    let mut progress = Progress::new(limits);
    let mut decided = None;
    // Starting the process took part of the limit: the wait outside must end before the
    // deadline, or a late reply would count there and not in the loop.
    let time_left = deadline.saturating_duration_since(Instant::now());
    if waiting == Waiting::Alone && unwritten.is_none() && time_left > ONE_SHOT_WAIT.longest() {
        decided = progress
            .wait_outside(&mut waiter, stdout.as_fd(), stderr.as_fd())
            .map(|status| in_time(status, deadline, Instant::now()));
    }
    let (status, stderr) = match decided {
        Some(status) => (status, Stderr::Unregistered(stderr)),
        None => match (receiver(stdout), receiver(stderr)) {
            (Ok(stdout), Ok(mut stderr)) => {
                let pipes = (unwritten, stdout, &mut stderr);
                let status = progress.wait_in_loop(pipes, &mut waiter, &killer, deadline);
                (status.await, Stderr::Registered(stderr))
            }
            (Err(error), _) | (_, Err(error)) => {
                return abandon(started, error, &killer, &mut waiter).await;
            }
        },
    };
    // The group before the reaping, while the pid still names it.
    killer.kill();
    if progress.exit.is_none() {
        // SIGKILL cannot be ignored, so this is prompt.
        let _ = waiter.wait().await;
    }
    waiter.reap();
    if let Some(error) = waiter.start_failure() {
        return not_started(started, error);
    }
    let replied = matches!(status, CallStatus::Replied { exit } if !exit.is_abnormal());
    let stderr = if replied {
        Vec::new()
    } else {
        last_words(progress.errors, stderr).await
    };
    // What a process that timed out had written is kept too: it is no reply, but `arena
    // check` and `--log-io` show it (a reply printed by a process that then kept running).
    let output = match status {
        CallStatus::Replied { .. } | CallStatus::TimedOut => progress.reply.bytes,
        _ => Vec::new(),
    };
    CallResult {
        output,
        status,
        elapsed: started.elapsed(),
        stderr,
    }
}

/// How a request decided outside the event loop at `now` ended. That wait ends before the
/// deadline unless the machine held up the watchdog or this thread: a request decided after
/// the deadline timed out, as in the loop.
fn in_time(status: CallStatus, deadline: Instant, now: Instant) -> CallStatus {
    if now > deadline {
        CallStatus::TimedOut
    } else {
        status
    }
}

/// The bot's stdin and the part of the request the pipe did not take at once, if any.
type Unwritten<'a> = Option<(pipe::Sender, &'a [u8])>;

/// What a request has gathered so far, whichever way it waits.
#[derive(Debug)]
struct Progress {
    reply: Capped,
    errors: Tail,
    /// How the process ended, once known.
    exit: Option<Exit>,
    /// When the process ended while its stdout was still open: the leak grace runs.
    leaking_since: Option<Instant>,
}

impl Progress {
    fn new(limits: &Limits) -> Progress {
        Progress {
            reply: Capped::new(limits.max_reply_bytes),
            errors: Tail::new(limits.max_stderr_bytes),
            exit: None,
            leaking_since: None,
        }
    }

    /// How the request ended, if it has: the reply passed its cap, or stdout ended and the
    /// process was reaped. A crash that printed nothing is a crash, not an (invalid) empty
    /// reply.
    fn outcome(reply: &Capped, exit: Option<Exit>) -> Option<CallStatus> {
        if reply.overflow {
            return Some(CallStatus::TooLong);
        }
        match exit {
            Some(exit) if reply.ended => Some(if reply.bytes.is_empty() && exit.is_abnormal() {
                CallStatus::Died { exit }
            } else {
                CallStatus::Replied { exit }
            }),
            _ => None,
        }
    }

    /// Takes note that the process ended.
    fn exited(&mut self, exit: Exit) {
        self.exit = Some(exit);
        if !self.reply.done() {
            self.leaking_since = Some(Instant::now());
        }
    }

    /// Waits outside the event loop, in blocking reads of stdout and then a blocking wait
    /// for the process's end, which the read watchdog bounds (see `blocking.rs`): until the
    /// request is decided, or for at most [`ONE_SHOT_WAIT`] (then `None`), less than the
    /// request's limit (the caller sees to it). Stderr is not read here: the watchdog ends
    /// the wait at its next tick once stderr has bytes or the process has ended, and the
    /// event loop goes on from there.
    fn wait_outside(
        &mut self,
        waiter: &mut Waiter,
        stdout: BorrowedFd<'_>,
        stderr: BorrowedFd<'_>,
    ) -> Option<CallStatus> {
        let wait = Wait::begin(stderr, waiter.end(), ONE_SHOT_WAIT)?;
        let mut chunk = [0; CHUNK];
        while !self.reply.done() {
            let read = wait.block(|| read_chunk(stdout, &mut chunk))?;
            self.reply.take(read, &chunk);
        }
        if self.exit.is_none() && !self.reply.overflow {
            let exit = waiter.wait_blocking(&wait)?;
            self.exited(exit);
        }
        Progress::outcome(&self.reply, self.exit)
    }

    /// Waits in the event loop until the request is decided or the deadline passes: the
    /// rest of the request is written while stdout and stderr are read, and the process is
    /// waited for. Something the bot started that holds stdout after it exited is killed
    /// after [`LEAK_GRACE`].
    async fn wait_in_loop(
        &mut self,
        (unwritten, stdout, stderr): (Unwritten<'_>, pipe::Receiver, &mut pipe::Receiver),
        waiter: &mut Waiter,
        killer: &Killer,
        deadline: Instant,
    ) -> CallStatus {
        let (mut read, mut drained) = (self.reply.done(), self.errors.ended);
        let mut timed_out = false;
        {
            let reply = &mut self.reply;
            let mut reading = pin!(async {
                let write = async {
                    if let Some((mut stdin, rest)) = unwritten {
                        let _ = stdin.write_all(rest).await;
                    }
                };
                tokio::join!(write, reply.read_all(stdout));
                reply.overflow
            });
            let mut draining = pin!(self.errors.read_all(stderr));
            let mut exited = pin!(waiter.wait());
            // Two timers for the whole call, not a new one per turn of the loop: each costs
            // a registration in the runtime's timer wheel.
            let mut deadline = pin!(sleep_until(deadline));
            let grace_end = self.leaking_since.map(|since| since + LEAK_GRACE);
            let mut leak_grace = pin!(sleep_until(grace_end.unwrap_or(deadline.deadline())));
            let mut leaking = grace_end.is_some();
            while !(read && self.exit.is_some()) {
                // The reply before the exit when both are ready, so that the leak grace is
                // not armed for nothing (branches are otherwise polled in a random order).
                tokio::select! {
                    biased;
                    overflow = &mut reading, if !read => {
                        read = true;
                        if overflow {
                            break;
                        }
                    }
                    exit = &mut exited, if self.exit.is_none() => {
                        self.exit = Some(exit);
                        // Armed only while stdout is open: an earlier timer than the
                        // deadline makes the runtime wake its event loop to sleep less.
                        if !read {
                            leak_grace.as_mut().reset(Instant::now() + LEAK_GRACE);
                            leaking = true;
                        }
                    }
                    () = &mut draining, if !drained => drained = true,
                    () = &mut leak_grace, if leaking => {
                        // The bot exited but something it started still holds stdout open.
                        killer.kill();
                        leaking = false;
                    }
                    () = &mut deadline => {
                        timed_out = true;
                        break;
                    }
                }
            }
        }
        match Progress::outcome(&self.reply, self.exit) {
            Some(status) if !timed_out => status,
            _ => CallStatus::TimedOut,
        }
    }
}

/// The runner's end of a bot's stderr: as made, until something waits for it through the
/// event loop.
#[derive(Debug)]
enum Stderr {
    Unregistered(OwnedFd),
    Registered(pipe::Receiver),
}

/// The end of what a bot that did not reply normally wrote to stderr: `errors` and, if
/// stderr is still open, what comes within [`LEAK_GRACE`] (something it started may hold
/// stderr a moment longer).
async fn last_words(mut errors: Tail, stderr: Stderr) -> Vec<u8> {
    if !errors.ended {
        let pipe = match stderr {
            Stderr::Registered(pipe) => Ok(pipe),
            Stderr::Unregistered(fd) => receiver(fd),
        };
        if let Ok(pipe) = pipe {
            let _ = timeout(LEAK_GRACE, errors.read_all(&pipe)).await;
        }
    }
    errors.into_bytes()
}

/// Ends a request whose process started but cannot be served because of `error`.
async fn abandon(
    started: Instant,
    error: std::io::Error,
    killer: &Killer,
    waiter: &mut Waiter,
) -> CallResult {
    killer.kill();
    let _ = waiter.wait().await;
    waiter.reap();
    not_started(started, error)
}

/// The result of a request whose process could not be started.
fn not_started(started: Instant, error: std::io::Error) -> CallResult {
    CallResult {
        output: Vec::new(),
        status: CallStatus::not_started(&error),
        elapsed: started.elapsed(),
        stderr: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::bots::ResourceLimits;

    #[test]
    fn a_request_decided_outside_the_event_loop_after_its_deadline_timed_out() {
        let replied = CallStatus::Replied {
            exit: Exit::Success,
        };
        let deadline = Instant::now();
        let late = deadline + Duration::from_millis(1);
        assert_eq!(
            in_time(replied.clone(), deadline, late),
            CallStatus::TimedOut
        );
        assert_eq!(in_time(replied.clone(), deadline, deadline), replied);
    }

    /// What the pipe does not take at once is written through the event loop while the
    /// reply is read.
    #[tokio::test]
    async fn a_request_larger_than_the_pipe_reaches_the_bot_whole() {
        let bot = BotProgram {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), "wc -c".into()],
            dir: std::env::temp_dir(),
            env: BTreeMap::new(),
            rlimits: ResourceLimits::default(),
            sandbox: None,
            private_dir: false,
        };
        let env = CallEnv {
            game: "test",
            seed: 1,
            seat: 0,
        };
        let limits = Limits {
            max_reply_bytes: 100,
            max_stderr_bytes: 100,
        };
        let request = vec![b'x'; 300_000];
        let input = OneShotInput::Stdin(&request);
        let limit = Duration::from_secs(30);
        let mut place = Place::default();
        let result = call_once(
            &mut place,
            &bot,
            &env,
            input,
            limit,
            &limits,
            Waiting::Alone,
        )
        .await;
        assert_eq!(String::from_utf8_lossy(&result.output).trim(), "300000");
    }
}
