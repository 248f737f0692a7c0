//! What the runner keeps of a bot's private folder between games (folders.rs). The game's
//! cap of 1 KB is only reported (games/cave.md, "The private folder"), but the runner walks
//! every folder after each game and copies what changed (folder_snapshot.rs), and a bot can
//! make a sparse file of a terabyte in no time, a million entries, or a tree deeper than any
//! path: a folder beyond [`KEEP_BYTES`], [`KEEP_ENTRIES`], [`KEEP_PATH_BYTES`] or
//! [`KEEP_DEPTH`] is emptied
//! instead, and the walk and its emptying take descriptors, not paths, so that no depth
//! stops them.
//!
//! The walk also clears every set-user-ID and set-group-ID bit: a file the sandbox user made
//! set-user-ID would let anyone on the machine become that user.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use rustix::fs::{AtFlags, CWD, Dir, FileType, Mode, OFlags, RenameFlags, Stat};

/// The most a private folder may hold in files, by their length and by the disk they take.
pub const KEEP_BYTES: u64 = 1 << 20;

/// The most files, folders and links a private folder may hold.
pub const KEEP_ENTRIES: u64 = 1000;

/// The longest path in a private folder, from the folder, in bytes.
pub const KEEP_PATH_BYTES: usize = 1024;

/// The most folders one inside another a private folder may hold.
pub const KEEP_DEPTH: usize = 64;

/// The most folders [`empty`] holds open at once: a folder deeper down is moved up first.
const MAX_OPEN: usize = 64;

/// What a walk of a private folder found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Contents {
    /// The length of its files and links, as far as the walk went.
    pub bytes: u64,
    /// Why the folder is beyond what the runner keeps, if it is.
    pub beyond: Option<String>,
}

/// Walks `folder` (a real folder, never a link), adding up what it holds and clearing the
/// set-ID bits of its files, until it is done or has found the folder beyond the bounds.
pub fn inspect(folder: &Path) -> io::Result<Contents> {
    let mut contents = Contents::default();
    let (mut entries, mut disk) = (0u64, 0u64);
    // The folders being read, outermost first, each with the length of its path.
    let mut open: Vec<(Dir, usize)> = vec![(Dir::new(open_folder(CWD, folder)?)?, 0)];
    while let Some((dir, path_bytes)) = open.last_mut() {
        let Some(entry) = dir.read() else {
            open.pop();
            continue;
        };
        let entry = entry?;
        let name = entry.file_name();
        if is_dot(name) {
            continue;
        }
        entries += 1;
        let inner_bytes = *path_bytes + usize::from(*path_bytes > 0) + name.to_bytes().len();
        let at = dir.fd()?;
        let stat = rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)?;
        let kind = FileType::from_raw_mode(stat.st_mode);
        let mut inner = None;
        if kind == FileType::Directory {
            inner = Some(open_folder(at, name)?);
        } else {
            contents.bytes += stat.st_size as u64;
            disk += stat.st_blocks as u64 * 512;
        }
        if kind == FileType::RegularFile && stat.st_mode & 0o6000 != 0 {
            clear_set_id(at, name, &stat)?;
        }
        contents.beyond = if entries > KEEP_ENTRIES {
            Some(format!("more than {KEEP_ENTRIES} files, folders and links"))
        } else if inner_bytes > KEEP_PATH_BYTES {
            Some(format!("a path longer than {KEEP_PATH_BYTES} bytes"))
        } else if inner.is_some() && open.len() > KEEP_DEPTH {
            Some(format!("folders more than {KEEP_DEPTH} deep"))
        } else if contents.bytes.max(disk) > KEEP_BYTES {
            Some(format!("more than {KEEP_BYTES} bytes of files"))
        } else {
            None
        };
        if contents.beyond.is_some() {
            return Ok(contents);
        }
        if let Some(inner) = inner {
            open.push((Dir::new(inner)?, inner_bytes));
        }
    }
    Ok(contents)
}

