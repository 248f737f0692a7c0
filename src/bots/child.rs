//! A bot process the runner started itself (no box). Its end is learnt without reaping it
//! (`waitid` with `WNOWAIT`), so that its pid, which names its process group, stays taken
//! until the group has been killed, and is reaped after that ([`DirectChild::reap`], or when
//! dropped). The event loop waits for it through a pidfd, a descriptor that becomes readable
//! when the process ends, opened at the first such wait: a lone request waits with a
//! blocking `waitid` that the read watchdog bounds (see `blocking.rs`) and needs none.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ExitStatus};
use std::time::Duration;

use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

use super::blocking::Wait;
use super::call::Exit;
use crate::sandbox::{check, owned};

/// A directly started bot process. Dropping one kills it if it still runs (the process
/// alone; its group is the [`super::process::Killer`]'s) and reaps it.
#[derive(Debug)]
pub(crate) struct DirectChild {
    child: Child,
    /// Its pidfd, once a wait through the event loop has asked for one (`None` inside if the
    /// kernel gave none).
    pidfd: Option<Option<OwnedFd>>,
    /// How it ended, once known; it is reaped by [`DirectChild::reap`] or when dropped.
    exit: Option<Exit>,
}

/// How often [`DirectChild::wait`] looks again if the event loop cannot watch the process.
const LOOK_AGAIN: Duration = Duration::from_millis(10);

impl DirectChild {
    /// Watches `child`, just started.
    pub(crate) fn new(child: Child) -> DirectChild {
        DirectChild {
            child,
            pidfd: None,
            exit: None,
        }
    }

    /// The process's id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    fn pid(&self) -> libc::pid_t {
        self.child.id() as libc::pid_t
    }

    /// How the process ended, if it has.
    pub(crate) fn exit_now(&mut self) -> Option<Exit> {
        learn_exit(self.pid(), &mut self.exit)
    }

    /// Reaps the process if it has ended. Its pid, which names its process group, may name
    /// another process after this: kill the group first.
    pub(crate) fn reap(&mut self) {
        if self.exit_now().is_some() {
            let _ = self.child.try_wait();
        }
    }

    /// Waits for the process to end with a blocking `waitid` that `wait` bounds: how it
    /// ended, or `None` once the watchdog ended the wait.
    pub(crate) fn wait_blocking(&mut self, wait: &Wait<'_>) -> Option<Exit> {
        if let Some(exit) = self.exit {
            return Some(exit);
        }
        let pid = self.pid();
        let exit = match wait.block(|| ended(pid, 0))? {
            Ok(Some(exit)) => exit,
            Ok(None) => return None,
            Err(_) => Exit::Unknown,
        };
        Some(*self.exit.insert(exit))
    }

    /// Waits through the event loop for the process to end. Cancel-safe.
    pub(crate) async fn wait(&mut self) -> Exit {
        let pid = self.pid();
        if let Some(exit) = learn_exit(pid, &mut self.exit) {
            return exit;
        }
        // SAFETY: pidfd_open takes no pointers; the child is ours and not reaped, so its
        // pid names it.
        let pidfd = self.pidfd.get_or_insert_with(|| {
            owned(unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) }).ok()
        });
        // SAFETY: the borrowed pidfd stays open while the registration lives.
        let watched = pidfd.as_ref().and_then(|pidfd| {
            unsafe { AsyncFd::register_with_interest(pidfd.as_fd(), Interest::READABLE) }.ok()
        });
        loop {
            if let Some(exit) = learn_exit(pid, &mut self.exit) {
                return exit;
            }
            match &watched {
                Some(watched) => match watched.readable().await {
                    Ok(mut ready) => ready.clear_ready(),
                    Err(_) => tokio::time::sleep(LOOK_AGAIN).await,
                },
                None => tokio::time::sleep(LOOK_AGAIN).await,
            }
        }
    }
}

/// How the child `pid` ended, if it has, kept in `exit`; it is not reaped.
fn learn_exit(pid: libc::pid_t, exit: &mut Option<Exit>) -> Option<Exit> {
    if exit.is_none() {
        *exit = ended(pid, libc::WNOHANG).unwrap_or(Some(Exit::Unknown));
    }
    *exit
}

