//! Persistent sessions: one long-lived process per bot per game, one line per request.

use std::os::fd::{AsFd, OwnedFd};
use std::pin::{Pin, pin};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout, timeout_at};

use super::blocking::SESSION_WAIT;
use super::call::{CallResult, CallStatus, Exit, Waiting};
use super::capture::{SharedTail, Tail, drain_into};
use super::process::{Killer, Lifetime, Place, Waiter, receiver, sender, write_now};
use super::program::{BotProgram, CallEnv, Limits};
use super::replies::{Line, Replies};

/// How long a session may take to exit on its own (after its farewell, or after it closed
/// stdout) before its process group is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// A running persistent bot process. After a timeout, an oversized reply or the process's
/// end, the session is gone: a late reply would otherwise be taken as the answer to the next
/// request. Dropping a session kills its process group (or, in a box, the box ends with its
/// place at the end of the game).
#[derive(Debug)]
pub struct Session {
    waiter: Waiter,
    killer: Killer,
    stdin: Option<pipe::Sender>,
    stdout: Replies,
    /// The end of what the process wrote to stderr, which `drain` reads for the session's
    /// life (a bot must never block on a full stderr pipe).
    stderr: SharedTail,
    /// Taken when the session ends.
    drain: Option<JoinHandle<()>>,
    /// The stderr pipe once more, to take what is in it now ([`Session::stderr_written`]).
    stderr_pipe: OwnedFd,
    /// How much of stderr [`Session::stderr_written`] has returned.
    stderr_returned: u64,
}

/// A reply from a session that is still running.
const REPLIED: CallStatus = CallStatus::Replied {
    exit: Exit::Running,
};

/// How to end a session that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// It closed stdout: let it exit on its own, briefly.
    Wait,
    /// It misbehaved (timeout, oversized reply): kill it at once.
    Kill,
}

impl Session {
    /// Starts the bot's process in `place`. Stderr is drained in the background for the
    /// session's life.
    pub async fn start(
        place: &mut Place,
        bot: &BotProgram,
        env: &CallEnv,
        limits: &Limits,
    ) -> std::io::Result<Session> {
        let process = place.start(bot, env, Lifetime::Session).await?;
        let stdout = Replies::new(receiver(process.stdout)?, process.stderr.as_fd());
        let stderr_pipe = process.stderr.try_clone()?;
        let stderr = Arc::new(Mutex::new(Tail::new(limits.max_stderr_bytes)));
        let drain = tokio::spawn(drain_into(receiver(process.stderr)?, stderr.clone()));
        Ok(Session {
            waiter: process.handle.waiter,
            killer: process.handle.killer,
            stdin: process.stdin.map(sender).transpose()?,
            stdout,
            stderr,
            drain: Some(drain),
            stderr_pipe,
            stderr_returned: 0,
        })
    }

    /// Writes `request` and reads one reply line within `limit`. A request sent
    /// [`Waiting::Alone`] is written and waited for outside the event loop while that is
    /// quick, and through it after that.
    pub async fn request(
        &mut self,
        request: &[u8],
        limit: Duration,
        limits: &Limits,
        waiting: Waiting,
    ) -> CallResult {
        let started = Instant::now();
        let Some(stdin) = self.stdin.as_mut() else {
            return finish(started, Vec::new(), CallStatus::SessionGone, Vec::new());
        };
        let cap = limits.max_reply_bytes;
        let (unwritten, outside) = write_alone(stdin, request, waiting, limit);
        if outside {
            match line_outside(&mut self.stdout, started, limit, cap) {
                Ok(Some(replied)) => return replied,
                Ok(None) => {}
                Err(line) => return self.failed(started, line).await,
            }
        }
        let stdout = &mut self.stdout;
        let exchange = async {
            // A write error means the bot stopped reading; what it printed decides below.
            let _ = async {
                stdin.write_all(unwritten).await?;
                stdin.flush().await
            }
            .await;
            stdout.line(cap).await
        };
        match timeout_at(started + limit, exchange).await {
            Ok(Line::Complete(line)) => finish(started, line, REPLIED, Vec::new()),
            failure => self.failed(started, failure.ok()).await,
        }
    }

