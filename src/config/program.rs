//! Finding a bot's program: a `command`'s first word looked up as a shell would, or `java`
//! for Java sources compiled first; its path made canonical, so that the runner and a box
//! name the same file the same way.

use std::env;
use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::bot_entry::BotContext;
use super::limits::MIB;
use super::raw::RawCommand;
use crate::bots::{JavaBuild, JavaHostRuntime, MIN_JVM_MEMORY_MB, cache_root};

/// The program and arguments of a `command`.
pub(super) fn command_launch(
    command: &RawCommand,
    dir: &Path,
) -> Result<(PathBuf, Vec<String>), String> {
    let Some(mut words) = command.words() else {
        return Err("`command` has an unclosed quote".to_owned());
    };
    if words.is_empty() || words[0].is_empty() {
        return Err("`command` is empty".to_owned());
    }
    let program_word = words.remove(0);
    resolve_program(&program_word, dir).map(|program| (program, words))
}

/// Compiles a bot's Java sources (relative to the tournament file) with the game's host and
/// returns how to run it alone (`java -cp <classes> <host main> <bot class>`, under an
/// address-space limit of `memory_bytes`) and its build.
pub(super) fn java_launch(
    context: &BotContext<'_>,
    sources: &[String],
    dir: &Path,
    memory_bytes: Option<u64>,
) -> Result<(PathBuf, Vec<String>, Option<JavaBuild>), String> {
    let Some(host) = context.kind.java_host() else {
        return Err(format!(
            "`java` bots need a game with a Java host, and {} has none",
            context.kind
        ));
    };
    if let Some(mb) = memory_bytes
        .map(|bytes| bytes / MIB)
        .filter(|&mb| mb < MIN_JVM_MEMORY_MB)
    {
        return Err(format!(
            "its `memory_mb` is {mb}, and a JVM needs at least {MIN_JVM_MEMORY_MB} (0 for no \
             limit): under that it may not start, and cannot say why"
        ));
    }
    let sources: Vec<PathBuf> = sources.iter().map(|s| context.base.join(s)).collect();
    let build = host.build(&sources, &cache_root())?;
    let java = resolve_program("java", dir)?;
    Ok((java, host.solo_args(&build, memory_bytes), Some(build)))
}

/// Finds the program to execute: a word with a `/` is a path relative to the bot's folder;
/// a bare name is looked up in `PATH`, as a shell would.
pub(super) fn resolve_program(word: &str, dir: &Path) -> Result<PathBuf, String> {
    if word.contains('/') {
        // Without `.` parts: `./bot.py` in `/x` is `/x/bot.py` in messages, not `/x/./bot.py`.
        let path: PathBuf = dir.join(word).components().collect();
        if path.is_dir() {
            return Err(format!(
                "program {} is a folder, not a program",
                path.display()
            ));
        }
        return match executable(&path) {
            Some(true) => Ok(without_dot_dot(path)),
            Some(false) => Err(crate::bots::preflight::not_executable(&path, word)),
            None => Err(format!(
                "program {} does not exist{}",
                path.display(),
                one_word_hint(word)
            )),
        };
    }
    let search = env::var_os("PATH").unwrap_or_default();
    env::split_paths(&search)
        .map(|folder| folder.join(OsStr::new(word)))
        .find(|candidate| executable(candidate) == Some(true))
        .ok_or_else(|| {
            // As in a shell, a bare name is never looked up in the bot's own folder.
            let hint = if dir.join(word).is_file() {
                format!(" (for {word} in the bot's folder, write `./{word}`)")
            } else {
                one_word_hint(word)
            };
            format!("program `{word}` not found in PATH{hint}")
        })
}

/// What to add when no program is named `word`: a command line given as one word (quoted
/// whole on `arena check`'s command line) holds its spaces.
fn one_word_hint(word: &str) -> String {
    if word.contains(' ') {
        "; a command is its words one by one: its program, then its arguments (quote none \
         of them together)"
            .to_owned()
    } else {
        String::new()
    }
}

/// `path` with its folder canonical (no `..`, no link), the file's own name kept (a program
/// may be a link on purpose). Paths are canonical from loading on, so the runner and a box,
/// which hides folders a `..` would pass through, mean the same folder by the same path.
fn without_dot_dot(path: PathBuf) -> PathBuf {
    match (path.parent().map(Path::canonicalize), path.file_name()) {
        (Some(Ok(folder)), Some(name)) => folder.join(name),
        _ => path,
    }
}

/// `folder` absolute and canonical, also when it does not exist yet (`arena match` names
/// its tournament file in the results folder it is about to make): its longest existing
/// ancestor canonical, the rest as written. So the folder has the same name, and the run
/// the same digest, before and after it is made, whatever `..` or link led to it.
pub(super) fn canonical_so_far(folder: &Path) -> PathBuf {
    let absolute = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
    let mut missing = Vec::new();
    let mut existing = absolute.as_path();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            return missing
                .iter()
                .rev()
                .fold(canonical, |path, part| path.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name);
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

/// `Some(is_executable)` for an existing file, `None` if there is no file.
fn executable(path: &Path) -> Option<bool> {
    let metadata = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    Some(metadata.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_not_made_yet_is_named_as_it_will_be_once_made() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("sub")).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        let to_be = dir.path().join("link/sub/../results/inner");
        let before = canonical_so_far(&to_be);
        std::fs::create_dir_all(real.join("results/inner")).unwrap();
        assert_eq!(before, canonical_so_far(&to_be));
        assert_eq!(before, real.canonicalize().unwrap().join("results/inner"));
    }
}
