//! The file system a box shows its bot: the machine's, read-only, with the hidden folders
//! covered by empty read-only tmpfs, a private writable `/tmp`, a minimal `/dev`, the bot's
//! own folders attached again at their own paths (read-only), and a bounded tmpfs at the
//! path of its private folder, which [`PrivateFolder`] fills from the folder and copies back.
//! The plan is computed purely from the box's spec; [`apply`] carries it out inside the box's
//! fresh mount namespace.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use super::BoxSpec;
use super::private::PrivateFolder;
use super::sys::{self, MOUNT_ATTR_NODEV, MOUNT_ATTR_NOSUID, MOUNT_ATTR_RDONLY};
use crate::folder_bounds::{KEEP_BYTES, KEEP_ENTRIES};

/// The size of the private `/tmp` and `/dev/shm` of a box (each).
pub const TMP_BYTES: u64 = 256 << 20;

/// The most a private folder holds during a game, in bytes of memory: room for what the
/// runner keeps between games ([`KEEP_BYTES`]) and for [`KEEP_ENTRIES`] small files at a page
/// each, twice over, so that a folder goes beyond the bounds (and is emptied after its game,
/// as without the sandbox) well before its writes fail.
pub const FOLDER_BYTES: u64 = 16 << 20;

/// The most files, folders and links a private folder holds during a game, the folder
/// itself included; with the same room as [`FOLDER_BYTES`].
pub const FOLDER_ENTRIES: u64 = 4096;

const _: () = assert!(FOLDER_BYTES >= 2 * (KEEP_BYTES + KEEP_ENTRIES * 4096));
const _: () = assert!(FOLDER_ENTRIES > 2 * KEEP_ENTRIES);

/// The device nodes a box's `/dev` holds, bound from the machine's. Not `tty`: bots share
/// the runner's session (a session of their own would cost every request a scheduler group,
/// BENCHMARKS.md), and must not reach its terminal.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

/// One step of a box's file system plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// Cover the folder with an empty tmpfs: `/tmp` (writable) or a hidden folder (read-only
    /// once the plan is done).
    Cover { path: PathBuf, writable: bool },
    /// Attach the folder again at its own path, above whatever covers it.
    Expose { path: PathBuf, writable: bool },
}

impl Step {
    fn path(&self) -> &Path {
        match self {
            Step::Cover { path, .. } | Step::Expose { path, .. } => path,
        }
    }
}

/// The steps for `spec`, in the order they apply: shallower paths first, so that a folder
/// exposed inside a covered one is attached above the cover, and a hidden folder inside an
/// exposed one is covered above the exposure. A readable folder that nothing covers is
/// visible already and needs no step; a hidden folder that is also exposed stays visible.
pub(crate) fn plan(spec: &BoxSpec) -> Vec<Step> {
    let mut covers = vec![Step::Cover {
        path: PathBuf::from("/tmp"),
        writable: true,
    }];
    let exposed = |path: &Path| {
        spec.readable
            .iter()
            .chain(&spec.writable)
            .any(|p| p == path)
    };
    covers.extend(
        spec.hidden
            .iter()
            // A box's `/dev` is made anew (see `build_dev`), which hides all of the machine's;
            // a cover there would be gone before it is made read-only.
            .filter(|path| !exposed(path) && !path.starts_with("/dev"))
            .map(|path| Step::Cover {
                path: path.clone(),
                writable: false,
            }),
    );
    let covered = |path: &Path| covers.iter().any(|cover| path.starts_with(cover.path()));
    let mut steps: Vec<Step> = spec
        .readable
        .iter()
        .filter(|path| covered(path) && !spec.writable.contains(path))
        .map(|path| Step::Expose {
            path: path.clone(),
            writable: false,
        })
        .chain(spec.writable.iter().map(|path| Step::Expose {
            path: path.clone(),
            writable: true,
        }))
        .collect();
    steps.extend(covers);
    // Covers before exposures at one depth only for a stable, readable order: the paths of
    // one depth are disjoint.
    steps.sort_by(|a, b| {
        let key = |step: &Step| (step.path().components().count(), step.path().to_path_buf());
        key(a).cmp(&key(b))
    });
    steps.dedup();
    steps
}

