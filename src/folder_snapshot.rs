//! The private folders as they were before the game being played (games/cave.md, "The
//! private folder"), so that a resume starts that game from the same folders as an
//! uninterrupted run, whatever the bots wrote during the game a stop dropped.
//!
//! Before each game the runner copies every folder into `<results>/work-before-game/`, with
//! the game's index beside the copies; once the game's record is in the journal, the copy is
//! thrown away. At the start of a run, a copy whose game the journal does not hold replaces
//! the folders; one whose game it holds is stale. Each step is a rename or is redone from
//! the start after a crash, and the file system is synced before a game writes the folders
//! and before its record is journaled, so even after a power cut the journal and the copy
//! say which state is right.
//!
//! Links are copied as links and never followed, and nothing is removed through one: a bot
//! can plant a link to `/usr` in its folder (folders.rs). Owners and permissions are kept, so
//! the sandbox user still owns what its bots wrote.

use std::collections::BTreeSet;
use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::io::{self, ErrorKind};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::Context;

/// The folder under the results folder holding the copy of the folders before a game.
pub const SNAPSHOT_DIR: &str = "work-before-game";

/// Where a copy is made before it is complete, or moved before it is deleted: never read.
const SCRATCH_DIR: &str = "work-before-game.partial";

/// The file in [`SNAPSHOT_DIR`] holding the index of the game the copy was taken before.
const INDEX_FILE: &str = "game";

/// The folder in [`SNAPSHOT_DIR`] holding one copy per bot folder, by the folder's name.
const COPIES_DIR: &str = "work";

/// Before game `index`: copies every one of `folders` into `out`'s snapshot and syncs the
/// file system, so that the copy is on disk before the game changes any folder.
pub fn take(out: &Path, folders: &[PathBuf], index: u64) -> anyhow::Result<()> {
    let scratch = out.join(SCRATCH_DIR);
    remove_without_following(&scratch)
        .with_context(|| format!("cannot remove {}", scratch.display()))?;
    let copies = scratch.join(COPIES_DIR);
    std::fs::create_dir_all(&copies)
        .with_context(|| format!("cannot create {}", copies.display()))?;
    for folder in folders {
        let copy = copies.join(folder.file_name().expect("a bot folder has a name"));
        copy_without_following(folder, &copy)
            .with_context(|| format!("cannot copy {} to {}", folder.display(), copy.display()))?;
    }
    std::fs::write(scratch.join(INDEX_FILE), index.to_string())
        .with_context(|| format!("cannot write {}", scratch.display()))?;
    let snapshot = out.join(SNAPSHOT_DIR);
    std::fs::rename(&scratch, &snapshot).with_context(|| {
        format!(
            "cannot rename {} to {}",
            scratch.display(),
            snapshot.display()
        )
    })?;
    sync_file_system(out)
}

/// Once the game the snapshot was taken before is journaled: deletes the snapshot.
pub fn discard(out: &Path) -> anyhow::Result<()> {
    let (snapshot, scratch) = (out.join(SNAPSHOT_DIR), out.join(SCRATCH_DIR));
    remove_without_following(&scratch)
        .with_context(|| format!("cannot remove {}", scratch.display()))?;
    // Renamed first, so that a crash never leaves a snapshot without its index.
    match std::fs::rename(&snapshot, &scratch) {
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(()),
        renamed => renamed.with_context(|| format!("cannot remove {}", snapshot.display()))?,
    }
    remove_without_following(&scratch)
        .with_context(|| format!("cannot remove {}", scratch.display()))
}