    /// Writes `request`, which holds `replies` requests, and reads one reply line for each,
    /// in order, while the request is still being written (a long batch does not fit in the
    /// pipe). Each reply has `limit` from the previous one (the first, from the start), so
    /// each is timed like a request of its own. After a failure the session is gone: the
    /// failed reply says why, the later ones are [`CallStatus::SessionGone`]. An exchange
    /// sent [`Waiting::Alone`] that the pipe takes at once reads its replies outside the
    /// event loop while they come quickly, as a lone request does.
    pub async fn exchange(
        &mut self,
        request: &[u8],
        replies: usize,
        limit: Duration,
        limits: &Limits,
        waiting: Waiting,
    ) -> Vec<CallResult> {
        let mut results = Vec::with_capacity(replies);
        let mut started = Instant::now();
        let mut failure = None;
        if let Some(stdin) = self.stdin.as_mut() {
            let cap = limits.max_reply_bytes;
            let (unwritten, outside) = write_alone(stdin, request, waiting, limit);
            while outside && results.len() < replies {
                match line_outside(&mut self.stdout, started, limit, cap) {
                    Ok(Some(replied)) => {
                        results.push(replied);
                        started = Instant::now();
                    }
                    Ok(None) => break,
                    Err(line) => {
                        failure = Some(line);
                        break;
                    }
                }
            }
            let stdout = &mut self.stdout;
            // A write error means the bot stopped reading; what it printed decides below.
            let writing = async {
                let _ = stdin.write_all(unwritten).await;
                let _ = stdin.flush().await;
            };
            let mut writing = pin!(writing);
            let mut written = false;
            while failure.is_none() && results.len() < replies {
                let line = timeout_at(started + limit, async {
                    let mut reading = pin!(stdout.line(cap));
                    if !written {
                        tokio::select! {
                            biased;
                            line = &mut reading => return line,
                            () = &mut writing => written = true,
                        }
                    }
                    reading.await
                })
                .await;
                match line {
                    Ok(Line::Complete(line)) => {
                        results.push(finish(started, line, REPLIED, Vec::new()));
                        started = Instant::now();
                    }
                    line => {
                        failure = Some(line.ok());
                        break;
                    }
                }
            }
        }
        if let Some(line) = failure {
            let failed = self.failed(started, line).await;
            results.push(failed);
        }
        results.resize_with(replies, || {
            finish(
                Instant::now(),
                Vec::new(),
                CallStatus::SessionGone,
                Vec::new(),
            )
        });
        results
    }

    /// Ends the session after a read that brought no complete line (`None`: the deadline
    /// passed) and says how the request ended. Boxed: the ending's state (the process's end,
    /// the stderr drain) is about 8 KB, which every request's and exchange's future would
    /// otherwise hold, and be copied with, for a path few requests take.
    fn failed(
        &mut self,
        started: Instant,
        line: Option<Line>,
    ) -> Pin<Box<impl Future<Output = CallResult> + '_>> {
        Box::pin(async move {
            let (output, status, ending) = match line {
                // The answer came without a newline and stdout closed: a reply, and the end.
                Some(Line::Unterminated(line) | Line::Complete(line)) => (line, None, Ending::Wait),
                Some(Line::Eof) => (Vec::new(), None, Ending::Wait),
                Some(Line::TooLong) => (Vec::new(), Some(CallStatus::TooLong), Ending::Kill),
                None => (Vec::new(), Some(CallStatus::TimedOut), Ending::Kill),
            };
            let exit = self.end(ending).await;
            let status = status.unwrap_or(if output.is_empty() {
                CallStatus::Died { exit }
            } else {
                CallStatus::Replied { exit }
            });
            let stderr = self.stderr_tail().await;
            finish(started, output, status, stderr)
        })
    }

    /// Ends the session politely: writes `farewell`, closes stdin, gives the bot a moment to
    /// exit, then kills its process group.
    pub async fn close(mut self, farewell: &[u8]) {
        if let Some(mut stdin) = self.stdin.take() {
            if !farewell.is_empty() {
                let _ = timeout(EXIT_GRACE, stdin.write_all(farewell)).await;
            }
        }
        self.end(Ending::Wait).await;
    }

    /// Closes stdin, stops the process and all it started, and reaps the process.
    async fn end(&mut self, ending: Ending) -> Exit {
        self.stdin = None;
        if ending == Ending::Kill {
            self.killer.kill();
        }
        let exit = match timeout(EXIT_GRACE, self.waiter.wait()).await {
            Ok(exit) => exit,
            Err(_) => {
                self.killer.kill();
                self.waiter.wait().await;
                Exit::Stopped
            }
        };
        // Whatever the bot left running goes too, before the pid that names its group is
        // given up.
        self.killer.kill();
        self.waiter.reap();
        exit
    }

    /// What the process wrote to stdout past its last reply line, waiting at most `settle`
    /// for it (see [`Replies::unasked`]); at most about `cap` bytes. It stays unread: the
    /// next request takes it first, as in a tournament.
    pub async fn unasked(&mut self, settle: Duration, cap: usize) -> Vec<u8> {
        self.stdout.unasked(settle, cap).await.to_vec()
    }

    /// The last bytes the ended session wrote to stderr.
    async fn stderr_tail(&mut self) -> Vec<u8> {
        if let Some(drain) = self.drain.take() {
            let _ = timeout(EXIT_GRACE, drain).await;
        }
        self.stderr_kept().after(0)
    }

    /// What the process wrote to stderr since the last call, as far as the cap keeps it:
    /// for `arena check`, which shows it beside an invalid reply. Whatever the bot wrote
    /// before its reply is in the pipe or drained by now (the drain keeps each read in the
    /// poll that made it, and this thread runs it), so it is all here.
    pub fn stderr_written(&mut self) -> Vec<u8> {
        let mut kept = self.stderr_kept();
        kept.read_now(self.stderr_pipe.as_fd());
        let written = kept.after(self.stderr_returned);
        let seen = kept.seen();
        drop(kept);
        self.stderr_returned = seen;
        written
    }

    fn stderr_kept(&self) -> std::sync::MutexGuard<'_, Tail> {
        self.stderr.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.killer.kill();
    }
}

