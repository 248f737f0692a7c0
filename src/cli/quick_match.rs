//! `arena match`: a tournament from the command line, for a contestant's quick check of a
//! few bots. It becomes the text of a tournament file, so it is checked and played exactly
//! as a file would be, and that file is kept in the results folder to resume or rerun it.

use std::path::Path;

use arena_games::GameKind;

/// The name of the file a match's tournament is kept in, in its results folder.
pub const MATCH_FILE: &str = "match.toml";

/// One `--bot NAME=COMMAND`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchBot {
    /// The bot's name on the leaderboard.
    pub name: String,
    pub program: MatchProgram,
}

/// How a match's bot runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchProgram {
    /// A command line, split like a tournament file's `command` string.
    Command(String),
    /// Java sources (the first names the class), a tournament file's `java`: a command of
    /// nothing but `.java` files, which no command line could mean.
    Java(Vec<String>),
}

/// Parses `NAME=COMMAND` (the name ends at the first `=`).
pub fn parse_bot(text: &str) -> Result<MatchBot, String> {
    match text.split_once('=') {
        Some((name, command)) if !name.trim().is_empty() && !command.trim().is_empty() => {
            let sources = shlex::split(command)
                .filter(|words| words.iter().all(|word| word.ends_with(".java")));
            Ok(MatchBot {
                name: name.trim().to_owned(),
                program: sources.map_or_else(
                    || MatchProgram::Command(command.to_owned()),
                    MatchProgram::Java,
                ),
            })
        }
        _ => Err(format!(
            "expected NAME=COMMAND, e.g. `v2=/usr/bin/python3 -S -I bot.py`, not `{}`",
            text.escape_debug()
        )),
    }
}

/// The tournament file of a match of `bots` at `game`, started in `dir` (the folder their
/// commands are relative to), with `games` per pairing or runs and the master `seed` if
/// given: all that decides the match's games, so that the file alone plays or resumes it.
pub fn tournament_text(
    game: GameKind,
    bots: &[MatchBot],
    dir: &Path,
    games: Option<u32>,
    seed: Option<u64>,
) -> String {
    // TOML's own quoting, so any name, command or folder reads back as it was given.
    let quote = |text: &str| toml::Value::String(text.to_owned()).to_string();
    let mut text = format!(
        "# Written by `arena match`; `arena run` this file to play the match again.\n\
         game = {}\n",
        quote(game.name())
    );
    if let Some(games) = games {
        text += &format!("games = {games}\n");
    }
    // A TOML integer is an i64: a larger seed stays on the command line (the run's
    // resume command gives it again).
    if let Some(seed) = seed.filter(|&seed| i64::try_from(seed).is_ok()) {
        text += &format!("seed = {seed}\n");
    }
    for bot in bots {
        let program = match &bot.program {
            MatchProgram::Command(command) => format!("command = {}", quote(command)),
            // A file's sources are relative to the file, which is not where they were named.
            MatchProgram::Java(sources) => {
                let paths = (sources.iter())
                    .map(|source| quote(&dir.join(source).to_string_lossy()))
                    .collect::<Vec<_>>();
                format!("java = [{}]", paths.join(", "))
            }
        };
        text += &format!(
            "\n[[bots]]\nname = {}\n{program}\ndir = {}\n",
            quote(&bot.name),
            quote(&dir.to_string_lossy())
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::config::Tournament;

    #[test]
    fn a_bot_is_a_name_and_a_command() {
        let bot = parse_bot("v2=python3 -c 'print(1)' a=b").unwrap();
        assert_eq!(bot.name, "v2");
        assert_eq!(
            bot.program,
            MatchProgram::Command("python3 -c 'print(1)' a=b".into())
        );
        for bad in ["nameless", "=cmd", "name=", " = "] {
            assert!(parse_bot(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_command_of_only_java_sources_is_a_java_bot_and_any_other_is_a_command() {
        let bot = parse_bot("mine='my aliens/Mine.java' Helper.java").unwrap();
        let sources = ["my aliens/Mine.java", "Helper.java"].map(String::from);
        assert_eq!(bot.program, MatchProgram::Java(sources.to_vec()));
        for command in ["java Mine.java", "Mine.java --fast", "./bot.javascript"] {
            let program = parse_bot(&format!("b={command}")).unwrap().program;
            assert_eq!(program, MatchProgram::Command(command.into()));
        }
        let dir = tempfile::tempdir().unwrap();
        let text = tournament_text(GameKind::AlienWar, &[bot], dir.path(), None, None);
        let file = dir.path().join(MATCH_FILE);
        let tournament = Tournament::from_toml_str(&text, &file);
        let expected = format!("java = [{:?}, ", dir.path().join("my aliens/Mine.java"));
        assert!(text.contains(&expected), "{text}");
        // The sources do not exist: the file names the first where a tournament file would.
        let problems = tournament.unwrap_err().problems;
        assert!(
            problems[0].message.contains("Mine.java"),
            "{:?}",
            problems[0].message
        );
    }

    #[test]
    fn the_text_is_a_tournament_file_of_those_bots_whatever_their_names() {
        let dir = tempfile::tempdir().unwrap();
        let bots = [
            MatchBot {
                name: "quote \" and \\ back".into(),
                program: MatchProgram::Command("/bin/sh -c 'echo 5 6 1 LOOP'".into()),
            },
            MatchBot {
                name: "b".into(),
                program: MatchProgram::Command("/bin/true".into()),
            },
        ];
        let file = dir.path().join(MATCH_FILE);
        let text = tournament_text(GameKind::Petri, &bots, dir.path(), Some(3), Some(7));
        let tournament = Tournament::from_toml_str(&text, &file).unwrap();
        assert_eq!(tournament.kind(), GameKind::Petri);
        assert_eq!(tournament.games, 3);
        assert_eq!(tournament.seed, 7);
        let text = tournament_text(GameKind::Petri, &bots, dir.path(), None, Some(u64::MAX));
        assert!(Tournament::from_toml_str(&text, &file).is_ok(), "{text}");
        let names: Vec<&str> = tournament.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["quote \" and \\ back", "b"]);
    }
}