/// At the start of a run whose journal holds the games `journaled`: puts `folders` back as
/// they were before the game the snapshot was taken before, if the journal does not hold it
/// (a stop or a crash dropped it), and returns that game's index. Every folder is first
/// removed, never following a link, then replaced by its copy.
pub fn recover(
    out: &Path,
    folders: &[PathBuf],
    journaled: &BTreeSet<u64>,
) -> anyhow::Result<Option<u64>> {
    let snapshot = out.join(SNAPSHOT_DIR);
    let index_file = snapshot.join(INDEX_FILE);
    let index = match std::fs::read_to_string(&index_file) {
        Err(error) if error.kind() == ErrorKind::NotFound => None,
        read => Some(
            read.ok()
                .and_then(|text| text.parse::<u64>().ok())
                .with_context(|| format!("cannot read a game index in {}", index_file.display()))?,
        ),
    };
    let dropped = index.filter(|index| !journaled.contains(index));
    if dropped.is_some() {
        let copies = snapshot.join(COPIES_DIR);
        for folder in folders {
            let copy = copies.join(folder.file_name().expect("a bot folder has a name"));
            // A copy already moved back by a recovery a crash cut short is gone.
            if copy.symlink_metadata().is_err() {
                continue;
            }
            remove_without_following(folder)
                .with_context(|| format!("cannot remove {}", folder.display()))?;
            std::fs::rename(&copy, folder).with_context(|| {
                format!(
                    "cannot move {} back to {}",
                    copy.display(),
                    folder.display()
                )
            })?;
        }
    }
    discard(out)?;
    Ok(dropped)
}

/// Copies `from` to `to` (which must not exist): a folder with everything in it, a link as
/// the same link (never followed), a file by its bytes, anything else (a FIFO, a socket) made
/// anew; each with its permissions and, when `arena` runs as root, its owner.
fn copy_without_following(from: &Path, to: &Path) -> io::Result<()> {
    let meta = from.symlink_metadata()?;
    let kind = meta.file_type();
    if kind.is_dir() {
        std::fs::create_dir(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy_without_following(&entry.path(), &to.join(entry.file_name()))?;
        }
    } else if kind.is_symlink() {
        std::os::unix::fs::symlink(std::fs::read_link(from)?, to)?;
    } else if kind.is_file() {
        // O_NOFOLLOW: should the file have become a link since, the copy fails instead.
        let mut source = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(from)?;
        let mut target = File::create_new(to)?;
        io::copy(&mut source, &mut target)?;
    } else {
        let path = CString::new(to.as_os_str().as_bytes())?;
        // SAFETY: mknod only reads the path, a NUL-terminated string we own.
        if unsafe { libc::mknod(path.as_ptr(), meta.mode(), meta.rdev()) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::lchown(to, Some(meta.uid()), Some(meta.gid()))?;
    }
    // Last: a read-only folder is filled first, and a change of owner clears set-user-ID.
    if !kind.is_symlink() {
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(meta.mode() & 0o7777))?;
    }
    Ok(())
}

/// Removes whatever is at `path` (nothing if nothing is there): a folder with everything in
/// it, a link itself and never what it points to.
fn remove_without_following(path: &Path) -> io::Result<()> {
    match path.symlink_metadata() {
        // remove_dir_all follows no link inside the folder either. A bot running as the
        // runner's own user may have made a folder read-only: it is opened up and tried again.
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path).or_else(|_| {
            open_up(path)?;
            std::fs::remove_dir_all(path)
        }),
        Ok(_) => std::fs::remove_file(path),
        Err(error) if error.kind() == ErrorKind::NotFound => Ok(()),
        Err(error) => Err(error),
    }
}

/// Gives its owner every right on each folder under `folder` (itself included), walking
/// without following links: a link to a folder elsewhere is left alone.
fn open_up(folder: &Path) -> io::Result<()> {
    let meta = folder.symlink_metadata()?;
    if !meta.is_dir() {
        return Ok(());
    }
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(meta.mode() | 0o700))?;
    for entry in std::fs::read_dir(folder)? {
        open_up(&entry?.path())?;
    }
    Ok(())
}

