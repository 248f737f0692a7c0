//! `arena match`: a tournament from the command line, for a contestant's quick check of a
//! few bots. It becomes the text of a tournament file, so it is checked and played exactly
//! as a file would be, and that file is kept in the results folder to resume or rerun it.

use std::path::Path;

use arena::config::LimitSettings;
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

/// One `--option KEY=VALUE`: an entry of the file's `[options]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchOption {
    /// A bare key, or dotted into a table (`density.gold`).
    pub key: String,
    pub value: toml::Value,
}

/// As a line of an `[options]` table (without its newline): `key = value`.
impl std::fmt::Display for MatchOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} = {}", self.key, self.value)
    }
}

/// Parses `KEY=VALUE`. The value is read as TOML (`200`, `true`, `"text"`), and as a string
/// if it is not TOML (`one-move`, `petri.js`), so that no shell quoting is needed for words.
pub fn parse_option(text: &str) -> Result<MatchOption, String> {
    let bare = |part: &str| {
        !part.is_empty()
            && (part.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    match text.split_once('=') {
        Some((key, value)) if key.trim().split('.').all(bare) => {
            let value = value.trim();
            let parsed = format!("value = {value}")
                .parse::<toml::Table>()
                .ok()
                .and_then(|mut table| table.remove("value"));
            Ok(MatchOption {
                key: key.trim().to_owned(),
                value: parsed.unwrap_or_else(|| toml::Value::String(value.to_owned())),
            })
        }
        _ => Err(format!(
            "expected KEY=VALUE, a game's option as in a tournament file's [options] table, \
             e.g. `rounds=200` or `density.gold=300`, not `{}`",
            text.escape_debug()
        )),
    }
}

/// What a match sets besides its bots, each as a tournament file would.
#[derive(Debug, Clone, Default)]
pub struct MatchSettings {
    /// Games per pairing, or runs.
    pub games: Option<u32>,
    /// The master seed.
    pub seed: Option<u64>,
    /// The time a request has, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// The game's `[options]` entries.
    pub options: Vec<MatchOption>,
    /// The bots' limits.
    pub limits: LimitSettings,
}

/// The file's lines of the `limits` that are not a file's defaults.
fn limit_lines(limits: &LimitSettings) -> String {
    let defaults = LimitSettings::default();
    let keys = [
        ("memory_mb", limits.memory_mb, defaults.memory_mb),
        ("cpu_seconds", limits.cpu_seconds, defaults.cpu_seconds),
        (
            "max_processes",
            limits.max_processes.into(),
            defaults.max_processes.into(),
        ),
        (
            "max_reply_bytes",
            limits.max_reply_bytes as u64,
            defaults.max_reply_bytes as u64,
        ),
    ];
    let cpus = (limits.cpu_millis).map(|millis| format!("cpus = {}\n", f64::from(millis) / 1000.0));
    (keys.iter())
        .filter(|(_, value, default)| value != default)
        .map(|(key, value, _)| format!("{key} = {value}\n"))
        .chain(cpus)
        .collect()
}

/// The tournament file of a match of `bots` at `game` with `settings`, started in `dir`
/// (the folder their commands are relative to): all that decides the match's games, so
/// that the file alone plays or resumes it.
pub fn tournament_text(
    game: GameKind,
    bots: &[MatchBot],
    settings: &MatchSettings,
    dir: &Path,
) -> String {
    let MatchSettings {
        games,
        seed,
        timeout_ms,
        options,
        limits,
    } = settings;
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
    if let Some(timeout_ms) = timeout_ms {
        text += &format!("timeout_ms = {timeout_ms}\n");
    }
    // A TOML integer is an i64: a larger seed stays on the command line (the run's
    // resume command gives it again).
    if let Some(seed) = seed.filter(|&seed| i64::try_from(seed).is_ok()) {
        text += &format!("seed = {seed}\n");
    }
    text += &limit_lines(limits);
    if !options.is_empty() {
        // The file is kept in the results folder: a data file named relative to where the
        // match was started is written as an absolute path.
        let data_file = game.default_options().data_file_option();
        text += "\n[options]\n";
        for option in options {
            let value = match &option.value {
                toml::Value::String(path) if Some(option.key.as_str()) == data_file => {
                    toml::Value::String(dir.join(path).to_string_lossy().into_owned())
                }
                value => value.clone(),
            };
            let key = option.key.clone();
            text += &format!("{}\n", MatchOption { key, value });
        }
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

    /// A match with these options, and the rest as the game has it.
    fn with_options(options: &[MatchOption]) -> MatchSettings {
        MatchSettings {
            options: options.to_vec(),
            ..MatchSettings::default()
        }
    }

    /// A bot of the command line `command`.
    fn command_bot(name: &str, command: &str) -> MatchBot {
        MatchBot {
            name: name.into(),
            program: MatchProgram::Command(command.into()),
        }
    }

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
        let text = tournament_text(
            GameKind::AlienWar,
            &[bot],
            &MatchSettings::default(),
            dir.path(),
        );
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
            command_bot("quote \" and \\ back", "/bin/sh -c 'echo 5 6 1 LOOP'"),
            command_bot("b", "/bin/true"),
        ];
        let file = dir.path().join(MATCH_FILE);
        let settings = MatchSettings {
            games: Some(3),
            seed: Some(7),
            timeout_ms: Some(250),
            options: Vec::new(),
            limits: LimitSettings {
                memory_mb: 1000,
                cpu_seconds: 0,
                max_processes: 5,
                cpu_millis: Some(1500),
                max_reply_bytes: i64::MAX as usize,
            },
        };
        let text = tournament_text(GameKind::Petri, &bots, &settings, dir.path());
        let tournament = Tournament::from_toml_str(&text, &file).unwrap();
        assert_eq!(tournament.kind(), GameKind::Petri);
        assert_eq!(tournament.limits.max_reply_bytes, i64::MAX as usize);
        let program = &tournament.bots[0].program;
        assert_eq!(program.rlimits.memory_bytes, Some(1000 << 20));
        assert_eq!(program.rlimits.cpu_seconds, None);
        assert_eq!(program.sandbox.as_ref().unwrap().max_processes, 5);
        assert_eq!(program.sandbox.as_ref().unwrap().cpu_millis, Some(1500));
        assert_eq!(tournament.games, 3);
        assert_eq!(tournament.seed, 7);
        assert_eq!(
            tournament.timeouts.request,
            std::time::Duration::from_millis(250)
        );
        let settings = MatchSettings {
            seed: Some(u64::MAX),
            ..MatchSettings::default()
        };
        let text = tournament_text(GameKind::Petri, &bots, &settings, dir.path());
        assert!(Tournament::from_toml_str(&text, &file).is_ok(), "{text}");
        // The defaults are the file's: not written.
        assert!(
            !text.contains("memory_mb")
                && !text.contains("max_processes")
                && !text.contains("cpus"),
            "{text}"
        );
        let names: Vec<&str> = tournament.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["quote \" and \\ back", "b"]);
    }

    #[test]
    fn options_are_toml_values_or_words_and_go_into_the_files_options_table() {
        let value = |text: &str| parse_option(text).unwrap().value;
        assert_eq!(value("rounds=200"), toml::Value::Integer(200));
        assert_eq!(
            value("dead_resident_reward = false"),
            toml::Value::Boolean(false)
        );
        assert_eq!(
            value("rules=\"petri.js\""),
            toml::Value::String("petri.js".into())
        );
        assert_eq!(
            value("rules=petri.js"),
            toml::Value::String("petri.js".into())
        );
        assert_eq!(
            value("confusion=one-move"),
            toml::Value::String("one-move".into())
        );
        for bad in ["rounds", "=3", "a b=1", "density..gold=1", "x\"=1"] {
            assert!(parse_option(bad).is_err(), "{bad}");
        }
        let dir = tempfile::tempdir().unwrap();
        let bots = [command_bot("a", "/bin/true"), command_bot("b", "/bin/true")];
        let options = ["width=12", "rules=petri.js"].map(|o| parse_option(o).unwrap());
        let file = dir.path().join(MATCH_FILE);
        let text = tournament_text(GameKind::Petri, &bots, &with_options(&options), dir.path());
        let tournament = Tournament::from_toml_str(&text, &file).unwrap();
        let shown = format!("{:?}", tournament.options);
        assert!(shown.contains("width: 12"), "{shown}");
        assert!(shown.contains("PetriJs"), "{shown}");
        let cave = [parse_option("density.gold=300").unwrap()];
        let text = tournament_text(GameKind::Cave, &bots, &with_options(&cave), dir.path());
        assert!(text.contains("[options]\ndensity.gold = 300\n"), "{text}");
        assert!(Tournament::from_toml_str(&text, &file).is_ok(), "{text}");
        // A data file named where the match starts is found from the file in the results
        // folder.
        let eggs = [parse_option("map=board.txt").unwrap()];
        let text = tournament_text(GameKind::Eggs, &bots, &with_options(&eggs), dir.path());
        let map = dir.path().join("board.txt");
        assert!(
            text.contains(&format!("map = {:?}", map.to_str().unwrap())),
            "{text}"
        );
        let unknown = [parse_option("colour=red").unwrap()];
        let text = tournament_text(GameKind::Petri, &bots, &with_options(&unknown), dir.path());
        assert!(Tournament::from_toml_str(&text, &file).is_err(), "{text}");
    }
}