/// Carries out `steps` in this process's own mount namespace, then builds `/dev`. Every
/// exposed folder is opened before anything covers it; a writable one is opened without
/// following any symbolic link on its path, so a bot that replaced its folder by a link
/// gets an error, never the link's target. A writable folder is never attached: a tmpfs of
/// [`FOLDER_BYTES`] takes its place, and the folder is returned, reachable only through its
/// descriptor, for the box to fill the tmpfs from it and copy the tmpfs back into it.
pub(crate) fn apply(steps: &[Step]) -> io::Result<Vec<PrivateFolder>> {
    // Changes made here must not reach the machine's mount table.
    sys::mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REC | libc::MS_PRIVATE,
        None,
    )
    .map_err(context("make the mounts private"))?;
    let mut trees: Vec<Option<OwnedFd>> = Vec::with_capacity(steps.len());
    for step in steps {
        trees.push(match step {
            Step::Expose { path, writable } => {
                let dir = sys::open_path(path, *writable)
                    .map_err(context(&format!("open {}", path.display())))?;
                let read_only = if *writable { 0 } else { MOUNT_ATTR_RDONLY };
                let tree = sys::clone_tree(
                    dir.as_fd(),
                    read_only | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
                )
                .map_err(context(&format!("bind {}", path.display())))?;
                Some(tree)
            }
            Step::Cover { .. } => None,
        });
    }
    let devices = DEVICES
        .iter()
        .map(|name| {
            let path = Path::new("/dev").join(name);
            let node = sys::open_path(&path, true)?;
            sys::clone_tree(node.as_fd(), MOUNT_ATTR_NOSUID)
        })
        .collect::<io::Result<Vec<_>>>()
        .map_err(context("bind the device nodes"))?;
    sys::set_mount_attributes(Path::new("/"), MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, true)
        .map_err(context("make the file system read-only"))?;
    let mut read_only_covers = Vec::new();
    let mut private = Vec::new();
    for (step, tree) in steps.iter().zip(trees) {
        match (step, tree) {
            (Step::Cover { path, writable }, _) => {
                // A hidden folder that does not exist here (under the fresh /tmp, say) is
                // hidden already.
                if !path.symlink_metadata().is_ok_and(|meta| meta.is_dir()) {
                    continue;
                }
                let mode = if *writable { "1777" } else { "0755" };
                let size = if *writable { TMP_BYTES } else { 1 << 20 };
                tmpfs(path, mode, size, None)?;
                if !writable {
                    read_only_covers.push(path.clone());
                }
            }
            (Step::Expose { path, writable }, Some(tree)) => {
                std::fs::create_dir_all(path)
                    .map_err(context(&format!("make a mount point {}", path.display())))?;
                if *writable {
                    tmpfs(path, "0700", FOLDER_BYTES, Some(FOLDER_ENTRIES))?;
                    private.push(PrivateFolder::new(path.clone(), tree)?);
                } else {
                    sys::attach(&tree, path)
                        .map_err(context(&format!("attach {}", path.display())))?;
                }
            }
            (Step::Expose { .. }, None) => unreachable!("every exposure was opened above"),
        }
    }
    build_dev(&devices)?;
    read_only_covers.push(PathBuf::from("/dev"));
    for path in read_only_covers {
        sys::set_mount_attributes(&path, MOUNT_ATTR_RDONLY, false)
            .map_err(context(&format!("make {} read-only", path.display())))?;
    }
    Ok(private)
}

/// A fresh `/dev`: the device nodes bound from the machine's, the usual links into `/proc`,
/// and a private `/dev/shm`.
fn build_dev(devices: &[OwnedFd]) -> io::Result<()> {
    let dev = Path::new("/dev");
    tmpfs(dev, "0755", 1 << 20, None)?;
    for (name, tree) in DEVICES.iter().zip(devices) {
        let path = dev.join(name);
        std::fs::write(&path, b"").map_err(context(&format!("make {}", path.display())))?;
        sys::attach(tree, &path).map_err(context(&format!("attach {}", path.display())))?;
    }
    for (link, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        std::os::unix::fs::symlink(target, dev.join(link)).map_err(context("link /dev"))?;
    }
    let shm = dev.join("shm");
    std::fs::create_dir(&shm).map_err(context("make /dev/shm"))?;
    tmpfs(&shm, "1777", TMP_BYTES, None)
}

/// Mounts an empty tmpfs of at most `size` bytes (and `entries` files, folders and links,
/// when given) on `path`.
fn tmpfs(path: &Path, mode: &str, size: u64, entries: Option<u64>) -> io::Result<()> {
    let mut data = format!("mode={mode},size={size}");
    if let Some(entries) = entries {
        data.push_str(&format!(",nr_inodes={entries}"));
    }
    let data = CString::new(data).expect("no NUL byte");
    sys::mount(
        Some(c"tmpfs"),
        path,
        Some(c"tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some(&data),
    )
    .map_err(context(&format!("cover {}", path.display())))
}

/// Prefixes an error with what was being done.
fn context(doing: &str) -> impl Fn(io::Error) -> io::Error + '_ {
    move |error| io::Error::new(error.kind(), format!("cannot {doing}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(readable: &[&str], writable: &[&str], hidden: &[&str]) -> BoxSpec {
        let paths = |list: &[&str]| list.iter().map(PathBuf::from).collect();
        BoxSpec {
            readable: paths(readable),
            writable: paths(writable),
            hidden: paths(hidden),
            ..BoxSpec::default()
        }
    }

    fn cover(path: &str, writable: bool) -> Step {
        Step::Cover {
            path: path.into(),
            writable,
        }
    }

    fn expose(path: &str, writable: bool) -> Step {
        Step::Expose {
            path: path.into(),
            writable,
        }
    }

    #[test]
    fn a_hidden_folder_under_dev_needs_no_cover_of_its_own() {
        let steps = plan(&spec(&[], &[], &["/dev/shm/results"]));
        assert_eq!(steps, [cover("/tmp", true)]);
    }

    #[test]
    fn a_bot_folder_inside_a_hidden_one_is_exposed_above_the_cover() {
        let steps = plan(&spec(&["/t/bots/a", "/usr/bin"], &[], &["/t", "/t/bots/b"]));
        assert_eq!(
            steps,
            [
                cover("/t", false),
                cover("/tmp", true),
                expose("/t/bots/a", false),
                cover("/t/bots/b", false),
            ]
        );
    }

    #[test]
    fn a_hidden_folder_inside_an_exposed_one_is_covered_above_it() {
        let steps = plan(&spec(&["/tmp/x"], &[], &["/tmp/x/results"]));
        assert_eq!(
            steps,
            [
                cover("/tmp", true),
                expose("/tmp/x", false),
                cover("/tmp/x/results", false),
            ]
        );
    }

    #[test]
    fn a_private_folder_is_writable_even_when_hidden_and_readable_too() {
        let steps = plan(&spec(&["/r/work/a"], &["/r/work/a"], &["/r", "/r/work/a"]));
        assert_eq!(
            steps,
            [
                cover("/r", false),
                cover("/tmp", true),
                expose("/r/work/a", true),
            ]
        );
    }
}
