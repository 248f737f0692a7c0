//! Private working folders: for games that give each bot a file store (Cave Rangers: games/cave.md,
//! "The private folder"), one folder per bot under the results folder, kept for the whole
//! tournament (across turns, games and a resume) and used as the bot's current directory. The 1 KB
//! cap is reported, not enforced: after every game, a bot whose folder holds more is named in a
//! warning.
//!
//! A bot may replace its folder by a link to anywhere (unsandboxed, it can reach the folder's
//! parent). The runner never follows such a link: before the first game and after every game
//! a folder that is not a real folder any more is removed (the link, not its target) and made
//! again, empty.
//!
//! What a bot writes during a game a stop drops is undone on the resume: see
//! [`folder_snapshot`].

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::config::Tournament;
use crate::sandbox::EmptiedFolder;
use crate::{folder_bounds, folder_snapshot};

/// The folder under the results folder that holds the bots' folders.
pub const WORK_DIR: &str = "work";

/// The most a bot may keep in its folder, in bytes (games/cave.md, "The private folder").
pub const CAP_BYTES: u64 = 1024;

/// Creates (or, on a resume, keeps) a folder per bot under `out/work/` and returns a copy of
/// `tournament` whose bots run there, with the folders in bot order. Arguments that name
/// files in a bot's `dir` are made absolute, so `python3 bot.py` still finds `bot.py`. On a
/// resume whose journal holds the games `journaled`, folders a game not among them changed
/// are put back as they were before it.
pub fn with_private_folders(
    tournament: &Tournament,
    out: &Path,
    journaled: &BTreeSet<u64>,
) -> anyhow::Result<(Tournament, Vec<PathBuf>)> {
    let root = out.join(WORK_DIR);
    std::fs::create_dir_all(&root)
        .with_context(|| format!("cannot create the bots' folders in {}", root.display()))?;
    // Without links on the way, so a box can open the folders refusing every link.
    let root = root
        .canonicalize()
        .with_context(|| format!("cannot locate {}", root.display()))?;
    let mut folders: Vec<PathBuf> = Vec::new();
    for bot in &tournament.bots {
        let base = folder_name(&bot.name);
        let mut folder = root.join(&base);
        for n in 2.. {
            if !folders.contains(&folder) {
                break;
            }
            folder = root.join(format!("{base}-{n}"));
        }
        folders.push(folder);
    }
    // Before the check for links: a link planted in a dropped game is undone, not reported.
    if let Some(index) = folder_snapshot::recover(out, &folders, journaled)? {
        tracing::info!("the bots' folders are back as they were before game {index}");
    }
    let mut tournament = tournament.clone();
    for (bot, folder) in tournament.bots.iter_mut().zip(&folders) {
        if let Some(why) = restore(folder)? {
            tracing::warn!("bot `{}`: {why}", bot.name);
        }
        if let Held::Emptied(why) = bound(folder)? {
            tracing::warn!("bot `{}`: {}", bot.name, emptied_warning(folder, &why));
        }
        bot.program = bot.program.run_in(folder);
    }
    folder_snapshot::settle(out, &folders)?;
    Ok((tournament, folders))
}

/// Makes `folder` the sandbox user's when `arena` runs as root (it runs bots as nobody), so
/// that a boxed bot can write its private folder.
pub fn give_to_sandbox_user(folder: &Path) -> anyhow::Result<()> {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        let user = Some(crate::sandbox::NOBODY);
        std::os::unix::fs::lchown(folder, user, user)
            .with_context(|| format!("cannot give {} to the sandbox user", folder.display()))?;
    }
    Ok(())
}

/// A bot's name as a folder name: ASCII letters, digits, `-`, `_` and `.` are kept, anything
/// else becomes `_` (so no `/`), and a name of dots only gets a leading `_` (so no `.` or
/// `..`). Every character becomes one byte and a name has at most
/// [`MAX_NAME_CHARS`](crate::config::MAX_NAME_CHARS) (checked when the tournament file is loaded), so with a `-N` suffix for a clash the
/// folder name stays far below the 255 bytes a file system allows.
pub(crate) fn folder_name(name: &str) -> String {
    let mut folder: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if folder.chars().all(|c| c == '.') {
        folder.insert(0, '_');
    }
    folder
}

