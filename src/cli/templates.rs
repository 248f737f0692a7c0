//! `arena new`: minimal bots that read their game's input, parse it and answer legally, in
//! Python, JavaScript or Rust, and for a game with a Java host (AlienWar) a Java class of the
//! host's API, embedded in the binary from `templates/<game>/` (each game's registry entry
//! names its own). Each is a starting point, not a strategy; the tests check every one with
//! `arena check`.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::args::Lang;
use arena::errors::Error;
use arena::text::{escape_control, shell_word};
use arena_games::GameKind;

/// The Cargo manifest of every Rust template.
const CARGO_TOML: &str = include_str!("../../templates/rust/Cargo.toml");

/// The files of a template: paths relative to the bot's folder, and their text. Java only
/// where the game has a Java host: its bots are classes of the host's API, not programs.
pub fn files(game: GameKind, lang: Lang) -> Result<Vec<(&'static str, &'static str)>, Error> {
    let templates = game.templates();
    Ok(match lang {
        Lang::Python => vec![("bot.py", templates.python)],
        Lang::Javascript => vec![("bot.js", templates.javascript)],
        Lang::Rust => vec![("Cargo.toml", CARGO_TOML), ("src/main.rs", templates.rust)],
        Lang::Java => match game.java_host() {
            Some(host) => vec![host.template],
            None => {
                return Err(Error::Usage(format!(
                    "no Java template for {game}: only a game with a Java host (alienwar) \
                     has one. A Java bot of {game} is a program like any other, reading \
                     its requests as games/{game}.md says (`command = \"java Bot.java\"`; \
                     see the README on `memory_mb` for a JVM's options); start from \
                     another --lang"
                )));
            }
        },
    })
}

/// The arguments of `arena check` for a template written to `dir` (after building it, for
/// Rust): `-- <command>`, or `--java <source>` for each Java source `written`. Python by its
/// real path, without site packages (`-S -I`; the templates need only the standard
/// library): it starts in about 10 ms, where a `python3` found through a version manager's
/// shim can take 150 ms, and a one-shot game starts the bot on every turn.
fn check_args(lang: Lang, dir: &Path, written: &[PathBuf]) -> Vec<String> {
    let path = |file: &str| dir.join(file).display().to_string();
    let command = |words: Vec<String>| [vec!["--".to_owned()], words].concat();
    match lang {
        Lang::Python => command(vec![
            "/usr/bin/python3".into(),
            "-S".into(),
            "-I".into(),
            path("bot.py"),
        ]),
        Lang::Javascript => command(vec!["node".into(), path("bot.js")]),
        Lang::Rust => command(vec![path("target/release/bot")]),
        Lang::Java => written
            .iter()
            .flat_map(|source| ["--java".to_owned(), source.display().to_string()])
            .collect(),
    }
}

/// Writes the template into `dir` (created if needed) and returns the paths written.
/// Existing files are never overwritten, nor written through a link: if anything is in the
/// way, nothing is written.
pub fn write(game: GameKind, lang: Lang, dir: &Path) -> Result<Vec<PathBuf>, Error> {
    if let Some(why) = folder_problem(dir) {
        return Err(Error::Usage(why));
    }
    let files = files(game, lang)?;
    let taken: Vec<String> = files
        .iter()
        .filter_map(|(name, _)| in_the_way(dir, name))
        .map(|path| path.display().to_string())
        .collect();
    if !taken.is_empty() {
        return Err(Error::Usage(format!(
            "not overwriting {}; choose another folder",
            escape_control(&taken.join(", "))
        )));
    }
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        write_new(&path, text)?;
        written.push(path);
    }
    Ok(written)
}

/// Why `dir` cannot be the bot's folder, if it cannot: the nearest of it and its parents
/// that exists is no folder (a file, or a link to nothing). Checked before anything is
/// made, so that a bad `DIR` is the command line's mistake (exit status 2), not a failure
/// half way.
fn folder_problem(dir: &Path) -> Option<String> {
    let existing = dir
        .ancestors()
        .find(|path| path.symlink_metadata().is_ok())?;
    if existing.is_dir() {
        return None;
    }
    let what = if existing.exists() {
        "a file, not a folder"
    } else {
        "a symbolic link to nothing"
    };
    Some(format!(
        "{} is {what}; choose another folder",
        escape_control(&existing.display().to_string())
    ))
}

/// What stops the template's file `name` being written as a new file inside `dir`, if
/// anything: the file's path if anything is there (a link to nothing too), or a folder on
/// its way that is not a real folder (a link would lead the file out of `dir`).
fn in_the_way(dir: &Path, name: &str) -> Option<PathBuf> {
    let path = dir.join(name);
    let folders: Vec<&Path> = path
        .ancestors()
        .skip(1)
        .take_while(|folder| *folder != dir)
        .collect();
    let not_a_folder = |folder: &&Path| {
        folder
            .symlink_metadata()
            .is_ok_and(|metadata| !metadata.is_dir())
    };
    match folders.into_iter().rev().find(not_a_folder) {
        Some(folder) => Some(folder.to_path_buf()),
        None => path.symlink_metadata().is_ok().then_some(path),
    }
}

