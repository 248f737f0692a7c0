//! A control group per box, where the kernel lets `arena` make one (as root, with cgroups v1
//! or v2): it bounds the memory and the number of processes of the whole box, children
//! included, which per-process limits cannot, and, if asked, its share of the CPU.

use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

const ROOT: &str = "/sys/fs/cgroup";

/// The period of a box's CPU quota, in microseconds (the kernel's default).
const CPU_PERIOD_US: u64 = 100_000;

/// The cgroup folders of one box (one per v1 hierarchy, or one v2 folder). Made, and their
/// files opened, before the box's mount namespace makes `/sys` read-only: the descriptors
/// keep working on the machine's mounts.
#[derive(Debug)]
pub(crate) struct BoxCgroup {
    folders: Vec<Folder>,
    /// The file whose `oom_kill` line counts the box's processes the kernel killed for want
    /// of memory (`memory.events` under v2, `memory.oom_control` under v1), if memory is
    /// limited.
    memory_events: Option<File>,
    /// "cgroup v1" or "cgroup v2", for the report of what is enforced.
    pub(crate) kind: &'static str,
}

#[derive(Debug)]
struct Folder {
    /// The folder that holds it, to remove it by name.
    parent: File,
    parent_path: PathBuf,
    name: CString,
    /// What the box's init writes `0` to, to join: `tasks` under v1, `cgroup.procs` under v2.
    join: File,
}

impl BoxCgroup {
    /// Makes the cgroup `name` under `arena/` with at most `max_processes` processes and, if
    /// given, `memory_bytes` of memory and `cpu_millis` thousandths of a core.
    pub(crate) fn create(
        name: &str,
        memory_bytes: Option<u64>,
        max_processes: u32,
        cpu_millis: Option<u32>,
    ) -> io::Result<BoxCgroup> {
        let root = Path::new(ROOT);
        let quota = cpu_millis.map(|millis| u64::from(millis) * CPU_PERIOD_US / 1000);
        // The version, the file through which the init joins (see `join`), the limits, and
        // the file that counts the box's out-of-memory kills.
        let (kind, join_file, limits, events): (_, _, Vec<(PathBuf, &str, String)>, _) =
            if root.join("cgroup.controllers").exists() {
                enable_v2_controllers(root, quota.is_some())?;
                let folder = root.join("arena");
                let mut limits = vec![(folder.clone(), "pids.max", max_processes.to_string())];
                if let Some(bytes) = memory_bytes {
                    limits.push((folder.clone(), "memory.max", bytes.to_string()));
                    limits.push((folder.clone(), "memory.swap.max", "0".to_owned()));
                }
                if let Some(quota) = quota {
                    let max = format!("{quota} {CPU_PERIOD_US}");
                    limits.push((folder.clone(), "cpu.max", max));
                }
                let events = folder.join(name).join("memory.events");
                ("cgroup v2", "cgroup.procs", limits, events)
            } else {
                let mut limits = vec![(
                    root.join("pids/arena"),
                    "pids.max",
                    max_processes.to_string(),
                )];
                if let Some(bytes) = memory_bytes {
                    limits.push((
                        root.join("memory/arena"),
                        "memory.limit_in_bytes",
                        bytes.to_string(),
                    ));
                }
                if let Some(quota) = quota {
                    let cpu = root.join("cpu/arena");
                    let period = CPU_PERIOD_US.to_string();
                    limits.push((cpu.clone(), "cpu.cfs_period_us", period));
                    limits.push((cpu, "cpu.cfs_quota_us", quota.to_string()));
                }
                let events = root
                    .join("memory/arena")
                    .join(name)
                    .join("memory.oom_control");
                ("cgroup v1", "tasks", limits, events)
            };
        let mut cgroup = BoxCgroup {
            folders: Vec::new(),
            memory_events: None,
            kind,
        };
        let c_name = CString::new(name).map_err(io::Error::other)?;
        for (parent, file, value) in limits {
            let folder = parent.join(name);
            if !cgroup
                .folders
                .iter()
                .any(|f| f.name == c_name && f.parent_path == parent)
            {
                std::fs::create_dir_all(&folder)?;
                cgroup.folders.push(Folder {
                    parent: File::open(&parent)?,
                    parent_path: parent.clone(),
                    name: c_name.clone(),
                    join: OpenOptions::new()
                        .write(true)
                        .open(folder.join(join_file))?,
                });
            }
            std::fs::write(folder.join(file), value)?;
        }
        if memory_bytes.is_some() {
            cgroup.memory_events = File::open(events).ok();
        }
        Ok(cgroup)
    }

