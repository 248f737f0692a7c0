//! A copy of the private folders as of the last journaled game (games/cave.md, "The private
//! folder"), so that a resume starts the game a stop dropped from the same folders as an
//! uninterrupted run, whatever the bots wrote during it.
//!
//! The copy lives in `<results>/work-journaled/`. Before a game, a mark naming it is written
//! beside the copy; once its record is in the journal, what the game changed in the folders
//! is copied over and the mark removed. At the start of a run, a mark whose game the journal
//! lacks means the folders hold what a dropped game wrote: the copy is copied back. Every
//! step can be redone after a crash, and the file system is synced before a game writes the
//! folders and before its record is journaled, so that even after a power cut the journal
//! and the mark say which state is right.
//!
//! Only what differs is copied, by rsync's quick check (kind, size, modification time,
//! permissions, owner) and one more: a file of a bot's folder whose status changed since its
//! copy was made (ctime, which no bot can set back, unlike a modification time that
//! `touch -r` or `cp -p` restores) differs. A game costs a walk of the folders plus the files
//! it changed. Links
//! are copied as links and never followed, and nothing is removed through one: a bot can
//! plant a link to `/usr` in its folder (folders.rs). Owners and permissions are kept, so
//! the sandbox user still owns what its bots wrote.

use std::collections::BTreeSet;
use std::ffi::{CString, OsString};
use std::fs::{File, FileTimes, Metadata, OpenOptions};
use std::io::{self, ErrorKind};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::folder_bounds;
use crate::results::write_atomically;

/// The folder under the results folder holding the copy.
pub const SNAPSHOT_DIR: &str = "work-journaled";

/// The file in [`SNAPSHOT_DIR`] naming the game being played, while it is not journaled.
const PLAYING_FILE: &str = "playing";

/// The folder in [`SNAPSHOT_DIR`] holding one copy per bot folder, by the folder's name.
const COPIES_DIR: &str = "work";

/// At the start of a run whose journal holds the games `journaled`: if a game was being
/// played that the journal lacks (a stop or a crash dropped it), puts `folders` back as they
/// were before it and returns its index. Then, as after every journaled game, [`settle`].
pub fn recover(
    out: &Path,
    folders: &[PathBuf],
    journaled: &BTreeSet<u64>,
) -> anyhow::Result<Option<u64>> {
    let playing = out.join(SNAPSHOT_DIR).join(PLAYING_FILE);
    let index = match std::fs::read_to_string(&playing) {
        Err(error) if error.kind() == ErrorKind::NotFound => None,
        read => Some(
            read.ok()
                .and_then(|text| text.parse::<u64>().ok())
                .with_context(|| format!("cannot read a game index in {}", playing.display()))?,
        ),
    };
    let dropped = index.filter(|index| !journaled.contains(index));
    if dropped.is_some() {
        for (folder, copy) in folders.iter().zip(copies(out, folders)) {
            mirror(&copy, folder, Direction::FromCopy).with_context(|| {
                format!(
                    "cannot copy {} back to {}",
                    copy.display(),
                    folder.display()
                )
            })?;
        }
    }
    Ok(dropped)
}

/// With the folders as the journal's last game left them (or as a run starts): copies what
/// differs into the copy and removes the mark of the game being played.
pub fn settle(out: &Path, folders: &[PathBuf]) -> anyhow::Result<()> {
    let root = out.join(SNAPSHOT_DIR).join(COPIES_DIR);
    std::fs::create_dir_all(&root).with_context(|| format!("cannot create {}", root.display()))?;
    for (folder, copy) in folders.iter().zip(copies(out, folders)) {
        mirror(folder, &copy, Direction::ToCopy)
            .with_context(|| format!("cannot copy {} to {}", folder.display(), copy.display()))?;
    }
    let playing = out.join(SNAPSHOT_DIR).join(PLAYING_FILE);
    remove_without_following(&playing)
        .with_context(|| format!("cannot remove {}", playing.display()))
}