/// Writes a request sent [`Waiting::Alone`] at once, as far as the pipe takes it. Returns
/// what is left for the event loop to write, and whether replies may be waited for outside
/// the loop: all of the request is written and the limit has room for the longest such wait.
fn write_alone<'a>(
    stdin: &pipe::Sender,
    request: &'a [u8],
    waiting: Waiting,
    limit: Duration,
) -> (&'a [u8], bool) {
    match waiting {
        Waiting::Alone => {
            let unwritten = write_now(stdin, request);
            let outside = unwritten.is_empty() && limit > SESSION_WAIT.longest();
            (unwritten, outside)
        }
        Waiting::Together => (request, false),
    }
}

/// One reply line read outside the event loop, timed from `started`: the reply, `None` if
/// the wait ended first (the request goes on in the loop), or why the request failed. The
/// wait ends before the deadline unless the machine held up the watchdog or this thread: a
/// line that came after the deadline is a timeout (`Err(None)`), as in the loop.
fn line_outside(
    stdout: &mut Replies,
    started: Instant,
    limit: Duration,
    cap: usize,
) -> Result<Option<CallResult>, Option<Line>> {
    match stdout.line_without_event_loop(cap) {
        Some(Line::Complete(line)) => {
            let replied = finish(started, line, REPLIED, Vec::new());
            if replied.elapsed > limit {
                return Err(None);
            }
            Ok(Some(replied))
        }
        Some(failure) => Err(Some(failure)),
        None => Ok(None),
    }
}

fn finish(started: Instant, output: Vec<u8>, status: CallStatus, stderr: Vec<u8>) -> CallResult {
    CallResult {
        output,
        status,
        elapsed: started.elapsed(),
        stderr,
    }
}

#[cfg(test)]
mod tests {
    use std::fs::File;
    use std::io::Write;

    use super::*;

    #[tokio::test]
    async fn a_line_read_outside_the_event_loop_after_the_deadline_is_a_timeout() {
        let (read, write) = crate::sandbox::pipe().unwrap();
        let (stderr_read, _stderr_write) = crate::sandbox::pipe().unwrap();
        let mut stdout = Replies::new(receiver(read).unwrap(), stderr_read.as_fd());
        File::from(write).write_all(b"one\ntwo\n").unwrap();
        let started = Instant::now();
        let cap = 10;
        let replied = line_outside(&mut stdout, started, Duration::from_secs(10), cap);
        assert_eq!(replied.unwrap().unwrap().output, b"one");
        std::thread::sleep(Duration::from_millis(5));
        // The line is there, but it came (was read) after its limit.
        let late = line_outside(&mut stdout, started, Duration::from_millis(1), cap);
        assert_eq!(late.unwrap_err(), None);
    }
}