    /// A counter of the box's out-of-memory kills, for its init, if memory is limited.
    pub(crate) fn oom_kills(&self) -> Option<OomKills> {
        let file = self.memory_events.as_ref()?.try_clone().ok()?;
        Some(OomKills(file))
    }

    /// Moves the calling process, which must have one thread, into the cgroup (and so
    /// everything it will start). Under v1 it joins through `tasks`, as a thread: moving
    /// itself alone, the kernel skips the lock on every thread group that a move through
    /// `cgroup.procs` takes, a wait of an RCU grace period (about 10 ms here; BENCHMARKS.md,
    /// figure g). v2 has only `cgroup.procs` for a process of a domain cgroup.
    pub(crate) fn join(&self) -> io::Result<()> {
        for folder in &self.folders {
            (&folder.join).write_all(b"0")?;
        }
        Ok(())
    }
}

/// The kernel's count of a box's processes it killed because the box's memory, all its
/// processes together, reached the limit: such a process dies of a `SIGKILL` that says
/// nothing of why.
#[derive(Debug)]
pub(crate) struct OomKills(File);

impl OomKills {
    /// The count now (the `oom_kill` line of the events file), if it can be read.
    pub(crate) fn now(&self) -> Option<u64> {
        let mut text = [0u8; 512];
        let read = self.0.read_at(&mut text, 0).ok()?;
        oom_kill_count(&String::from_utf8_lossy(&text[..read]))
    }
}

/// The `oom_kill N` line's count in an events file's `text`.
fn oom_kill_count(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix("oom_kill "))
        .and_then(|count| count.trim().parse().ok())
}

/// In cgroups v2 a folder's controllers must be enabled in its parent; `cpu` only for a box
/// that asks for a quota, so that a machine without it still bounds the others' memory.
fn enable_v2_controllers(root: &Path, cpu: bool) -> io::Result<()> {
    let controllers = if cpu {
        "+memory +pids +cpu"
    } else {
        "+memory +pids"
    };
    std::fs::write(root.join("cgroup.subtree_control"), controllers)?;
    std::fs::create_dir_all(root.join("arena"))?;
    std::fs::write(root.join("arena/cgroup.subtree_control"), controllers)
}

impl Drop for BoxCgroup {
    /// Removes the folders once the box's processes are gone (the kernel may take a moment
    /// to release a cgroup whose last process just exited).
    fn drop(&mut self) {
        for folder in &self.folders {
            for _ in 0..100 {
                // SAFETY: a descriptor we own and a NUL-terminated name.
                let ret = unsafe {
                    libc::unlinkat(
                        folder.parent.as_raw_fd(),
                        folder.name.as_ptr(),
                        libc::AT_REMOVEDIR,
                    )
                };
                if ret == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::EBUSY) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::oom_kill_count;

    #[test]
    fn the_oom_kill_count_is_read_from_either_versions_events() {
        let v1 = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
        let v2 = "low 0\nhigh 0\nmax 12\noom 2\noom_kill 2\noom_group_kill 0\n";
        assert_eq!(oom_kill_count(v1), Some(3));
        assert_eq!(oom_kill_count(v2), Some(2));
        assert_eq!(oom_kill_count("oom 1\n"), None);
    }
}
