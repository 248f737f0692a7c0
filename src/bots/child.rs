//! A bot process the runner started itself (no box), watched through a pidfd: a descriptor
//! that becomes readable when the process ends, so that its end can be waited for by the
//! event loop or, for a quick request, by a `poll` of the runner's own (see `oneshot.rs`).

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::process::Child;
use std::time::Duration;

use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

use super::call::Exit;
use crate::sandbox::owned;

/// A directly started bot process and its pidfd. Dropping one that has not been reaped
/// kills it (the process alone; its group is the [`super::process::Killer`]'s) and reaps it.
#[derive(Debug)]
pub(crate) struct DirectChild {
    child: Child,
    pidfd: OwnedFd,
    /// How it ended, once reaped.
    exit: Option<Exit>,
}

/// How often [`DirectChild::wait`] looks again if the event loop would not watch the pidfd.
const LOOK_AGAIN: Duration = Duration::from_millis(10);

impl DirectChild {
    /// Watches `child`, just started. If the kernel gives no pidfd, the child is killed and
    /// reaped and the error returned.
    pub(crate) fn new(mut child: Child) -> io::Result<DirectChild> {
        let pid = libc::pid_t::try_from(child.id()).map_err(io::Error::other)?;
        // SAFETY: pidfd_open takes no pointers; the child is ours and not reaped, so its
        // pid names it.
        match owned(unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) }) {
            Ok(pidfd) => Ok(DirectChild {
                child,
                pidfd,
                exit: None,
            }),
            Err(error) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(error)
            }
        }
    }

    /// The process's id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// The descriptor that becomes readable when the process ends.
    pub(crate) fn pidfd(&self) -> BorrowedFd<'_> {
        self.pidfd.as_fd()
    }

    /// How the process ended, if it has; reaps it the first time.
    pub(crate) fn exit_now(&mut self) -> Option<Exit> {
        reap(&mut self.child, &mut self.exit)
    }

    /// Waits through the event loop for the process to end. Cancel-safe.
    pub(crate) async fn wait(&mut self) -> Exit {
        // SAFETY: the borrowed pidfd stays open while the registration lives.
        let watched =
            unsafe { AsyncFd::register_with_interest(self.pidfd.as_fd(), Interest::READABLE) };
        loop {
            if let Some(exit) = reap(&mut self.child, &mut self.exit) {
                return exit;
            }
            let ready = match &watched {
                Ok(watched) => watched.readable().await.ok(),
                Err(_) => None,
            };
            match ready {
                Some(mut ready) => ready.clear_ready(),
                None => tokio::time::sleep(LOOK_AGAIN).await,
            }
        }
    }
}

/// How `child` ended, if it has, kept in `exit`; reaps it the first time.
fn reap(child: &mut Child, exit: &mut Option<Exit>) -> Option<Exit> {
    if exit.is_none() {
        *exit = match child.try_wait() {
            Ok(status) => status.map(Exit::from_status),
            Err(_) => Some(Exit::Unknown),
        };
    }
    *exit
}

impl Drop for DirectChild {
    fn drop(&mut self) {
        if self.exit_now().is_some() {
            return;
        }
        let _ = self.child.kill();
        if self.exit_now().is_some() {
            return;
        }
        // SIGKILL ends it within moments; reap it then, without holding up this thread.
        let pid = self.child.id() as libc::pid_t;
        let reaped = std::thread::Builder::new()
            .name("reaper".into())
            .spawn(move || {
                // SAFETY: waitpid with a null status pointer writes nothing; the pid is our
                // unreaped child, so it names no other process.
                unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
            });
        if reaped.is_err() {
            // No thread to spare: wait here rather than leave a zombie behind.
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    #[tokio::test]
    async fn waits_for_the_end_through_the_event_loop() {
        let child = Command::new("/bin/sh")
            .args(["-c", "exit 7"])
            .spawn()
            .unwrap();
        let mut child = DirectChild::new(child).unwrap();
        assert_eq!(child.wait().await, Exit::Code(7));
        assert_eq!(child.exit_now(), Some(Exit::Code(7)));
    }

    #[test]
    fn a_running_child_has_no_exit_and_is_killed_and_reaped_when_dropped() {
        let child = Command::new("/bin/sleep").arg("600").spawn().unwrap();
        let mut child = DirectChild::new(child).unwrap();
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