/// Before game `index`: marks it as being played and syncs the file system, so that the
/// mark and the copy are on disk before the game changes any folder.
pub fn begin(out: &Path, index: u64) -> anyhow::Result<()> {
    let playing = out.join(SNAPSHOT_DIR).join(PLAYING_FILE);
    write_atomically(&playing, index.to_string().as_bytes())
        .with_context(|| format!("cannot write {}", playing.display()))?;
    sync_file_system(out)
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

/// The copy of each of `folders`, in the same order.
fn copies(out: &Path, folders: &[PathBuf]) -> Vec<PathBuf> {
    let root = out.join(SNAPSHOT_DIR).join(COPIES_DIR);
    (folders.iter())
        .map(|folder| root.join(folder.file_name().expect("a bot folder has a name")))
        .collect()
}

/// Which way [`mirror`] copies: which of its two sides is the copy.
#[derive(Debug, Clone, Copy)]
enum Direction {
    /// From a bot's folder to its copy.
    ToCopy,
    /// From the copy back to the bot's folder.
    FromCopy,
    /// From a bot's folder into a box's empty tmpfs: everything is copied.
    IntoBox,
    /// From a box's tmpfs back into the bot's folder. The two sides' change times say
    /// nothing of each other, and a file is copied unless its bytes are the same too: one
    /// the bot left alone stays as it was, and costs the copy after the game nothing.
    FromBox,
}

/// Makes the folder `to` (a box's empty tmpfs) the same as the bot's folder `from`, copying
/// every file and following no link (`sandbox::private`). `from` must be within the bounds
/// the runner keeps ([`folder_bounds`]), which bound the walk's depth and paths.
pub(crate) fn fill_box(from: &Path, to: &Path) -> io::Result<()> {
    mirror(from, to, Direction::IntoBox)
}

/// Makes the bot's folder `to` the same as the box's tmpfs `from`, which [`fill_box`]
/// filled, leaving alone every file whose bytes and status are the same, and following no
/// link. `from` must be within the bounds the runner keeps, as for [`fill_box`], which also
/// bound what is read to compare.
pub(crate) fn copy_back_from_box(from: &Path, to: &Path) -> io::Result<()> {
    mirror(from, to, Direction::FromBox)
}

/// Makes `to` the same as `from`, never following a link in either: removes from `to` what
/// `from` lacks, and copies into it what is missing or differs by the quick check.
fn mirror(from: &Path, to: &Path, direction: Direction) -> io::Result<()> {
    let source = from.symlink_metadata()?;
    let target = to.symlink_metadata().ok();
    if !source.is_dir() {
        let up_to_date = |target: &Metadata| {
            let same = || same_by_quick_check(from, &source, to, target);
            match direction {
                Direction::ToCopy => changed_before(&source, target) && same(),
                Direction::FromCopy => changed_before(target, &source) && same(),
                Direction::IntoBox => false,
                Direction::FromBox => same() && same_bytes(from, &source, to, target),
            }
        };
        if !target.as_ref().is_some_and(up_to_date) {
            remove_without_following(to)?;
            copy_without_following(from, &source, to)?;
        }
        return Ok(());
    }
    match target {
        // Writable while it is brought up to date; its permissions are set at the end.
        Some(target) if target.is_dir() => {
            let writable = target.mode() | 0o700;
            std::fs::set_permissions(to, std::fs::Permissions::from_mode(writable))?;
        }
        _ => {
            remove_without_following(to)?;
            std::fs::create_dir(to)?;
        }
    }
    let names = std::fs::read_dir(from)?
        .map(|entry| entry.map(|entry| entry.file_name()))
        .collect::<io::Result<BTreeSet<OsString>>>()?;
    for entry in std::fs::read_dir(to)? {
        let entry = entry?;
        if !names.contains(&entry.file_name()) {
            remove_without_following(&entry.path())?;
        }
    }
    for name in &names {
        mirror(&from.join(name), &to.join(name), direction)?;
    }
    give_owner_and_permissions(&source, to)
}

/// Whether `to` is already a copy of `from`, which is no folder, by the quick check.
fn same_by_quick_check(from: &Path, source: &Metadata, to: &Path, target: &Metadata) -> bool {
    let same = |a: &Metadata, b: &Metadata| {
        a.file_type() == b.file_type()
            && (a.uid(), a.gid()) == (b.uid(), b.gid())
            && a.mode() == b.mode()
            && a.rdev() == b.rdev()
    };
    if !same(source, target) {
        return false;
    }
    if source.is_symlink() {
        return std::fs::read_link(from).ok() == std::fs::read_link(to).ok();
    }
    (source.len(), source.mtime(), source.mtime_nsec())
        == (target.len(), target.mtime(), target.mtime_nsec())
}

/// Whether the bot's file `folder` last changed (its contents, times or permissions) before
/// its copy `copy` was last written. A bot can give a rewritten file its old size and
/// modification time, never its old change time. In the same clock tick (the file system's
/// clock is coarse) the file counts as changed: it is copied once more, at worst.
fn changed_before(folder: &Metadata, copy: &Metadata) -> bool {
    (folder.ctime(), folder.ctime_nsec()) < (copy.ctime(), copy.ctime_nsec())
}

/// Whether `to` (described by `target`) holds the bytes of `from` (described by `source`),
/// where both are files of the same length: read, following no link, and compared.
fn same_bytes(from: &Path, source: &Metadata, to: &Path, target: &Metadata) -> bool {
    if !source.is_file() {
        return true;
    }
    let read = |path: &Path, meta: &Metadata| {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut open_to_read(path, meta)?, &mut bytes)?;
        Ok::<_, io::Error>(bytes)
    };
    matches!((read(from, source), read(to, target)), (Ok(a), Ok(b)) if a == b)
}

