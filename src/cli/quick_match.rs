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
    /// Its command line, split like a tournament file's `command` string.
    pub command: String,
}

/// Parses `NAME=COMMAND` (the name ends at the first `=`).
pub fn parse_bot(text: &str) -> Result<MatchBot, String> {
    match text.split_once('=') {
        Some((name, command)) if !name.trim().is_empty() && !command.trim().is_empty() => {
            Ok(MatchBot {
                name: name.trim().to_owned(),
                command: command.to_owned(),
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
        text += &format!(
            "\n[[bots]]\nname = {}\ncommand = {}\ndir = {}\n",
            quote(&bot.name),
            quote(&bot.command),
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
        assert_eq!(bot.command, "python3 -c 'print(1)' a=b");
        for bad in ["nameless", "=cmd", "name=", " = "] {
            assert!(parse_bot(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_text_is_a_tournament_file_of_those_bots_whatever_their_names() {
        let dir = tempfile::tempdir().unwrap();
        let bots = [
            MatchBot {
                name: "quote \" and \\ back".into(),
                command: "/bin/sh -c 'echo 5 6 1 LOOP'".into(),
            },
            MatchBot {
                name: "b".into(),
                command: "/bin/true".into(),
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
