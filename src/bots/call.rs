//! What one request to a bot process produced.

use std::fmt;
use std::process::ExitStatus;
use std::time::Duration;

use super::fault::RunnerFault;

/// The result of one request: the reply bytes and how the process behaved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallResult {
    /// What the bot printed: one-shot, all of stdout; session, one line without its newline.
    /// Empty unless [`CallResult::status`] says the output is usable.
    pub output: Vec<u8>,
    /// How the request ended.
    pub status: CallStatus,
    /// Wall time from the start of the request to its end.
    pub elapsed: Duration,
    /// The end of what the process wrote to stderr (bounded), for diagnostics. Filled only
    /// when the request did not end with a normal reply.
    pub stderr: Vec<u8>,
}

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallStatus {
    /// The bot replied; `exit` says how a one-shot process ended (a session that is still
    /// running reports [`Exit::Running`]). A process that printed and then crashed replied.
    Replied {
        /// How the process ended.
        exit: Exit,
    },
    /// No complete reply before the deadline; the process group was killed.
    TimedOut,
    /// The reply exceeded the size cap; the process group was killed.
    TooLong,
    /// The process could not be started, for a reason of the bot's (its program).
    SpawnFailed(String),
    /// The process could not be started because the runner ran out of a resource: not the
    /// bot's failure.
    RunnerFault(RunnerFault),
    /// The process ended (or closed its stdout) without replying.
    Died {
        /// How the process ended, if it was reaped.
        exit: Exit,
    },
    /// The session ended earlier in this game; nothing was sent.
    SessionGone,
}

/// Whether a request is all its thread waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// Nothing else is sent or awaited until it ends: it may block the thread for a moment
    /// while it waits for a quick reply, which skips the event loop's work on every request.
    /// The thread's other tasks (the persistent bots' stderr drains) wait meanwhile.
    Alone,
    /// Sent together with other requests, which must go on meanwhile.
    Together,
}

/// How a bot process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Still running (persistent sessions).
    Running,
    /// Exit status 0.
    Success,
    /// A non-zero exit status.
    Code(i32),
    /// Ended by a signal.
    Signal(i32),
    /// Killed by the kernel (`SIGKILL`) because its box's processes together reached the
    /// memory limit (the box's cgroup said so).
    OutOfMemory,
    /// Still running when it should have ended (it closed its stdout, or was told the game
    /// was over), so the runner killed it: not the bot's own signal.
    Stopped,
    /// The exit status could not be read.
    Unknown,
}

impl CallStatus {
    /// How a request ended whose process could not be started with `error`.
    pub(crate) fn not_started(error: &std::io::Error) -> CallStatus {
        match RunnerFault::of(error) {
            Some(fault) => CallStatus::RunnerFault(fault),
            None => CallStatus::SpawnFailed(error.to_string()),
        }
    }
}

impl Exit {
    /// Whether a process that replied and then ended like this crashed, as a tournament
    /// counts it: a one-shot process that ended abnormally, or a persistent one that ended
    /// at all (it owed the game more replies). `arena check` and the driver both ask this.
    pub fn crashed_after_reply(self, persistent: bool) -> bool {
        self.is_abnormal() || (persistent && self != Exit::Running)
    }

    /// Classifies a reaped process's status.
    pub(crate) fn from_status(status: ExitStatus) -> Exit {
        use std::os::unix::process::ExitStatusExt;
        if status.success() {
            Exit::Success
        } else if let Some(code) = status.code() {
            Exit::Code(code)
        } else if let Some(signal) = status.signal() {
            Exit::Signal(signal)
        } else {
            Exit::Unknown
        }
    }

