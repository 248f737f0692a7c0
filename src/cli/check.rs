//! `arena check`: a bot's replies to the game's prepared positions, shown byte for byte.
//! One bot from the command line, or every bot of a tournament file as that file runs it
//! (its folders, limits, time limits and sandbox), so that a host can check the entries
//! before the tournament.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use crate::app::write_stdout;
use crate::args::CheckArgs;
use arena::bots::{BotProgram, Limits, preflight};
use arena::check::{ProbeReport, check_bot, render_check};
use arena::config::{Timeouts, Tournament, standalone_bot, standalone_java_bot};
use arena::errors::{EXIT_OK, EXIT_STRICT, Error};
use arena::folders::held_after_game;
use arena::sandbox::{Enforced, check_support};
use arena::text::{escape_control, shell_word};
use arena_games::{GameKind, GameOptions, OptionsParser};
use serde::de::DeserializeOwned;

use crate::quick_match::MatchOption;

/// Checks the bot the command line gives, or every bot of `--tournament`.
pub fn check_command(args: &CheckArgs) -> Result<u8, Error> {
    if let Some(file) = &args.tournament {
        return check_tournament(file, args);
    }
    let Some(game) = args.game else {
        return Err(Error::Usage(
            "arena check needs a GAME, or --tournament FILE".to_owned(),
        ));
    };
    if !args.selection.selection().is_all() {
        return Err(Error::Usage(
            "--bots/--exclude choose among the bots of --tournament FILE".to_owned(),
        ));
    }
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().context("cannot read the current folder")?,
    };
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "--dir {}: not a folder",
            dir.display()
        )));
    }
    // Canonical, as a tournament file's folders are (see `config`).
    let dir = dir.canonicalize().unwrap_or(dir);
    let (mut program, limits) = if args.java.is_empty() {
        standalone_bot(&args.command, &dir, args.limits.settings())
    } else {
        let sources: Vec<PathBuf> = args
            .java
            .iter()
            .map(|source| std::path::absolute(source).unwrap_or_else(|_| source.clone()))
            .collect();
        standalone_java_bot(game, &sources, &dir, args.limits.settings())
    }
    .map_err(Error::Usage)?;
    if let Some(why) = preflight::problem(&program) {
        return Err(Error::Usage(why));
    }
    let enforced = if args.no_sandbox {
        program.sandbox = None;
        None
    } else {
        Some(check_support(program.cpu_quota()).map_err(Error::Usage)?)
    };
    let timeouts = Timeouts::for_game(
        game,
        args.timeout_ms.map(Duration::from_millis),
        Duration::from_millis(args.setup_timeout_ms),
    );
    let command = if args.java.is_empty() {
        command_line(args.command.iter().map(String::as_str))
    } else {
        let sources: Vec<String> = args.java.iter().map(|s| s.display().to_string()).collect();
        format!("--java {}", sources.join(" "))
    };
    let options = game_options(game, &args.options)?;
    let shown: Vec<String> = (args.options.iter()).map(MatchOption::to_string).collect();
    let bot = Checked {
        command: &command,
        java: !args.java.is_empty(),
        program,
        limits: &limits,
        timeouts,
    };
    let game = (&options, (!shown.is_empty()).then(|| shown.join(", ")));
    let (text, valid) = check_one(game, bot, enforced.as_ref(), &runtime()?)?;
    write_stdout(&text)?;
    Ok(if valid { EXIT_OK } else { EXIT_STRICT })
}

/// `kind`'s options with each `--option` set, as a tournament file's `[options]` table would
/// set them.
fn game_options(kind: GameKind, given: &[MatchOption]) -> Result<GameOptions, Error> {
    let text: String = (given.iter()).map(|option| format!("{option}\n")).collect();
    let invalid = |why: String| Error::Usage(format!("--option: {why}"));
    let table: toml::Table = text.parse().map_err(|error| invalid(format!("{error}")))?;
    let options = kind
        .parse_options(&mut FromTable(table))
        .map_err(|error| invalid(error.message().to_owned()))?;
    let problems = options.validate();
    if !problems.is_empty() {
        return Err(invalid(problems.join("; ")));
    }
    Ok(options)
}

/// A game's options from the `[options]` table `--option` makes.
struct FromTable(toml::Table);

impl OptionsParser for FromTable {
    type Error = toml::de::Error;

    fn parse<T: DeserializeOwned + Default>(&mut self) -> Result<T, toml::de::Error> {
        toml::Value::Table(self.0.clone()).try_into()
    }
}

/// One bot to check and what it runs under.
struct Checked<'a> {
    /// How the report names it.
    command: &'a str,
    /// Whether it is a Java alien that arena's Java host runs.
    java: bool,
    program: BotProgram,
    limits: &'a Limits,
    timeouts: Timeouts,
}

/// `words` as a POSIX shell would take them back, for the report's first line.
fn command_line<'a>(words: impl Iterator<Item = &'a str>) -> String {
    words.map(shell_word).collect::<Vec<_>>().join(" ")
}