/// Writes `text` to a new file at `path`. The file is created exclusively (`O_EXCL`), which
/// never follows a link and fails if anything appeared there since [`in_the_way`] looked.
/// A script with a `#!` line is made executable (0755 less the umask, where other files get
/// `File::create`'s 0666), so that it runs as the bot's whole command, as that line means.
fn write_new(path: &Path, text: &str) -> Result<(), Error> {
    let cannot = || format!("cannot write {}", path.display());
    let mode = if text.starts_with("#!") { 0o755 } else { 0o666 };
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)
        .with_context(cannot)?;
    file.write_all(text.as_bytes()).with_context(cannot)?;
    Ok(())
}

/// `word` as the user types it in a POSIX shell ([`shell_word`]), with control characters
/// escaped: the line is printed on a terminal.
fn typed(word: &str) -> String {
    escape_control(&shell_word(word)).into_owned()
}

/// What to do after `arena new` wrote `written` into `dir`: build (Rust), then check the bot.
pub fn next_steps(game: GameKind, lang: Lang, dir: &Path, written: &[PathBuf]) -> String {
    let words: Vec<String> = check_args(lang, dir, written)
        .iter()
        .map(|word| typed(word))
        .collect();
    let build = match lang {
        Lang::Rust => format!(
            "build it:  cargo build --release --manifest-path {}\n",
            typed(&dir.join("Cargo.toml").display().to_string())
        ),
        Lang::Python | Lang::Javascript | Lang::Java => String::new(),
    };
    let why = match lang {
        Lang::Python => {
            "(/usr/bin/python3 -S -I starts in about 10 ms; a `python3` through a version \
             manager's shim such as pyenv's takes up to 250 ms at every start of the bot, \
             which a game of a process per turn makes every turn)\n"
        }
        Lang::Javascript | Lang::Rust | Lang::Java => "",
    };
    let (entry, play) = match lang {
        // One alien plays a game against the prey: a match needs no other bot.
        Lang::Java => {
            // `--bot`'s command is split into words as a shell would: each source is quoted
            // for that split, then the whole for the shell the line is pasted into.
            let sources: Vec<String> = written
                .iter()
                .map(|source| shell_word(&source.display().to_string()))
                .collect();
            (
                format!("its `java` source (see games/{game}.md, \"Java aliens\")"),
                format!(
                    "play it:   arena match {game} --bot mine={}\n",
                    typed(&sources.join(" "))
                ),
            )
        }
        Lang::Python | Lang::Javascript | Lang::Rust => (
            format!("its `command` (see games/{game}.md)"),
            String::new(),
        ),
    };
    format!(
        "{build}check it:  arena check {game} {}\n{why}{play}then add it to a tournament file as \
         {entry}\n",
        words.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words a POSIX shell makes of the command on the line of `steps` that starts with
    /// `label`.
    fn command_words(steps: &str, label: &str) -> Vec<String> {
        let line = steps
            .lines()
            .find_map(|line| line.strip_prefix(label))
            .unwrap_or_else(|| panic!("no {label:?} line in {steps}"));
        shlex::split(line).expect("the line is one shell command")
    }

    /// The scripts with a `#!` line (Python, JavaScript) are executable, so `arena check GAME
    /// -- DIR/bot.py` runs them; they were written 0644 and refused as "not executable".
    /// Nothing else is: a Rust source, its manifest, a Java class.
    #[test]
    fn only_the_scripts_run_directly_are_executable() {
        use std::os::unix::fs::PermissionsExt;
        for &game in GameKind::ALL {
            for lang in [Lang::Python, Lang::Javascript, Lang::Rust, Lang::Java] {
                if matches!(lang, Lang::Java) && game.java_host().is_none() {
                    continue;
                }
                let dir = tempfile::tempdir().unwrap();
                let written = write(game, lang, dir.path()).unwrap();
                for path in written {
                    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
                    let script = matches!(lang, Lang::Python | Lang::Javascript);
                    assert_eq!(mode & 0o100 != 0, script, "{}: {mode:o}", path.display());
                }
            }
        }
    }

    /// Every path in the printed commands reads back as one word, however odd its folder
    /// (a space, a `$`, a quote); `build it` was printed unquoted, and `play it` quoted the
    /// sources once, so arena split its `--bot` command at the space.
    #[test]
    fn the_printed_commands_keep_each_path_one_word() {
        for folder in ["my $bots/x y", "it's", "plain"] {
            let dir = Path::new(folder);
            let steps = next_steps(GameKind::Petri, Lang::Rust, dir, &[]);
            let manifest = dir.join("Cargo.toml").display().to_string();
            assert_eq!(
                command_words(&steps, "build it:"),
                ["cargo", "build", "--release", "--manifest-path", &manifest]
            );
            let bot = dir.join("target/release/bot").display().to_string();
            assert_eq!(
                command_words(&steps, "check it:"),
                ["arena", "check", "petri", "--", &bot]
            );

            let source = dir.join("MyAlien.java");
            let written = [source.clone()];
            let steps = next_steps(GameKind::AlienWar, Lang::Java, dir, &written);
            let source = source.display().to_string();
            let play = command_words(&steps, "play it:");
            let bot = play[4].strip_prefix("mine=").unwrap();
            assert_eq!(shlex::split(bot).unwrap(), [source.as_str()], "{play:?}");
            assert_eq!(
                command_words(&steps, "check it:"),
                ["arena", "check", "alienwar", "--java", &source]
            );
        }
    }
}