/// Makes sure `folder` is a real folder (not a link, a file or missing): what was there is
/// removed without following it, and an empty folder made. Returns what was wrong, if
/// anything other than a missing folder.
pub fn restore(folder: &Path) -> anyhow::Result<Option<String>> {
    let why = match folder.symlink_metadata() {
        Ok(meta) if meta.is_dir() => return Ok(None),
        Ok(meta) => {
            let what = if meta.file_type().is_symlink() {
                "a link"
            } else {
                "something else"
            };
            std::fs::remove_file(folder)
                .with_context(|| format!("cannot remove {}", folder.display()))?;
            Some(format!(
                "its private folder {} was replaced by {what}; made again, empty",
                folder.display()
            ))
        }
        Err(_) => None,
    };
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create the bot folder {}", folder.display()))?;
    Ok(why)
}

/// What a private folder held after a game, as [`bound`] left it.
#[derive(Debug, PartialEq, Eq)]
pub enum Held {
    /// The bytes of its files and links (symbolic links count as their own size).
    Bytes(u64),
    /// More than the runner keeps between games (why): it was emptied.
    Emptied(String),
}

/// Empties `folder` (a real folder) if it holds more than the runner keeps between games
/// ([`folder_bounds`]), or what the runner cannot read; else says how many bytes it holds.
/// Set-ID bits are cleared either way.
pub fn bound(folder: &Path) -> anyhow::Result<Held> {
    let why = match folder_bounds::inspect(folder) {
        Ok(contents) => match contents.beyond {
            None => return Ok(Held::Bytes(contents.bytes)),
            Some(why) => why,
        },
        Err(error) => format!("what the runner cannot read ({error})"),
    };
    folder_bounds::empty(folder).with_context(|| format!("cannot empty {}", folder.display()))?;
    Ok(Held::Emptied(why))
}

/// What `folder` held after its game: what its box reported emptying (among `emptied`,
/// the reports of the game's boxes), else what [`bound`] finds and leaves.
pub fn held_after_game(folder: &Path, emptied: &[EmptiedFolder]) -> anyhow::Result<Held> {
    match emptied.iter().find(|report| report.folder == folder) {
        Some(report) => Ok(Held::Emptied(report.why.clone())),
        None => bound(folder),
    }
}

/// The warning for a folder [`bound`] emptied because it held `why`.
pub fn emptied_warning(folder: &Path, why: &str) -> String {
    format!(
        "the private folder {} held {why}, more than the runner keeps between games; emptied",
        folder.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::MAX_NAME_CHARS;

    #[test]
    fn names_become_safe_folder_names() {
        assert_eq!(folder_name("Indiana Jones"), "Indiana_Jones");
        assert_eq!(folder_name("../up/and-out.v2"), ".._up_and-out.v2");
        assert_eq!(folder_name(".."), "_..");
        assert_eq!(folder_name("été"), "_t_");
        assert_eq!(folder_name("."), "_.");
        assert_eq!(folder_name("/"), "_");
        let longest = folder_name(&"東".repeat(MAX_NAME_CHARS));
        assert_eq!(longest, "_".repeat(MAX_NAME_CHARS));
    }

    #[test]
    fn a_folder_replaced_by_a_link_is_made_again_and_the_target_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let canary = dir.path().join("canary");
        std::fs::create_dir(&canary).unwrap();
        std::fs::write(canary.join("keep"), "x").unwrap();
        let folder = dir.path().join("bot");
        std::os::unix::fs::symlink(&canary, &folder).unwrap();
        let why = restore(&folder).unwrap();
        assert!(why.is_some_and(|why| why.contains("a link")));
        assert!(folder.symlink_metadata().unwrap().is_dir());
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
        assert_eq!(std::fs::read_to_string(canary.join("keep")).unwrap(), "x");
        assert_eq!(restore(&folder).unwrap(), None, "a real folder stays");
    }

    #[test]
    fn a_folder_within_bounds_is_measured_and_one_beyond_them_emptied() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), [0u8; 1000]).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/b"), [0u8; 25]).unwrap();
        assert_eq!(bound(dir.path()).unwrap(), Held::Bytes(1025));
        // A sparse file takes no disk, but a copy of it would.
        let sparse = std::fs::File::create(dir.path().join("sub/sparse")).unwrap();
        sparse.set_len(1 << 40).unwrap();
        let why = format!("more than {} bytes of files", folder_bounds::KEEP_BYTES);
        assert_eq!(bound(dir.path()).unwrap(), Held::Emptied(why));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert_eq!(bound(dir.path()).unwrap(), Held::Bytes(0));
    }
}
