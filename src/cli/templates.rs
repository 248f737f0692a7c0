//! `arena new`: minimal bots that read their game's input, parse it and answer legally, in
//! Python, JavaScript or Rust, and for a game with a Java host (AlienWar) a Java class of the
//! host's API, embedded in the binary from `templates/<game>/` (each game's registry entry
//! names its own). Each is a starting point, not a strategy; the tests check every one with
//! `arena check`.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::args::Lang;
use arena::errors::Error;
use arena::text::escape_control;
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
                     its requests on stdin (`command = \"java Bot.java\"`; see the README \
                     on `memory_mb` for a JVM's options); start from another --lang"
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
/// Existing files are never overwritten: if any is in the way, nothing is written.
pub fn write(game: GameKind, lang: Lang, dir: &Path) -> Result<Vec<PathBuf>, Error> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{} is a file, not a folder; choose another folder",
            escape_control(&dir.display().to_string())
        )));
    }
    let files = files(game, lang)?;
    let taken: Vec<String> = files
        .iter()
        .map(|(name, _)| dir.join(name))
        .filter(|path| path.exists())
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
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// What to do after `arena new` wrote `written` into `dir`: build (Rust), then check the bot.
pub fn next_steps(game: GameKind, lang: Lang, dir: &Path, written: &[PathBuf]) -> String {
    let words: Vec<String> = check_args(lang, dir, written)
        .iter()
        .map(|word| shlex::try_quote(word).map_or_else(|_| word.clone(), |q| q.into_owned()))
        .map(|word| escape_control(&word).into_owned())
        .collect();
    let build = match lang {
        Lang::Rust => format!(
            "build it:  cargo build --release --manifest-path {}\n",
            escape_control(&dir.join("Cargo.toml").display().to_string())
        ),
        Lang::Python | Lang::Javascript | Lang::Java => String::new(),
    };
    let why = match lang {
        Lang::Python => {
            "(/usr/bin/python3 -S -I starts in about 10 ms; a `python3` through a version \
             manager's shim such as pyenv's takes up to 250 ms, on every turn of a one-shot \
             game)\n"
        }
        Lang::Javascript | Lang::Rust | Lang::Java => "",
    };
    let (entry, play) = match lang {
        // One alien plays a game against the prey: a match needs no other bot.
        Lang::Java => {
            let sources = written.iter().map(|source| source.display().to_string());
            let sources = sources.collect::<Vec<_>>().join(" ");
            let sources = shlex::try_quote(&sources).map_or_else(|_| sources.clone(), Into::into);
            (
                format!("its `java` source (see games/{game}.md, \"Java aliens\")"),
                format!(
                    "play it:   arena match {game} --bot mine={}\n",
                    escape_control(&sources)
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