/// Removes everything in `folder` (a real folder, never a link), following no link, however
/// deep or wide: with [`MAX_OPEN`] folders open, a folder found below them is moved up into
/// `folder` and removed from there.
pub fn empty(folder: &Path) -> io::Result<()> {
    let top = open_to_empty(CWD, folder)?;
    let mut moved = 0u64;
    loop {
        let mut removed_any = false;
        // The folders being emptied, outermost first, each with its name in the one above.
        let mut open: Vec<(Dir, CString)> = vec![(Dir::read_from(&top)?, CString::default())];
        loop {
            let depth = open.len();
            let Some((dir, _)) = open.last_mut() else {
                break;
            };
            let Some(entry) = dir.read() else {
                let (_, name) = open.pop().expect("a folder is open");
                if let Some((parent, _)) = open.last() {
                    rustix::fs::unlinkat(parent.fd()?, name.as_c_str(), AtFlags::REMOVEDIR)?;
                    removed_any = true;
                }
                continue;
            };
            let entry = entry?;
            let name = entry.file_name();
            if is_dot(name) {
                continue;
            }
            let at = dir.fd()?;
            let stat = rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)?;
            if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
                rustix::fs::unlinkat(at, name, AtFlags::empty())?;
                removed_any = true;
            } else if depth < MAX_OPEN {
                let inner = Dir::new(open_to_empty(at, name)?)?;
                open.push((inner, name.to_owned()));
            } else {
                // Under a name no entry of the top has, whatever the bot named its own.
                loop {
                    moved += 1;
                    let up = format!(".arena-moved-up-{moved}");
                    match rustix::fs::renameat_with(at, name, &top, &up, RenameFlags::NOREPLACE) {
                        Err(rustix::io::Errno::EXIST) => continue,
                        renamed => break renamed?,
                    }
                }
            }
        }
        // A folder moved up while the top was read may have been missed: read it again.
        if !removed_any {
            return Ok(());
        }
    }
}

/// Opens the folder `path` (relative to `at`) for reading, refusing a link. A folder the
/// runner may not read (a bot running as the runner's own user can take its owner's rights
/// away) gets its owner's rights back first.
fn open_folder<P: rustix::path::Arg + Copy>(at: impl AsFd, path: P) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = match rustix::fs::openat(&at, path, flags, Mode::empty()) {
        Err(rustix::io::Errno::ACCESS) => {
            let stat = rustix::fs::statat(&at, path, AtFlags::SYMLINK_NOFOLLOW)?;
            if FileType::from_raw_mode(stat.st_mode) == FileType::Directory {
                let mode = Mode::from_raw_mode(stat.st_mode | 0o700);
                rustix::fs::chmodat(&at, path, mode, AtFlags::empty())?;
            }
            rustix::fs::openat(&at, path, flags, Mode::empty())?
        }
        opened => opened?,
    };
    Ok(fd)
}

/// [`open_folder`], then gives its owner every right on it, so that what is in it can be
/// removed.
fn open_to_empty<P: rustix::path::Arg + Copy>(at: impl AsFd, path: P) -> io::Result<OwnedFd> {
    let fd = open_folder(at, path)?;
    let mode = rustix::fs::fstat(&fd)?.st_mode;
    if mode & 0o700 != 0o700 {
        rustix::fs::fchmod(&fd, Mode::from_raw_mode(mode | 0o700))?;
    }
    Ok(fd)
}

/// Clears the set-user-ID and set-group-ID bits of the file `name` in `at`, seen as `stat`.
fn clear_set_id(at: impl AsFd, name: &CStr, stat: &Stat) -> io::Result<()> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let file = rustix::fs::openat(at, name, flags, Mode::empty())?;
    rustix::fs::fchmod(&file, Mode::from_raw_mode(stat.st_mode & 0o1777))?;
    Ok(())
}