/// Writes everything written so far to the file system holding `path` to disk: after a
/// game, its folders must be there before its record is (see the module's doc).
pub fn sync_file_system(path: &Path) -> anyhow::Result<()> {
    let folder = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    // SAFETY: syncfs only uses the descriptor, which `folder` keeps open.
    if unsafe { libc::syncfs(std::os::fd::AsRawFd::as_raw_fd(&folder)) } != 0 {
        return Err(io::Error::last_os_error())
            .with_context(|| format!("cannot sync the file system of {}", path.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStringExt;

    use super::*;

    /// Everything under `folder`, walked without following links: each path with its kind,
    /// its permissions, its owner and its bytes (a link: its target).
    fn tree(folder: &Path) -> Vec<(PathBuf, String, u32, u32, Vec<u8>)> {
        let mut entries = Vec::new();
        let mut stack = vec![folder.to_path_buf()];
        while let Some(path) = stack.pop() {
            let meta = path.symlink_metadata().unwrap();
            let kind = meta.file_type();
            let bytes = if kind.is_dir() {
                for entry in std::fs::read_dir(&path).unwrap() {
                    stack.push(entry.unwrap().path());
                }
                Vec::new()
            } else if kind.is_symlink() {
                std::fs::read_link(&path)
                    .unwrap()
                    .into_os_string()
                    .into_vec()
            } else if kind.is_file() {
                std::fs::read(&path).unwrap()
            } else {
                Vec::new()
            };
            let relative = path.strip_prefix(folder).unwrap().to_path_buf();
            entries.push((
                relative,
                format!("{kind:?}"),
                meta.mode(),
                meta.uid(),
                bytes,
            ));
        }
        entries.sort();
        entries
    }

    /// A temporary folder whose read-only folders are opened up before it is deleted, so
    /// that a test run by another user than root leaves nothing behind.
    struct Scratch(tempfile::TempDir);

    impl Scratch {
        fn new() -> Scratch {
            Scratch(tempfile::tempdir().unwrap())
        }

        fn path(&self) -> &Path {
            self.0.path()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = open_up(self.0.path());
        }
    }

    /// A results folder with two bot folders: `a` holds a file, a read-only subfolder, a
    /// FIFO and a link to `canary` outside (owned by the sandbox user when the test runs as
    /// root); `b` is empty.
    fn results_with_folders(dir: &Path) -> (PathBuf, Vec<PathBuf>, PathBuf) {
        let canary = dir.join("canary");
        std::fs::create_dir(&canary).unwrap();
        std::fs::write(canary.join("keep"), "x").unwrap();
        let out = dir.join("results");
        let (a, b) = (out.join("work/a"), out.join("work/b"));
        std::fs::create_dir_all(a.join("sub")).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(a.join("count.txt"), "1").unwrap();
        std::fs::write(a.join("sub/notes"), "n").unwrap();
        std::os::unix::fs::symlink(&canary, a.join("up")).unwrap();
        let fifo = CString::new(a.join("pipe").as_os_str().as_bytes()).unwrap();
        // SAFETY: mkfifo only reads the NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            let nobody = Some(crate::sandbox::NOBODY);
            std::os::unix::fs::lchown(a.join("count.txt"), nobody, nobody).unwrap();
        }
        std::fs::set_permissions(a.join("sub"), std::fs::Permissions::from_mode(0o555)).unwrap();
        (out, vec![a, b], canary)
    }

    #[test]
    fn a_game_the_journal_lacks_is_undone_and_no_link_is_followed() {
        let dir = Scratch::new();
        let (out, folders, canary) = results_with_folders(dir.path());
        let before: Vec<_> = folders.iter().map(|folder| tree(folder)).collect();
        take(&out, &folders, 3).unwrap();
        // What the dropped game 3 did: a file changed and added, a folder swapped for a link.
        std::fs::write(folders[0].join("count.txt"), "2").unwrap();
        std::fs::write(folders[0].join("new"), "y").unwrap();
        std::fs::remove_dir(&folders[1]).unwrap();
        std::os::unix::fs::symlink(&canary, &folders[1]).unwrap();
        let journaled = BTreeSet::from([0, 1, 2]);
        assert_eq!(recover(&out, &folders, &journaled).unwrap(), Some(3));
        let after: Vec<_> = folders.iter().map(|folder| tree(folder)).collect();
        assert_eq!(after, before);
        assert_eq!(tree(&canary).len(), 2, "the link's target is left alone");
        assert_eq!(std::fs::read_to_string(canary.join("keep")).unwrap(), "x");
        assert!(!out.join(SNAPSHOT_DIR).exists() && !out.join(SCRATCH_DIR).exists());
    }

    #[test]
    fn a_journaled_game_keeps_what_it_wrote() {
        let dir = Scratch::new();
        let (out, folders, _) = results_with_folders(dir.path());
        take(&out, &folders, 3).unwrap();
        std::fs::write(folders[0].join("count.txt"), "2").unwrap();
        let played: Vec<_> = folders.iter().map(|folder| tree(folder)).collect();
        // A crash between the journal's line and the snapshot's removal.
        assert_eq!(recover(&out, &folders, &BTreeSet::from([3])).unwrap(), None);
        let after: Vec<_> = folders.iter().map(|folder| tree(folder)).collect();
        assert_eq!(after, played);
        assert!(!out.join(SNAPSHOT_DIR).exists());
        // And after the removal, nothing to do.
        take(&out, &folders, 4).unwrap();
        discard(&out).unwrap();
        assert!(!out.join(SNAPSHOT_DIR).exists() && !out.join(SCRATCH_DIR).exists());
        assert_eq!(recover(&out, &folders, &BTreeSet::new()).unwrap(), None);
    }

    #[test]
    fn a_recovery_a_crash_cut_short_finishes_on_the_next_start() {
        let dir = Scratch::new();
        let (out, folders, _) = results_with_folders(dir.path());
        let before: Vec<_> = folders.iter().map(|folder| tree(folder)).collect();
        take(&out, &folders, 0).unwrap();
        std::fs::write(folders[0].join("count.txt"), "2").unwrap();
        std::fs::write(folders[1].join("count.txt"), "2").unwrap();
        // The crash came after `b` was removed, before its copy moved back.
        std::fs::remove_dir_all(&folders[1]).unwrap();
        assert_eq!(recover(&out, &folders, &BTreeSet::new()).unwrap(), Some(0));
        let after: Vec<_> = folders.iter().map(|folder| tree(folder)).collect();
        assert_eq!(after, before);
    }

    #[test]
    fn opening_up_a_folder_never_reaches_through_a_link() {
        let dir = Scratch::new();
        let (_, folders, canary) = results_with_folders(dir.path());
        let read_only = std::fs::Permissions::from_mode(0o555);
        std::fs::set_permissions(&canary, read_only.clone()).unwrap();
        open_up(&folders[0]).unwrap();
        let mode = |path: &Path| path.symlink_metadata().unwrap().mode() & 0o7777;
        assert_eq!(mode(&folders[0].join("sub")), 0o755);
        assert_eq!(mode(&canary), 0o555);
    }

    #[test]
    fn a_snapshot_a_crash_cut_short_is_thrown_away() {
        let dir = Scratch::new();
        let (out, folders, _) = results_with_folders(dir.path());
        let before: Vec<_> = folders.iter().map(|folder| tree(folder)).collect();
        std::fs::create_dir_all(out.join(SCRATCH_DIR).join(COPIES_DIR).join("a")).unwrap();
        assert_eq!(recover(&out, &folders, &BTreeSet::new()).unwrap(), None);
        let after: Vec<_> = folders.iter().map(|folder| tree(folder)).collect();
        assert_eq!(after, before);
        assert!(!out.join(SCRATCH_DIR).exists());
    }
}
