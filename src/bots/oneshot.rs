//! One-shot requests: a fresh process per request.

use std::pin::pin;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::time::{Instant, sleep_until, timeout};

use super::call::{CallResult, CallStatus, Exit};
use super::capture::{drain_tail, read_capped};
use super::group::ProcessGroup;
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

/// Starts a fresh process of `bot`, gives it `input` and collects everything it writes to
/// stdout until it exits, within `limit`. The whole process group is killed afterwards, so
/// nothing the bot started outlives the request.
pub async fn call_once(
    bot: &BotProgram,
    env: &CallEnv,
    input: OneShotInput<'_>,
    limit: Duration,
    limits: &Limits,
) -> CallResult {
    let started = Instant::now();
    let deadline = started + limit;
    let (stdin_mode, stdin_bytes, extra_args): (Stdio, &[u8], &[String]) = match input {
        OneShotInput::Stdin(bytes) => (Stdio::piped(), bytes, &[]),
        OneShotInput::Args(args) => (Stdio::null(), &[], args),
    };
    let mut command = bot.command(env, stdin_mode);
    command.args(extra_args);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => {
            return CallResult {
                output: Vec::new(),
                status: CallStatus::SpawnFailed(error.to_string()),
                elapsed: started.elapsed(),
                stderr: Vec::new(),
            };
        }
    };
    bot.rlimits.apply_to(child.id());
    let group = ProcessGroup::led_by(child.id());
    let stdin = child.stdin.take();
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");

    // Writing and reading run together: a bot may answer before reading all its input, or
    // never read it at all (a broken pipe is then expected, not an error).
    let mut reply = pin!(async {
        let write = async {
            if let Some(mut stdin) = stdin {
                let _ = stdin.write_all(stdin_bytes).await;
            }
        };
        let (_, captured) = tokio::join!(write, read_capped(stdout, limits.max_reply_bytes));
        captured
    });
    let mut errors = pin!(drain_tail(stderr, limits.max_stderr_bytes));
    let mut exited = pin!(child.wait());
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
        tokio::select! {
            bytes = &mut reply, if captured.is_none() => {
                if bytes.overflow {
                    break CallStatus::TooLong;
                }
                captured = Some(bytes.bytes);
            }
            status = &mut exited, if exit.is_none() => {
                exit = Some(status.map_or(Exit::Unknown, Exit::from_status));
                leak_grace.as_mut().reset(Instant::now() + LEAK_GRACE);
                leaking = true;
            }
            tail = &mut errors, if stderr_tail.is_none() => stderr_tail = Some(tail),
            () = &mut leak_grace, if leaking => {
                // The bot exited but something it started still holds stdout open.
                group.kill();
                leaking = false;
            }
            () = &mut timed_out => break CallStatus::TimedOut,
        }
    };
    group.kill();
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
