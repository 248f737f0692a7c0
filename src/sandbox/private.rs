//! A bot's private folder inside its box. The bot never writes the folder itself, which is
//! on the machine's disk: it writes a tmpfs of [`FOLDER_BYTES`](super::mounts::FOLDER_BYTES)
//! at the folder's path, which the box's helper fills from the folder before the box's init
//! starts, and copies back once every process of the box has ended, if the runner ended the
//! box at the end of its game (not at a stop, see `inside::runner_left`). A bot can then fill
//! memory it is charged for, never the disk, during a game; what it leaves beyond the
//! bounds the runner keeps between games ([`folder_bounds`]) is not copied back: the folder
//! is emptied and the runner told why.
//!
//! The folder is reached only through the descriptor of its detached mount, never by its
//! path (which the tmpfs covers), and both copies follow no link ([`folder_snapshot`]).
//! Neither runs while a process of the bot does. The copy back leaves alone every file the
//! bot did not change, so that an unchanged folder costs the journaled copy of the folders
//! nothing after the game (see `folder_snapshot`).

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use super::sys::{check, open_path};
use crate::{folder_bounds, folder_snapshot};

/// A private folder and the tmpfs that stands for it in a box.
#[derive(Debug)]
pub(crate) struct PrivateFolder {
    /// The folder's path, where the box shows the tmpfs.
    path: PathBuf,
    /// The folder itself: its detached, writable mount.
    folder: OwnedFd,
    /// The tmpfs's root, as [`identity`] gives it, to find it again at `path`.
    tmpfs: Identity,
}

/// A file's device and inode numbers.
type Identity = (u64, u64);

impl PrivateFolder {
    /// The private folder `folder`, whose tmpfs was just mounted at `path`.
    pub(crate) fn new(path: PathBuf, folder: OwnedFd) -> io::Result<PrivateFolder> {
        let tmpfs = identity(&path)?;
        Ok(PrivateFolder {
            path,
            folder,
            tmpfs,
        })
    }

    /// The folder's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Copies the folder into the tmpfs, with its owners, permissions and times.
    pub(crate) fn fill(&self) -> io::Result<()> {
        in_folder(&self.folder, || {
            folder_snapshot::fill_box(Path::new("."), &self.path)
        })
        .map_err(|error| {
            io::Error::new(
                error.kind(),
                format!(
                    "cannot fill {} from the folder: {error}",
                    self.path.display()
                ),
            )
        })
    }

    /// Copies what changed in the tmpfs back into the folder, once no process of the box
    /// runs; returns why the folder was emptied instead, if it was.
    pub(crate) fn give_back(&self) -> io::Result<Option<String>> {
        match self.copy_back() {
            Ok(()) => Ok(None),
            Err(why) => {
                in_folder(&self.folder, || folder_bounds::empty(Path::new(".")))?;
                Ok(Some(why))
            }
        }
    }

    /// Copies what changed in the tmpfs back into the folder if the tmpfs is still at its
    /// path and within the bounds the runner keeps; else says what it held.
    fn copy_back(&self) -> Result<(), String> {
        // A bot that can write a folder above the tmpfs (under its `/tmp`) may move it and
        // leave at its path a tree of its own, with links to what only root may read.
        if identity(&self.path).ok() != Some(self.tmpfs) {
            return Err("a tree in place of the box's tmpfs (a folder above it was moved)".into());
        }
        let contents = folder_bounds::inspect(&self.path)
            .map_err(|error| format!("what the box cannot read ({error})"))?;
        if let Some(why) = contents.beyond {
            return Err(why);
        }
        in_folder(&self.folder, || {
            folder_snapshot::copy_back_from_box(&self.path, Path::new("."))
        })
        .map_err(|error| format!("what the box could not copy back ({error})"))
    }
}

/// The identity of what is at `path`, reached without following any link.
fn identity(path: &Path) -> io::Result<Identity> {
    let stat = rustix::fs::fstat(open_path(path, true)?)?;
    Ok((stat.st_dev, stat.st_ino))
}

/// Runs `work` with the folder `folder` as the current directory, then goes back to `/`:
/// the only way to the folder, whose path shows the tmpfs instead. The box's helper is
/// single-threaded, so nothing else sees the change.
fn in_folder<T>(folder: &OwnedFd, work: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    // SAFETY: a descriptor we own.
    check(unsafe { libc::fchdir(folder.as_raw_fd()) }.into())?;
    let result = work();
    std::env::set_current_dir("/")?;
    result
}