/// How the child `pid` ended, without reaping it; `Ok(None)` if it has not and `flags` has
/// `WNOHANG`, else `waitid` blocks until it has.
fn ended(pid: libc::pid_t, flags: libc::c_int) -> io::Result<Option<Exit>> {
    // SAFETY: waitid writes one siginfo_t into `info`; WNOWAIT leaves the child unreaped.
    let info = unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOWAIT | flags;
        check(libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags).into())?;
        info
    };
    // SAFETY: waitid filled in a child's state, whose fields these read.
    let (pid, status) = unsafe { (info.si_pid(), info.si_status()) };
    if pid == 0 {
        return Ok(None);
    }
    // The wait status `wait4` would have given, which std decodes.
    let raw = match info.si_code {
        libc::CLD_EXITED => (status & 0xff) << 8,
        libc::CLD_KILLED => status,
        libc::CLD_DUMPED => status | 0x80,
        _ => return Ok(Some(Exit::Unknown)),
    };
    Ok(Some(Exit::from_status(ExitStatus::from_raw(raw))))
}

impl Drop for DirectChild {
    fn drop(&mut self) {
        if self.exit_now().is_none() {
            let _ = self.child.kill();
            if self.exit_now().is_none() {
                // SIGKILL ends it within moments; reap it then, without holding up this
                // thread.
                let pid = self.pid();
                let reaped = std::thread::Builder::new()
                    .name("reaper".into())
                    .spawn(move || {
                        // SAFETY: waitpid with a null status pointer writes nothing; the pid
                        // is our unreaped child, so it names no other process.
                        unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
                    });
                if reaped.is_err() {
                    // No thread to spare: wait here rather than leave a zombie behind.
                    let _ = self.child.wait();
                }
                return;
            }
        }
        self.reap();
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;
    use crate::bots::blocking::{End, SESSION_WAIT};

    #[tokio::test]
    async fn waits_for_the_end_through_the_event_loop() {
        let child = Command::new("/bin/sh")
            .args(["-c", "exit 7"])
            .spawn()
            .unwrap();
        let mut child = DirectChild::new(child);
        assert_eq!(child.wait().await, Exit::Code(7));
        assert_eq!(child.exit_now(), Some(Exit::Code(7)));
    }

    /// Whether a process `pid` exists, a zombie included.
    fn exists(pid: libc::pid_t) -> bool {
        // SAFETY: kill with signal 0 only checks that the process exists.
        unsafe { libc::kill(pid, 0) == 0 }
    }

    #[test]
    fn an_ended_child_keeps_its_pid_until_it_is_reaped() {
        let child = Command::new("/bin/sh")
            .args(["-c", "kill -9 $$"])
            .spawn()
            .unwrap();
        let mut child = DirectChild::new(child);
        let pid = child.pid();
        let (stderr, _writer) = crate::sandbox::pipe().unwrap();
        // A wait may end at the watchdog's tick before the child has; then another one.
        let mut exit = None;
        for _ in 0..500 {
            let wait = Wait::begin(stderr.as_fd(), End::Untold, SESSION_WAIT).unwrap();
            exit = child.wait_blocking(&wait);
            if exit.is_some() {
                break;
            }
        }
        assert_eq!(exit, Some(Exit::Signal(libc::SIGKILL)));
        // Its end is known, and its pid (the name of its process group) still taken.
        assert!(exists(pid));
        child.reap();
        assert!(!exists(pid));
        assert_eq!(child.exit_now(), Some(Exit::Signal(libc::SIGKILL)));
    }

    #[test]
    fn a_blocking_wait_for_a_child_that_runs_on_ends_with_the_wait() {
        let child = Command::new("/bin/sleep").arg("600").spawn().unwrap();
        let mut child = DirectChild::new(child);
        let (stderr, _writer) = crate::sandbox::pipe().unwrap();
        let wait = Wait::begin(stderr.as_fd(), End::Untold, SESSION_WAIT).unwrap();
        let started = std::time::Instant::now();
        assert_eq!(child.wait_blocking(&wait), None);
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(child.exit_now(), None);
    }

    #[test]
    fn a_running_child_has_no_exit_and_is_killed_and_reaped_when_dropped() {
        let child = Command::new("/bin/sleep").arg("600").spawn().unwrap();
        let mut child = DirectChild::new(child);
        assert_eq!(child.exit_now(), None);
        let pid = child.id() as libc::pid_t;
        drop(child);
        // Reaped (here or by the reaper thread) within moments: then the pid is no child
        // of this process any more.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            // SAFETY: kill with signal 0 only checks that the process exists.
            let gone = unsafe { libc::kill(pid, 0) } == -1;
            if gone {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "{pid} still there");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
