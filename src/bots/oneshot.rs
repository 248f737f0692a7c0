//! One-shot requests: a fresh process per request.

use std::pin::pin;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::time::{Instant, sleep_until, timeout, timeout_at};

use super::call::{CallResult, CallStatus, Exit};
use super::capture::{drain_tail, read_capped};
use super::process::{Place, write_at_once};
use super::program::{BotProgram, CallEnv, Limits};

/// How long to wait, after a bot exited, for its stdout to close. Only a grandchild that
/// inherited the pipe keeps it open; it is killed with the group after this grace.
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
/// request.
pub async fn call_once(
    place: &mut Place,
    bot: &BotProgram,
    env: &CallEnv,
    input: OneShotInput<'_>,
    limit: Duration,
    limits: &Limits,
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
    let stdin_piped = matches!(input, OneShotInput::Stdin(_));
    let process = match timeout_at(deadline, place.start(bot, env, stdin_piped, extra_args)).await {
        Ok(Ok(process)) => process,
        Ok(Err(error)) => return not_started(started, error),
        Err(_) => {
            // The box may still start it: nothing of this request may run on.
            place.kill_all();
            return CallResult {
                output: Vec::new(),
                status: CallStatus::TimedOut,
                elapsed: started.elapsed(),
                stderr: Vec::new(),
            };
        }
    };
    let (stdin, stdout, stderr) = (process.stdin, process.stdout, process.stderr);
    let (mut waiter, kill) = (process.handle.waiter, process.handle.killer);

    // Writing and reading run together: a bot may answer before reading all its input, or
    // never read it at all (a broken pipe is then expected, not an error).
    let unwritten = match stdin.map(|stdin| write_at_once(stdin, stdin_bytes)) {
        Some(Err(error)) => {
            kill.kill();
            let _ = waiter.wait().await;
            return not_started(started, error);
        }
        Some(Ok(unwritten)) => unwritten,
        None => None,
    };
    let mut reply = pin!(async {
        let write = async {
            if let Some((mut stdin, rest)) = unwritten {
                let _ = stdin.write_all(rest).await;
            }
        };
        let (_, captured) = tokio::join!(write, read_capped(stdout, limits.max_reply_bytes));
        captured
    });
    let mut errors = pin!(drain_tail(stderr, limits.max_stderr_bytes));
    let mut exited = pin!(waiter.wait());
    // Two timers for the whole call, not a new one per turn of the loop: each costs a
    // registration in the runtime's timer wheel.
    let mut timed_out = pin!(sleep_until(deadline));
    let mut leak_grace = pin!(sleep_until(deadline));

    let mut captured: Option<Vec<u8>> = None;
    let mut exit: Option<Exit> = None;
    let mut stderr_tail = None;
    // Whether the bot exited while its stdout is still open (the leak grace is running).
    let mut leaking = false;
    let status = loop {
        if let (Some(bytes), Some(exit)) = (&captured, exit) {
            // A crash that printed nothing is a crash, not an (invalid) empty reply.
            break if bytes.is_empty() && exit.is_abnormal() {
                CallStatus::Died { exit }
            } else {
                CallStatus::Replied { exit }
            };
        }
        // The reply before the exit when both are ready, so that the leak grace is not
        // armed for nothing (branches are otherwise polled in a random order).
        tokio::select! {
            biased;
            bytes = &mut reply, if captured.is_none() => {
                if bytes.overflow {
                    break CallStatus::TooLong;
                }
                captured = Some(bytes.bytes);
            }
            status = &mut exited, if exit.is_none() => {
                exit = Some(status);
                // Armed only while stdout is open: an earlier timer than the deadline
                // makes the runtime wake its event loop to sleep less.
                if captured.is_none() {
                    leak_grace.as_mut().reset(Instant::now() + LEAK_GRACE);
                    leaking = true;
                }
            }
            tail = &mut errors, if stderr_tail.is_none() => stderr_tail = Some(tail),
            () = &mut leak_grace, if leaking => {
                // The bot exited but something it started still holds stdout open.
                kill.kill();
                leaking = false;
            }
            () = &mut timed_out => break CallStatus::TimedOut,
        }
    };
    kill.kill();
    if exit.is_none() {
        // Reap the killed process; SIGKILL cannot be ignored, so this is prompt.
        let _ = exited.await;
    }
    let replied = matches!(status, CallStatus::Replied { exit } if !exit.is_abnormal());
    let stderr = match stderr_tail {
        _ if replied => Vec::new(),
        Some(tail) => tail,
        None => timeout(LEAK_GRACE, errors).await.unwrap_or_default(),
    };
    let output = match status {
        CallStatus::Replied { .. } => captured.unwrap_or_default(),
        _ => Vec::new(),
    };
    CallResult {
        output,
        status,
        elapsed: started.elapsed(),
        stderr,
    }
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
        let result = call_once(&mut Place::default(), &bot, &env, input, limit, &limits).await;
        assert_eq!(String::from_utf8_lossy(&result.output).trim(), "300000");
    }
}