/// The runtime the checks' requests run on, one for all the bots checked.
fn runtime() -> Result<tokio::runtime::Runtime, Error> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?)
}

/// Checks `bot` at the game of `options` (with how the report names them, if they are not
/// the game's defaults) on `runtime`, in the sandbox `enforced` if its program has one; its
/// report, and whether every reply was valid.
fn check_one(
    (options, shown): (&GameOptions, Option<String>),
    mut bot: Checked<'_>,
    enforced: Option<&Enforced>,
    runtime: &tokio::runtime::Runtime,
) -> Result<(String, bool), Error> {
    // A game that gives each bot a private folder (Cave Rangers) gets one for the check too,
    // removed after it: the bot runs there as in a tournament, and may write there.
    let game = options.kind();
    let private = if game.private_folders() {
        let folder = tempfile::Builder::new()
            .prefix("arena-check-")
            .tempdir()
            .context("cannot create the bot's private folder")?;
        let folder_path = folder
            .path()
            .canonicalize()
            .context("cannot locate the bot's private folder")?;
        if bot.program.sandbox.is_some() {
            arena::folders::give_to_sandbox_user(&folder_path)?;
        }
        bot.program = bot.program.run_in(&folder_path);
        Some(folder)
    } else {
        None
    };
    let (reports, emptied) =
        runtime.block_on(check_bot(options, &bot.program, bot.limits, bot.timeouts));
    let left = match &private {
        Some(_) => Some(held_after_game(&bot.program.dir, &emptied)?),
        None => None,
    };
    // The box of a bot with `network = true` keeps the machine's network.
    let enforced = (enforced.zip(bot.program.sandbox.as_ref())).map(|(enforced, spec)| Enforced {
        own_network: !spec.network,
        ..enforced.clone()
    });
    let text = render_check(
        (game.name(), shown.as_deref()),
        bot.command,
        bot.java,
        &bot.program,
        (enforced.as_ref(), bot.limits.max_reply_bytes),
        &reports,
        left.as_ref(),
    );
    if let Some(folder) = private {
        // Emptied by descriptors first: no tree the bot made, however deep, is left behind.
        arena::folder_bounds::empty(folder.path())
            .with_context(|| format!("cannot empty {}", folder.path().display()))?;
    }
    Ok((text, reports.iter().all(ProbeReport::is_valid)))
}

/// Checks every bot of the tournament in `file` (those `--bots`/`--exclude` keep) as the
/// file runs it, one report after another, then a line per bot.
fn check_tournament(file: &Path, args: &CheckArgs) -> Result<u8, Error> {
    let selection = args.selection.selection();
    let mut tournament = Tournament::load_to_check(file, &selection)?;
    if tournament.bots.is_empty() {
        return Err(Error::Usage(format!(
            "--bots/--exclude keep no bot of {}: nothing to check",
            escape_control(&file.display().to_string())
        )));
    }
    if args.no_sandbox {
        for bot in &mut tournament.bots {
            bot.program.sandbox = None;
        }
    }
    tournament.unstartable_bots()?;
    let sandboxed = (tournament.bots.iter()).any(|bot| bot.program.sandbox.is_some());
    let enforced = if sandboxed {
        Some(check_support(tournament.widest_cpu_quota()).map_err(Error::Usage)?)
    } else {
        None
    };
    let shown = (tournament.options != tournament.kind().default_options())
        .then(|| format!("those of {}", escape_control(&file.display().to_string())));
    let runtime = runtime()?;
    let mut verdicts = Vec::new();
    for bot in &tournament.bots {
        let program = &bot.program;
        // A Java alien by its class, not by the JVM's long command line.
        let command = match &bot.java {
            Some(build) => format!(
                "{}, compiled in {}",
                build.class_name,
                build.classes.display()
            ),
            None => {
                let path = program.program.to_string_lossy();
                command_line(std::iter::once(&*path).chain(program.args.iter().map(String::as_str)))
            }
        };
        let checked = Checked {
            command: &command,
            java: bot.java.is_some(),
            program: program.clone(),
            limits: &tournament.limits,
            timeouts: tournament.timeouts,
        };
        let game = (&tournament.options, shown.clone());
        let (text, valid) = check_one(game, checked, enforced.as_ref(), &runtime)?;
        let name = escape_control(&bot.name);
        write_stdout(&format!("bot {name}\n{text}\n"))?;
        verdicts.push((name.into_owned(), valid));
    }
    let mut summary = String::new();
    for (name, valid) in &verdicts {
        let verdict = if *valid {
            "every reply valid"
        } else {
            "INVALID replies (see its report above)"
        };
        summary += &format!("{name}: {verdict}\n");
    }
    write_stdout(&summary)?;
    Ok(if verdicts.iter().all(|(_, valid)| *valid) {
        EXIT_OK
    } else {
        EXIT_STRICT
    })
}
