//! A control group per box, where the kernel lets `arena` make one (as root, with cgroups v1
//! or v2): it bounds the memory and the number of processes of the whole box, children
//! included, which per-process limits cannot.

use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::Duration;

const ROOT: &str = "/sys/fs/cgroup";

/// The cgroup folders of one box (one per v1 hierarchy, or one v2 folder). Made, and their
/// files opened, before the box's mount namespace makes `/sys` read-only: the descriptors
/// keep working on the machine's mounts.
#[derive(Debug)]
pub(crate) struct BoxCgroup {
    folders: Vec<Folder>,
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
    /// given, `memory_bytes` of memory.
    pub(crate) fn create(
        name: &str,
        memory_bytes: Option<u64>,
        max_processes: u32,
    ) -> io::Result<BoxCgroup> {
        let root = Path::new(ROOT);
        // The version, the file through which the init joins (see `join`), the limits.
        let (kind, join_file, limits): (_, _, Vec<(PathBuf, &str, String)>) =
            if root.join("cgroup.controllers").exists() {
                enable_v2_controllers(root)?;
                let folder = root.join("arena");
                let mut limits = vec![(folder.clone(), "pids.max", max_processes.to_string())];
                if let Some(bytes) = memory_bytes {
                    limits.push((folder.clone(), "memory.max", bytes.to_string()));
                    limits.push((folder, "memory.swap.max", "0".to_owned()));
                }
                ("cgroup v2", "cgroup.procs", limits)
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
                ("cgroup v1", "tasks", limits)
            };
        let mut cgroup = BoxCgroup {
            folders: Vec::new(),
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
        Ok(cgroup)
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

/// In cgroups v2 a folder's controllers must be enabled in its parent.
fn enable_v2_controllers(root: &Path) -> io::Result<()> {
    std::fs::write(root.join("cgroup.subtree_control"), "+memory +pids")?;
    std::fs::create_dir_all(root.join("arena"))?;
    std::fs::write(root.join("arena/cgroup.subtree_control"), "+memory +pids")
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
