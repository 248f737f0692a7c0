//! Killing a bot's whole process group, so that children a bot started die with it.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The groups alive in this process, for [`kill_every_group`].
static LIVE: Mutex<BTreeSet<libc::pid_t>> = Mutex::new(BTreeSet::new());

/// Kills every bot process group this process started and has not killed yet: for ending
/// the process at once (a second Ctrl-C), when no game is left to drop its bots.
pub fn kill_every_group() {
    let live = LIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for &id in live.iter() {
        // SAFETY: as in `ProcessGroup::kill`: a group we created for one bot.
        unsafe {
            libc::kill(-id, libc::SIGKILL);
        }
    }
}

/// The process group of one bot process (started with `process_group(0)`, so the group id
/// is the child's pid). Dropping the guard kills the group: no game can leave processes
/// behind, whatever path it takes out.
#[derive(Debug)]
pub(crate) struct ProcessGroup {
    id: Option<libc::pid_t>,
    /// SIGKILL was sent to the group: every member died of it, and none could join it
    /// since (the kernel fails a fork that a signal to the group interrupts), so one kill
    /// is enough.
    killed: AtomicBool,
}

impl ProcessGroup {
    /// The group led by a freshly spawned child, not reaped yet.
    pub(crate) fn led_by(pid: u32) -> ProcessGroup {
        let id = libc::pid_t::try_from(pid).ok();
        if let Some(id) = id {
            LIVE.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(id);
        }
        ProcessGroup {
            id,
            killed: AtomicBool::new(false),
        }
    }

    /// Sends SIGKILL to every process in the group, once. A group that is already empty is
    /// not an error.
    pub(crate) fn kill(&self) {
        if let Some(id) = self.id {
            if self.killed.swap(true, Ordering::Relaxed) {
                return;
            }
            // SAFETY: `kill` has no memory-safety preconditions; a negative pid addresses the
            // process group, which we created for this bot alone.
            unsafe {
                libc::kill(-id, libc::SIGKILL);
            }
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
        if let Some(id) = self.id {
            LIVE.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&id);
        }
    }
}