fn is_dot(name: &CStr) -> bool {
    matches!(name.to_bytes(), b"." | b"..")
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::path::PathBuf;

    use super::*;

    /// Makes a chain of `depth` folders named `a` in `folder`, each made from the one above
    /// by its descriptor: deeper than any path can name.
    fn deep_chain(folder: &Path, depth: usize) {
        let mut at = open_folder(CWD, folder).unwrap();
        for _ in 0..depth {
            rustix::fs::mkdirat(&at, "a", Mode::from_raw_mode(0o755)).unwrap();
            at = open_folder(&at, "a").unwrap();
        }
        rustix::fs::openat(&at, "leaf", OFlags::CREATE | OFlags::WRONLY, Mode::RUSR).unwrap();
    }

    #[test]
    fn a_folder_is_measured_without_following_its_links() {
        let dir = tempfile::tempdir().unwrap();
        let (folder, elsewhere) = (dir.path().join("bot"), dir.path().join("elsewhere"));
        std::fs::create_dir_all(folder.join("sub")).unwrap();
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(folder.join("sub/state"), "12345").unwrap();
        std::fs::write(elsewhere.join("big"), vec![0u8; 2 << 20]).unwrap();
        std::os::unix::fs::symlink(&elsewhere, folder.join("link")).unwrap();
        let link_bytes = elsewhere.as_os_str().len() as u64;
        let contents = inspect(&folder).unwrap();
        assert_eq!(contents.bytes, 5 + link_bytes);
        assert_eq!(contents.beyond, None);
    }

    #[test]
    fn too_many_entries_too_long_a_path_or_too_deep_a_tree_is_beyond_the_bounds() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..=KEEP_ENTRIES {
            std::fs::write(dir.path().join(n.to_string()), "").unwrap();
        }
        let beyond = inspect(dir.path()).unwrap().beyond;
        assert_eq!(beyond.unwrap(), "more than 1000 files, folders and links");

        let dir = tempfile::tempdir().unwrap();
        // Four names of 255 bytes and their slashes: 1023 bytes, within; a fifth is beyond.
        let long: PathBuf = ["x", "y", "z", "w"].iter().map(|c| c.repeat(255)).collect();
        std::fs::create_dir_all(dir.path().join(&long)).unwrap();
        assert_eq!(inspect(dir.path()).unwrap().beyond, None);
        std::fs::create_dir(dir.path().join(long).join("v")).unwrap();
        let beyond = inspect(dir.path()).unwrap().beyond;
        assert_eq!(beyond.unwrap(), "a path longer than 1024 bytes");

        let dir = tempfile::tempdir().unwrap();
        deep_chain(dir.path(), KEEP_DEPTH + 1);
        let beyond = inspect(dir.path()).unwrap().beyond;
        assert_eq!(beyond.unwrap(), "folders more than 64 deep");
        let dir = tempfile::tempdir().unwrap();
        deep_chain(dir.path(), KEEP_DEPTH);
        assert_eq!(inspect(dir.path()).unwrap().beyond, None);
    }

    #[test]
    fn the_walk_clears_set_id_bits() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("suid");
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o6755)).unwrap();
        inspect(dir.path()).unwrap();
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o755);
    }

    /// A tree far deeper than a path can name and than the folders `empty` holds open is
    /// emptied, whatever the names of the others; a link in it is removed, not followed.
    #[test]
    fn a_tree_deeper_than_any_path_is_emptied_without_following_links() {
        let dir = tempfile::tempdir().unwrap();
        let (folder, canary) = (dir.path().join("bot"), dir.path().join("canary"));
        std::fs::create_dir(&folder).unwrap();
        std::fs::create_dir(&canary).unwrap();
        std::fs::write(canary.join("keep"), "x").unwrap();
        std::os::unix::fs::symlink(&canary, folder.join("link")).unwrap();
        deep_chain(&folder, 3000);
        // The name a folder moved up would take, taken already.
        std::fs::create_dir_all(folder.join(".arena-moved-up-1/taken")).unwrap();
        let locked = folder.join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::write(locked.join("inside"), "x").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o500)).unwrap();
        empty(&folder).unwrap();
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
        assert_eq!(std::fs::read_to_string(canary.join("keep")).unwrap(), "x");
    }
}