/// Opens the file `path` (described by `meta`) for reading, refusing a link: should the file
/// have become one since, the open fails. A file of the runner's that the runner may not
/// read (a bot that runs as the runner's own user can take the owner's rights away, as
/// `chmod 000` does) gets its owner's read right for the moment, and its permissions back
/// once open: a copy keeps them.
fn open_to_read(path: &Path, meta: &Metadata) -> io::Result<File> {
    let open = || {
        OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
    };
    // SAFETY: geteuid cannot fail.
    let owner = meta.uid() == unsafe { libc::geteuid() };
    match open() {
        Err(error) if error.kind() == ErrorKind::PermissionDenied && owner => {
            let mode = meta.mode() & 0o7777;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode | 0o400))?;
            let file = open();
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
            file
        }
        opened => opened,
    }
}

/// Copies `from` (described by `meta`, and no folder) to `to`, which must not exist: a link
/// as the same link (never followed), a file by its bytes and with its modification time,
/// anything else (a FIFO, a socket) made anew.
fn copy_without_following(from: &Path, meta: &Metadata, to: &Path) -> io::Result<()> {
    let kind = meta.file_type();
    if kind.is_symlink() {
        std::os::unix::fs::symlink(std::fs::read_link(from)?, to)?;
    } else if kind.is_file() {
        let mut source = open_to_read(from, meta)?;
        let mut target = File::create_new(to)?;
        io::copy(&mut source, &mut target)?;
        target.set_times(FileTimes::new().set_modified(meta.modified()?))?;
    } else {
        let path = CString::new(to.as_os_str().as_bytes())?;
        // SAFETY: mknod only reads the path, a NUL-terminated string we own.
        if unsafe { libc::mknod(path.as_ptr(), meta.mode(), meta.rdev()) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    give_owner_and_permissions(meta, to)
}

/// Gives `to` the owner (when `arena` runs as root) and, unless it is a link, the
/// permissions `meta` describes.
fn give_owner_and_permissions(meta: &Metadata, to: &Path) -> io::Result<()> {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::lchown(to, Some(meta.uid()), Some(meta.gid()))?;
    }
    // After the owner, whose change clears set-user-ID.
    if !meta.is_symlink() {
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(meta.mode() & 0o7777))?;
    }
    Ok(())
}

