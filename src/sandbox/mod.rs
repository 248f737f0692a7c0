//! The sandbox: a box per bot per game, between the process layer and the bot's processes.
//!
//! A box is the `arena` binary started again as a helper ([`BOX_ARG`]) that moves into new
//! namespaces (mount, PID, IPC, UTS, network unless the bot may use it, and user when
//! `arena` is not root), shows the bot a read-only file system with its own folders, a
//! private `/tmp` ([`mounts`]) and a bounded tmpfs for its private folder, copied in and
//! back out ([`private`]), joins a cgroup where it can ([`cgroup`]), and then serves as the
//! init (PID 1) of the box: it starts each of the bot's processes on request, with the
//! stdio descriptors the runner sends it, as an unprivileged user, under its limits, and
//! reports how they end ([`inside`]). The runner's side is [`BotBox`].
//!
//! Why a helper that stays rather than namespaces per process: a new network namespace
//! costs milliseconds to make and tear down, a one-shot game starts a process per request,
//! and the box's init starts each one with a plain `fork` inside namespaces made once.

mod cgroup;
mod client;
mod home;
mod inside;
mod mounts;
mod private;
mod support;
mod sys;
mod syscalls;
mod wire;

use std::path::PathBuf;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

pub(crate) use client::Ending;
pub use client::{BotBox, SetupRefused, wait_for_abandoned};
pub use home::runner_home;
pub use inside::serve;
pub use mounts::{FOLDER_BYTES, FOLDER_ENTRIES, TMP_BYTES};
pub use support::check_support;
pub(crate) use sys::{check, owned, pipe, set_nonblocking};
pub use wire::EmptiedFolder;
pub(crate) use wire::Spawn;

/// Opens the folder `path` refusing every symbolic link on the way.
pub(crate) fn open_without_links(path: &std::path::Path) -> std::io::Result<std::os::fd::OwnedFd> {
    sys::open_path(path, true)
}

/// The first argument that makes the `arena` binary serve as a box.
pub const BOX_ARG: &str = "__arena-box";

/// The uid (and gid) bots run as when `arena` runs as root: `nobody`.
pub const NOBODY: u32 = 65534;

/// The default of `max_processes`: processes (and threads) one box may hold at once.
pub const DEFAULT_MAX_PROCESSES: u32 = 64;

/// The most `max_processes`: a cgroup's `pids.max` takes at most the kernel's bound on
/// process IDs (`PID_MAX_LIMIT`, 4 Mi on 64-bit); a larger value left the box without its
/// cgroup, and its processes could not start.
pub const MAX_PROCESSES: u32 = 4 * 1024 * 1024;

/// What one bot's box shows it and how much it may use.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxSpec {
    /// Folders the bot reads: its `dir`, its program's folder, its compiled classes. They
    /// stay visible (read-only) even inside a hidden folder.
    pub readable: Vec<PathBuf>,
    /// Folders the bot writes: a game's private folder. Opened without following links.
    /// Filled from the bot's program when its box is made (see `bots::Place`).
    pub writable: Vec<PathBuf>,
    /// Folders the bot must not see: the results, the tournament file's folder, the other
    /// bots' folders.
    pub hidden: Vec<PathBuf>,
    /// Whether the bot keeps the machine's network (`network = true`); otherwise it has a
    /// network namespace of its own with only a loopback interface.
    pub network: bool,
    /// Memory of the whole box (cgroup), where cgroups can be used: the bot's `memory_mb`,
    /// filled from its program when its box is made.
    pub memory_bytes: Option<u64>,
    /// Processes and threads the box may hold at once.
    pub max_processes: u32,
    /// The CPU time the whole box may use per second, in thousandths of a core (`cpus`):
    /// a cgroup's quota, so that a bot's threads cannot take the cores of the games beside
    /// it. `None`: no quota.
    pub cpu_millis: Option<u32>,
}

/// As derived, but without `cpu_millis` when it is unset: a journal keeps the digest of its
/// tournament's bots' text (`Tournament::digest`), and a box without a quota reads as it did
/// before `cpus` existed, so that runs begun by an earlier build still resume.
impl std::fmt::Debug for BoxSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut fields = f.debug_struct("BoxSpec");
        fields
            .field("readable", &self.readable)
            .field("writable", &self.writable)
            .field("hidden", &self.hidden)
            .field("network", &self.network)
            .field("memory_bytes", &self.memory_bytes)
            .field("max_processes", &self.max_processes);
        if let Some(millis) = self.cpu_millis {
            fields.field("cpu_millis", &millis);
        }
        fields.finish()
    }
}

/// How a box enforces its limits on this machine, as the box reports when it is ready.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enforced {
    /// The uid the bot's processes have on the machine.
    pub uid: u32,
    /// The cgroup that bounds the memory and processes of the whole box ("cgroup v1" or
    /// "cgroup v2"); `None`: the kernel did not let `arena` make one, so processes are
    /// bounded by `RLIMIT_NPROC` and memory per process only.
    pub cgroup: Option<String>,
    /// Whether the box has a network namespace of its own.
    pub own_network: bool,
}

static HELPER: OnceLock<PathBuf> = OnceLock::new();

/// Names the `arena` binary that serves as the box helper. The binary itself needs no call
/// (it is its own helper); tests and benchmarks that drive the library give the binary.
pub fn use_helper(program: PathBuf) {
    let _ = HELPER.set(program);
}

/// The program that serves as the box helper: the one [`use_helper`] named, else this one
/// (by `/proc/self/exe`, which still names it when its file was replaced since it started).
fn helper() -> PathBuf {
    HELPER
        .get()
        .cloned()
        .unwrap_or_else(|| PathBuf::from("/proc/self/exe"))
}

#[cfg(test)]
mod tests {
    use super::BoxSpec;

    /// The text a journal's tournament digest is made of: unchanged for a box without a
    /// quota (as `derive(Debug)` wrote it before `cpus`), and naming the quota otherwise.
    #[test]
    fn a_box_without_a_quota_reads_as_before_cpus() {
        let spec = BoxSpec {
            max_processes: 64,
            ..BoxSpec::default()
        };
        assert_eq!(
            format!("{spec:?}"),
            "BoxSpec { readable: [], writable: [], hidden: [], network: false, \
             memory_bytes: None, max_processes: 64 }"
        );
        let quota = BoxSpec {
            cpu_millis: Some(1500),
            ..spec
        };
        assert!(format!("{quota:?}").ends_with("max_processes: 64, cpu_millis: 1500 }"));
    }
}
