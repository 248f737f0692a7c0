//! What each sandboxed bot may see: the folders it reads (its own, its program's
//! installation, what its arguments name), and every other bot's folders hidden from it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::validate::Bot;
use crate::bots::JavaBuild;

/// What a bot reads: its folder, its program's folder (for a program in a `bin` folder, the
/// whole installation around it: an interpreter in `<prefix>/bin` needs `<prefix>/lib`; for
/// a version manager's `shims` folder, the manager around it: pyenv's `python3` shim runs
/// `<root>/libexec/pyenv`, which runs `<root>/versions/<version>/bin/python3`),
/// its compiled classes, and every existing absolute path its arguments name (each part of
/// a `:`-separated class path too): the folder itself, or a file's folder.
pub(super) fn readable_folders(
    dir: &Path,
    program: &Path,
    args: &[String],
    java: Option<&JavaBuild>,
) -> Vec<PathBuf> {
    let mut folders = vec![dir.to_path_buf()];
    folders.extend(program.parent().map(|folder| match folder.file_name() {
        Some(name) if name == "bin" || name == "shims" => {
            folder.parent().unwrap_or(folder).to_path_buf()
        }
        _ => folder.to_path_buf(),
    }));
    folders.extend(java.map(|build| build.classes.clone()));
    for part in args.iter().flat_map(|arg| arg.split(':')) {
        let path = Path::new(part);
        if !path.is_absolute() {
            continue;
        }
        if path.is_dir() {
            folders.push(path.to_path_buf());
        } else if let Some(parent) = path.parent().filter(|_| path.exists()) {
            folders.push(parent.to_path_buf());
        }
    }
    folders
}

/// Hides the tournament file's folder, every other bot's folders and the folders of the
/// entries `left_out` of the run from each sandboxed bot (its own stay visible, also when
/// they lie inside a hidden one).
pub(super) fn hide_from_each_other(
    bots: &mut [Bot],
    tournament_folder: &Path,
    left_out: &[PathBuf],
) {
    let playing = bots.iter().map(|bot| bot.program.dir.clone());
    let folders: Vec<PathBuf> = playing.chain(left_out.iter().cloned()).collect();
    for bot in bots.iter_mut() {
        if let Some(spec) = bot.program.sandbox.as_mut().map(Arc::make_mut) {
            spec.hidden.push(tournament_folder.to_path_buf());
            spec.hidden.extend(
                folders
                    .iter()
                    .filter(|folder| **folder != bot.program.dir)
                    .cloned(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_reads_its_folder_its_programs_installation_and_the_paths_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let classes = dir.path().join("classes");
        std::fs::create_dir(&classes).unwrap();
        let script = dir.path().join("bot.py");
        std::fs::write(&script, "").unwrap();
        let args = [
            "-cp".to_owned(),
            format!("{}:relative", classes.display()),
            script.display().to_string(),
            "/no/such/path".to_owned(),
        ];
        let folders = readable_folders(
            Path::new("/bots/mine"),
            Path::new("/opt/python2/bin/python2"),
            &args,
            None,
        );
        let expected = [
            PathBuf::from("/bots/mine"),
            PathBuf::from("/opt/python2"),
            classes,
            dir.path().to_path_buf(),
        ];
        assert_eq!(folders, expected);
        // A version manager's shim reads the manager around it; another folder is itself.
        let folders = readable_folders(
            Path::new("/b"),
            Path::new("/r/.pyenv/shims/python3"),
            &[],
            None,
        );
        assert_eq!(folders, [Path::new("/b"), Path::new("/r/.pyenv")]);
        let folders = readable_folders(Path::new("/b"), Path::new("/opt/tools/python3"), &[], None);
        assert_eq!(folders, [Path::new("/b"), Path::new("/opt/tools")]);
    }
}