/// Removes whatever is at `path` (nothing if nothing is there): a folder with everything in
/// it, however deep and whatever rights a bot left on it ([`folder_bounds::empty`]), a link
/// itself and never what it points to.
fn remove_without_following(path: &Path) -> io::Result<()> {
    match path.symlink_metadata() {
        Ok(meta) if meta.is_dir() => {
            folder_bounds::empty(path)?;
            std::fs::remove_dir(path)
        }
        Ok(_) => std::fs::remove_file(path),
        Err(error) if error.kind() == ErrorKind::NotFound => Ok(()),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStringExt;

    use super::*;

    /// One entry of a folder: its path in the folder, its kind, permissions and owner, and its
    /// bytes (a link: its target).
    type Entry = (PathBuf, String, u32, u32, Vec<u8>);

    /// Everything under `folder`, walked without following links.
    fn tree(folder: &Path) -> Vec<Entry> {
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

    /// A temporary folder emptied whatever the rights on its folders before it is deleted, so
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
            let _ = folder_bounds::empty(self.0.path());
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

    /// The trees of `folders`, in order.
    fn trees(folders: &[PathBuf]) -> Vec<Vec<Entry>> {
        folders.iter().map(|folder| tree(folder)).collect()
    }

    #[test]
    fn a_game_the_journal_lacks_is_undone_and_no_link_is_followed() {
        let dir = Scratch::new();
        let (out, folders, canary) = results_with_folders(dir.path());
        let before = trees(&folders);
        settle(&out, &folders).unwrap();
        begin(&out, 3).unwrap();
        // What the dropped game 3 did: a file changed and added, a folder swapped for a link.
        std::fs::write(folders[0].join("count.txt"), "2").unwrap();
        std::fs::write(folders[0].join("new"), "y").unwrap();
        std::fs::remove_dir(&folders[1]).unwrap();
        std::os::unix::fs::symlink(&canary, &folders[1]).unwrap();
        let journaled = BTreeSet::from([0, 1, 2]);
        assert_eq!(recover(&out, &folders, &journaled).unwrap(), Some(3));
        assert_eq!(trees(&folders), before);
        assert_eq!(tree(&canary).len(), 2, "the link's target is left alone");
        assert_eq!(std::fs::read_to_string(canary.join("keep")).unwrap(), "x");
        // Once settled, the next run has nothing to undo.
        settle(&out, &folders).unwrap();
        assert_eq!(recover(&out, &folders, &journaled).unwrap(), None);
    }

    #[test]
    fn a_journaled_game_keeps_what_it_wrote_and_only_that_is_copied() {
        let dir = Scratch::new();
        let (out, folders, _) = results_with_folders(dir.path());
        settle(&out, &folders).unwrap();
        // A mark the quick check cannot see: the copy's bytes changed, not its size or time.
        let notes = copies(&out, &folders)[0].join("sub/notes");
        let time = notes.symlink_metadata().unwrap().modified().unwrap();
        std::fs::set_permissions(notes.parent().unwrap(), PermissionsExt::from_mode(0o755))
            .unwrap();
        let marked = File::create(&notes).unwrap();
        std::io::Write::write_all(&mut &marked, b"M").unwrap();
        marked
            .set_times(FileTimes::new().set_modified(time))
            .unwrap();
        begin(&out, 3).unwrap();
        std::fs::write(folders[0].join("count.txt"), "22").unwrap();
        let played = trees(&folders);
        // A crash between the journal's line and the copy's update.
        assert_eq!(recover(&out, &folders, &BTreeSet::from([3])).unwrap(), None);
        assert_eq!(trees(&folders), played);
        settle(&out, &folders).unwrap();
        let copied = std::fs::read_to_string(copies(&out, &folders)[0].join("count.txt"));
        assert_eq!(copied.unwrap(), "22");
        assert_eq!(
            std::fs::read_to_string(&notes).unwrap(),
            "M",
            "not copied again"
        );
        assert_eq!(recover(&out, &folders, &BTreeSet::new()).unwrap(), None);
    }

    /// Rewrites `file` with `bytes` and gives it back its modification time, as `cp -p` or
    /// `touch -r` do: only its change time tells.
    fn rewrite_keeping_time(file: &Path, bytes: &str) {
        let time = file.symlink_metadata().unwrap().modified().unwrap();
        std::fs::write(file, bytes).unwrap();
        let file = File::options().write(true).open(file).unwrap();
        file.set_times(FileTimes::new().set_modified(time)).unwrap();
    }

    #[test]
    fn a_rewrite_keeping_size_and_modification_time_is_still_seen() {
        let dir = Scratch::new();
        let (out, folders, _) = results_with_folders(dir.path());
        let count = folders[0].join("count.txt");
        settle(&out, &folders).unwrap();
        begin(&out, 0).unwrap();
        rewrite_keeping_time(&count, "2");
        settle(&out, &folders).unwrap();
        let copied = std::fs::read_to_string(copies(&out, &folders)[0].join("count.txt"));
        assert_eq!(copied.unwrap(), "2", "game 0's rewrite is in the copy");
        begin(&out, 1).unwrap();
        rewrite_keeping_time(&count, "3");
        assert_eq!(
            recover(&out, &folders, &BTreeSet::from([0])).unwrap(),
            Some(1)
        );
        assert_eq!(
            std::fs::read_to_string(&count).unwrap(),
            "2",
            "game 1's is undone"
        );
    }

    /// A box's tmpfs is filled whole, and only what changed in it is copied back, a rewrite
    /// that kept size and modification time included; what the box added is copied and what
    /// it removed removed.
    #[test]
    fn a_box_copies_back_only_what_changed_since_it_was_filled() {
        let dir = Scratch::new();
        let (_, folders, _) = results_with_folders(dir.path());
        let (folder, tmpfs) = (&folders[0], dir.path().join("box"));
        std::fs::create_dir(&tmpfs).unwrap();
        fill_box(folder, &tmpfs).unwrap();
        assert_eq!(tree(&tmpfs), tree(folder));
        rewrite_keeping_time(&tmpfs.join("count.txt"), "2");
        std::fs::remove_file(tmpfs.join("pipe")).unwrap();
        std::fs::write(tmpfs.join("new"), "y").unwrap();
        // Open through the copy back: a file replaced by a copy would have no link left.
        let notes = File::open(folder.join("sub/notes")).unwrap();
        copy_back_from_box(&tmpfs, folder).unwrap();
        assert_eq!(tree(folder), tree(&tmpfs));
        let count = std::fs::read_to_string(folder.join("count.txt"));
        assert_eq!(count.unwrap(), "2");
        let links = notes.metadata().unwrap().nlink();
        assert_eq!(links, 1, "an unchanged file is left as it was");
    }

    #[test]
    fn a_recovery_a_crash_cut_short_finishes_on_the_next_start() {
        let dir = Scratch::new();
        let (out, folders, _) = results_with_folders(dir.path());
        let before = trees(&folders);
        settle(&out, &folders).unwrap();
        begin(&out, 0).unwrap();
        std::fs::write(folders[0].join("count.txt"), "2").unwrap();
        std::fs::write(folders[1].join("count.txt"), "2").unwrap();
        assert_eq!(recover(&out, &folders, &BTreeSet::new()).unwrap(), Some(0));
        // The crash came after `b` was removed, before its copy was copied back.
        std::fs::write(folders[0].join("count.txt"), "3").unwrap();
        std::fs::remove_dir_all(&folders[1]).unwrap();
        assert_eq!(recover(&out, &folders, &BTreeSet::new()).unwrap(), Some(0));
        assert_eq!(trees(&folders), before);
    }

    #[test]
    fn removing_a_read_only_folder_never_reaches_through_a_link() {
        let dir = Scratch::new();
        let (_, folders, canary) = results_with_folders(dir.path());
        let read_only = std::fs::Permissions::from_mode(0o555);
        std::fs::set_permissions(&canary, read_only).unwrap();
        let before = tree(&canary);
        remove_without_following(&folders[0]).unwrap();
        assert!(!folders[0].exists());
        let mode = |path: &Path| path.symlink_metadata().unwrap().mode() & 0o7777;
        assert_eq!(mode(&canary), 0o555);
        assert_eq!(tree(&canary), before);
    }
}