    /// Whether the process ended of a signal that stops runs (`TERM`, `INT`, `HUP`), or
    /// exited as programs that catch one do (status 128 + its number): whatever is stopping
    /// the whole run may have sent it, to every process at once.
    pub fn by_stop_signal(self) -> bool {
        use crate::signals::STOP_SIGNALS;
        match self {
            Exit::Signal(signal) => STOP_SIGNALS.contains(&signal),
            Exit::Code(code) => STOP_SIGNALS.iter().any(|&signal| code == 128 + signal),
            Exit::Running | Exit::Success | Exit::Stopped | Exit::Unknown | Exit::OutOfMemory => {
                false
            }
        }
    }

    /// Whether the process ended abnormally (a crash, as far as the results are concerned).
    pub fn is_abnormal(self) -> bool {
        matches!(
            self,
            Exit::Code(_) | Exit::Signal(_) | Exit::OutOfMemory | Exit::Stopped | Exit::Unknown
        )
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exit::Running => f.write_str("still running"),
            Exit::Success => f.write_str("exit status 0"),
            Exit::Code(code) => write!(f, "exit status {code}"),
            Exit::Signal(signal) => match signal_meaning(*signal) {
                Some(meaning) => write!(f, "killed by signal {signal} ({meaning})"),
                None => write!(f, "killed by signal {signal}"),
            },
            Exit::OutOfMemory => f.write_str(
                "killed by signal 9 (SIGKILL) from the kernel: its processes together reached \
                 their memory limit, `memory_mb`",
            ),
            Exit::Stopped => f.write_str("still running, so stopped by arena"),
            Exit::Unknown => f.write_str("unknown exit status"),
        }
    }
}

/// What the signals a bot commonly dies of mean, named as people look them up; the CPU
/// limit's own says which limit it was.
fn signal_meaning(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGXCPU => "SIGXCPU: its CPU time limit, `cpu_seconds`, was reached",
        libc::SIGKILL => "SIGKILL",
        // A program whose allocation `RLIMIT_AS` refuses often dies of it (Python, Node.js).
        libc::SIGSEGV => {
            "SIGSEGV, a segmentation fault, also what an allocation refused under the memory \
             limit, `memory_mb`, often ends in"
        }
        libc::SIGABRT => "SIGABRT, an abort",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE, an arithmetic error",
        libc::SIGILL => "SIGILL, an illegal instruction",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGPIPE => "SIGPIPE, a write to a closed pipe",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGHUP => "SIGHUP",
        // The sandbox's filter ends a process that makes another architecture's calls.
        libc::SIGSYS => "SIGSYS: a system call the sandbox refuses, such as a 32-bit one",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::Exit;

    #[test]
    fn a_signal_is_named_and_the_cpu_limits_says_so() {
        assert_eq!(
            Exit::Signal(libc::SIGXCPU).to_string(),
            "killed by signal 24 (SIGXCPU: its CPU time limit, `cpu_seconds`, was reached)"
        );
        assert_eq!(
            Exit::Signal(libc::SIGSEGV).to_string(),
            "killed by signal 11 (SIGSEGV, a segmentation fault, also what an allocation refused \
             under the memory limit, `memory_mb`, often ends in)"
        );
        assert_eq!(
            Exit::Signal(libc::SIGSYS).to_string(),
            "killed by signal 31 (SIGSYS: a system call the sandbox refuses, such as a 32-bit one)"
        );
        assert_eq!(Exit::Signal(64).to_string(), "killed by signal 64");
    }

    #[test]
    fn a_stop_signal_is_term_int_or_hup_or_the_exit_status_of_a_program_that_caught_one() {
        let stopped = [
            Exit::Signal(libc::SIGTERM),
            Exit::Signal(libc::SIGINT),
            Exit::Signal(libc::SIGHUP),
            Exit::Code(143),
            Exit::Code(130),
        ];
        assert!(stopped.iter().all(|exit| exit.by_stop_signal()));
        let others = [
            Exit::Signal(libc::SIGKILL),
            Exit::Signal(libc::SIGSEGV),
            Exit::Code(1),
            Exit::Code(137),
            Exit::Stopped,
            Exit::Success,
            Exit::Running,
        ];
        assert!(others.iter().all(|exit| !exit.by_stop_signal()));
    }
}
