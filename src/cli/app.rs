//! The subcommands: glue between the command line, the library and stdout.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context;

use crate::args::{
    Cli, Command, LogFormat, ManArgs, MatchArgs, MergeArgs, NewArgs, OutputFormat, ReplayArgs,
    ReportArgs, RunArgs, SelectionArgs, StandingsArgs,
};
use crate::quick_match::{MATCH_FILE, MatchSettings, tournament_text};
use crate::templates;
use arena::bots::{BotProgram, preflight};
use arena::config::Tournament;
use arena::errors::{EXIT_OK, EXIT_SPRT_H0, EXIT_SPRT_UNDECIDED, EXIT_STRICT, EXIT_USAGE, Error};
use arena::journal::{Header, JOURNAL_FILE, Journal, JournalError, JournalReader};
use arena::merge::merge_paths;
use arena::progress;
use arena::replay::Replay;
use arena::replay::html::render_html;
use arena::replay::text::{TextOptions, missing_turn, write_text};
use arena::report::{
    Leaderboard, LeaderboardBuilder, render_csv, render_json, render_markdown, render_table,
    write_page,
};
use arena::results::{LEADERBOARD_FILE, REPLAYS_DIR, ResultsFolder, Start, write_atomically};
use arena::reuse::{ReusePool, rules_digest};
use arena::run::{RunOptions, RunReport, run_tournament};
use arena::sandbox::check_support;
use arena::selection::Selection;
use arena::signals::Signals;
use arena::sprt::{Sprt, SprtBounds, Verdict};
use arena::summary::FailureLimits;
use arena::text::{escape_control, plural, shell_word};
use arena_games::GameKind;

/// Runs the command line's subcommand and returns the process exit status.
pub fn run(cli: Cli) -> Result<u8, Error> {
    // The live bar only on a terminal that shows text: JSON lines would break it.
    let bar_fits = std::io::stderr().is_terminal() && cli.log_format == LogFormat::Text;
    let progress = progress::Style::choose(cli.quiet, cli.verbose > 0, bar_fits);
    match cli.command {
        Command::Run(args) => run_command(args, progress),
        Command::Match(args) => match_command(args, progress),
        Command::Standings(args) => standings_command(&args),
        Command::Replay(args) => replay_command(&args),
        Command::Merge(args) => merge_command(&args),
        Command::Check(args) => crate::check::check_command(&args),
        Command::New(args) => new_command(&args),
        Command::Report(args) => report_command(&args),
        Command::Completions(args) => {
            write_stdout(&crate::packaging::completions(args.shell))?;
            Ok(EXIT_OK)
        }
        Command::Man(args) => man_command(&args),
    }
}

fn man_command(args: &ManArgs) -> Result<u8, Error> {
    match &args.out {
        Some(dir) => {
            for path in crate::packaging::write_manual_pages(dir)? {
                tracing::info!("wrote {}", path.display());
            }
        }
        None => write_stdout(&crate::packaging::manual_page()?)?,
    }
    Ok(EXIT_OK)
}

fn new_command(args: &NewArgs) -> Result<u8, Error> {
    let written = templates::write(args.game, args.lang, &args.dir)?;
    let mut text = String::new();
    for path in &written {
        let path = path.display().to_string();
        text.push_str(&format!("wrote {}\n", escape_control(&path)));
    }
    text.push_str(&templates::next_steps(
        args.game, args.lang, &args.dir, &written,
    ));
    write_stdout(&text)?;
    Ok(EXIT_OK)
}

fn run_command(args: RunArgs, progress: progress::Style) -> Result<u8, Error> {
    let tournament = load(&args.file, &args.selection.selection())?;
    play(tournament, args, progress, None)
}

/// The tournament in `file` of the bots `selection` keeps.
pub(crate) fn load(file: &Path, selection: &Selection) -> Result<Tournament, Error> {
    Ok(Tournament::load_selected(file, selection)?)
}

/// `arena match`: the tournament of its `--bot`s, played as `arena run` of its text would,
/// and that text kept as the results folder's [`MATCH_FILE`].
fn match_command(args: MatchArgs, progress: progress::Style) -> Result<u8, Error> {
    let here = std::env::current_dir().context("cannot read the current folder")?;
    let out = args
        .out
        .unwrap_or_else(|| default_results_dir(Path::new(&format!("{}-match", args.game))));
    let settings = MatchSettings {
        games: args.games,
        seed: args.seed,
        timeout_ms: args.timeout_ms,
        options: args.options.clone(),
        limits: args.limits.settings(),
    };
    let text = tournament_text(args.game, &args.bots, &settings, &here);
    let file = out.join(MATCH_FILE);
    // No file yet to point into: the problems are the command line's, and too few bots are
    // too few `--bot`s.
    let defaults = args.game.default_options();
    let (fewest, fewer) = (defaults.min_bots(), defaults.fewer_bots());
    let too_few = arena::config::too_few_bots(args.game, fewest, args.bots.len(), fewer);
    let or = fewer.map_or_else(String::new, |(key, value)| {
        format!(", or --option {key}={value} to play fewer")
    });
    // Every bot will start, as `play` starts them: its programs are checked with the
    // file, so that a script that is not there is said with the command line's other
    // mistakes, in one run (and `play`'s own check then finds nothing more).
    let startable = |program: &BotProgram| {
        if args.no_sandbox {
            preflight::problem(&program.without_sandbox())
        } else {
            preflight::problem(program)
        }
    };
    let tournament = Tournament::with_startable(&text, &file, &startable).map_err(|error| {
        let problems: Vec<String> = error
            .problems
            .iter()
            .map(|problem| match &problem.message {
                message if *message == too_few && problem.details.is_empty() => format!(
                    "arena match: {} needs at least {fewest} bots, {} given (one --bot \
                     NAME=COMMAND each{or})",
                    args.game,
                    args.bots.len()
                ),
                _ => format!("arena match: {problem}"),
            })
            .collect();
        Error::Usage(problems.join("\n"))
    })?;
    let args = RunArgs {
        file,
        // The file has them (the seed too if TOML can hold it).
        games: None,
        seed: args.seed,
        jobs: args.jobs,
        out: Some(out),
        resume: None,
        strict: args.strict,
        format: args.format,
        shard: None,
        gauntlet: None,
        sprt: args.sprt,
        replays: args.replays,
        log_io: None,
        reuse: Vec::new(),
        selection: SelectionArgs::default(),
        no_sandbox: args.no_sandbox,
    };
    play(tournament, args, progress, Some(&text))
}

/// Plays `tournament` as `args` say. With `keep`, a tournament made on the command line:
/// its text is written to `args.file` once the results folder is this run's.
fn play(
    mut tournament: Tournament,
    args: RunArgs,
    progress: progress::Style,
    keep: Option<&str>,
) -> Result<u8, Error> {
    apply_overrides(&mut tournament, &args);
    enough_bots(&tournament)?;
    // Before the results folder is made: a refused gauntlet or test leaves nothing behind.
    let names: Vec<String> = tournament.bots.iter().map(|b| b.name.clone()).collect();
    if let Some(bot) = &args.gauntlet {
        arena::run::gauntlet_bot(&names, bot, tournament.options.pairing())?;
    }
    let sprt = match args.sprt {
        None => None,
        Some(bounds) => Some(sprt_of(
            &tournament,
            &names,
            args.gauntlet.as_deref(),
            bounds,
        )?),
    };
    if let Some(dir) = &args.log_io {
        writable_folder(dir)
            .map_err(|error| Error::Usage(format!("--log-io {}: {error}", dir.display())))?;
    }
    tournament.unstartable_bots()?;
    if tournament
        .bots
        .iter()
        .any(|bot| bot.program.sandbox.is_some())
    {
        let enforced = check_support(tournament.widest_cpu_quota()).map_err(Error::Usage)?;
        tracing::debug!("sandbox: {enforced:?}");
    }
    let (out, start) = match (&args.resume, &args.out) {
        (Some(dir), _) => (dir.clone(), Start::Resume),
        (None, Some(dir)) => (dir.clone(), Start::Fresh),
        (None, None) => (default_results_dir(&args.file), Start::Fresh),
    };
    let reuse = if args.reuse.is_empty() {
        ReusePool::default()
    } else if tournament.kind().private_folders() {
        return Err(Error::Usage(format!(
            "--reuse: a {} game depends on what its bots kept in their private folders from \
             the games before it, so no game of an earlier run can stand for it",
            tournament.kind()
        )));
    } else {
        ReusePool::gather(
            &args.reuse,
            tournament.kind().name(),
            &rules_digest(&tournament),
        )?
    };
    let options = RunOptions {
        shard: args.shard,
        gauntlet: args.gauntlet.clone(),
        sprt,
        replays: args.replays,
        io_log: args.log_io.clone(),
        reuse,
        progress,
    };
    let folder = ResultsFolder::claim(&out, start)?;
    if let Some(text) = keep {
        write_atomically(&args.file, text.as_bytes())
            .with_context(|| format!("cannot write {}", args.file.display()))?;
    }
    let (signals, cancel) = Signals::watch()?;
    let report = run_tournament(&tournament, &folder, options, &cancel);
    signals.games_over();
    let report = report?;
    let (board, _) = standings(&report.journal, Reading::Strict)?;
    if report.interrupted.is_none() {
        let path = out.join(LEADERBOARD_FILE);
        write_atomically(&path, render_json(&board).as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    // After the files, and before its failure ends the run: a stdout that cannot take the
    // leaderboard (a full disk) leaves the results written and the warnings said.
    let printed = print(&board, args.format);
    let limits = FailureLimits {
        timeouts: tournament.timeouts,
        max_reply_bytes: tournament.limits.max_reply_bytes,
    };
    let status = end_of_run(&board, &report, limits, &args, &out);
    printed?;
    Ok(status)
}

/// Says on stderr what the end of a run calls for (bots that failed often, how to finish a
/// stopped run, the SPRT verdict, `--strict`'s failures) and returns the run's exit status.
fn end_of_run(
    board: &Leaderboard,
    report: &RunReport,
    limits: FailureLimits,
    args: &RunArgs,
    out: &Path,
) -> u8 {
    warn_of_failing_bots(board, report, limits);
    if let Some(stop) = report.interrupted {
        // Not a log line: `-q` must not hide how to finish the run.
        arena::notice::always(
            arena::notice::Level::Info,
            &format!(
                "stopped by {} after {} of {}; to finish the run: {}",
                stop.name(),
                board.games_played,
                plural(board.planned_games(), "game", "games"),
                resume_command(args, out)
            ),
        );
        return stop.exit_code();
    }
    if let Some(status) = &board.sprt {
        tracing::info!("SPRT: {}", status.line());
    }
    if args.strict {
        let failing: Vec<String> = board
            .leaderboard
            .iter()
            .filter(|s| s.timeouts + s.crashes + s.invalid_replies > 0)
            .map(|s| {
                format!(
                    "{}: {}, {}, {}",
                    s.name,
                    plural(s.timeouts, "timeout", "timeouts"),
                    plural(s.crashes, "crash", "crashes"),
                    plural(s.invalid_replies, "invalid reply", "invalid replies")
                )
            })
            .collect();
        if !failing.is_empty() {
            for line in &failing {
                tracing::error!("strict: {line}");
            }
            return EXIT_STRICT;
        }
    }
    match board.sprt.as_ref().map(|status| status.verdict) {
        None | Some(Some(Verdict::H1)) => EXIT_OK,
        Some(Some(Verdict::H0)) => EXIT_SPRT_H0,
        Some(None) => EXIT_SPRT_UNDECIDED,
    }
}

/// Makes `dir` if needed and checks that a file can be written in it, so that a run whose
/// `--log-io` would log nothing (a read-only or impossible path) does not start.
fn writable_folder(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".arena-probe-{}", std::process::id()));
    std::fs::File::create_new(&probe)?;
    std::fs::remove_file(probe)
}

/// The test `--sprt` asks for in `tournament` of the bots `names`: of the `--gauntlet` bot
/// if given, else of the first, against the other; or why it cannot be run.
fn sprt_of(
    tournament: &Tournament,
    names: &[String],
    gauntlet: Option<&str>,
    bounds: SprtBounds,
) -> Result<Sprt, Error> {
    if tournament.options.pairing() != arena_games::Pairing::HeadToHead {
        return Err(Error::Usage(format!(
            "--sprt: {} is no game of two bots; the test compares two",
            tournament.kind()
        )));
    }
    if names.len() != 2 {
        return Err(Error::Usage(format!(
            "--sprt: the test compares two bots, and the tournament has {} ({}); choose two \
             with --bots",
            names.len(),
            names.join(", ")
        )));
    }
    if tournament.games % 2 == 1 {
        return Err(Error::Usage(format!(
            "--sprt: games come in pairs (the sides swapped), so `games` must be even, not {}",
            tournament.games
        )));
    }
    let candidate = gauntlet.unwrap_or(&names[0]).to_owned();
    let other = names.iter().find(|name| **name != candidate);
    // `--bots b,a` keeps the file's order: which bot is tested must not be a guess.
    tracing::info!(
        "--sprt: the candidate is {candidate}, tested against {} ({})",
        other.map_or("", String::as_str),
        if gauntlet.is_some() {
            "the --gauntlet bot"
        } else {
            "the first of the two in the file's order; --gauntlet NAME chooses"
        }
    );
    Ok(Sprt::new(candidate, bounds))
}

/// Prints a paragraph per bot that failed often ([`arena::summary`]) on stderr. Not log
/// lines: `-q` must not hide a bot that never worked.
fn warn_of_failing_bots(board: &Leaderboard, report: &RunReport, limits: FailureLimits) {
    let bots = arena::summary::failing_bots(board, &report.evidence, limits);
    for paragraph in bots {
        arena::notice::always(arena::notice::Level::Warning, &paragraph);
    }
}

/// The command that continues an interrupted run with the same settings.
fn resume_command(args: &RunArgs, out: &Path) -> String {
    let mut words = vec![
        "arena run".to_owned(),
        shell_word(&args.file.display().to_string()),
        "--resume".to_owned(),
        shell_word(&out.display().to_string()),
    ];
    if let Some(games) = args.games {
        words.push(format!("--games {games}"));
    }
    if let Some(seed) = args.seed {
        words.push(format!("--seed {seed}"));
    }
    if let Some(shard) = args.shard {
        words.push(format!("--shard {shard}"));
    }
    if let Some(bot) = &args.gauntlet {
        words.push(format!("--gauntlet {}", shell_word(bot)));
    }
    if let Some(bounds) = &args.sprt {
        words.push(format!("--sprt {bounds}"));
    }
    if args.replays {
        words.push("--replays".to_owned());
    }
    if let Some(dir) = &args.log_io {
        words.push(format!(
            "--log-io {}",
            shell_word(&dir.display().to_string())
        ));
    }
    if args.no_sandbox {
        words.push("--no-sandbox".to_owned());
    }
    for dir in &args.reuse {
        words.push(format!(
            "--reuse {}",
            shell_word(&dir.display().to_string())
        ));
    }
    words.extend(args.selection.selection().words());
    words.join(" ")
}

/// Command-line values win over the tournament file's.
fn apply_overrides(tournament: &mut Tournament, args: &RunArgs) {
    if let Some(games) = args.games {
        tournament.games = games;
    }
    if let Some(seed) = args.seed {
        tournament.seed = seed;
    }
    if let Some(jobs) = args.jobs {
        tournament.jobs = jobs;
    }
    if args.no_sandbox {
        for bot in &mut tournament.bots {
            bot.program = bot.program.without_sandbox();
        }
    }
}

/// Refuses a tournament that `--bots`/`--exclude` left with fewer bots than a game needs.
fn enough_bots(tournament: &Tournament) -> Result<(), Error> {
    let fewest = tournament.options.min_bots();
    if tournament.bots.len() < fewest {
        return Err(Error::Usage(format!(
            "--bots/--exclude keep {}; a {} tournament needs at least {fewest}",
            arena::text::plural(tournament.bots.len() as u64, "bot", "bots"),
            tournament.kind()
        )));
    }
    Ok(())
}

/// Prints the standings of a journal; a journal with lines that are not its tournament's
/// games still gets the standings of the others, and exit status 2.
fn standings_command(args: &StandingsArgs) -> Result<u8, Error> {
    let journal = arena::merge::journal_path(&args.journal);
    let selection = args.selection.selection();
    let (board, left_out) = standings_of(&journal, Reading::SkipBadLines, &selection)?;
    print(&board, args.format)?;
    Ok(if left_out == 0 { EXIT_OK } else { EXIT_USAGE })
}

/// What `arena replay` says of a folder given for a replay file: a replay is one game's
/// file, and a results folder keeps them in `replays/`; the first few are named.
fn folder_for_a_replay(folder: &Path) -> String {
    let replays = [folder.join(REPLAYS_DIR), folder.to_path_buf()]
        .into_iter()
        .find_map(|dir| {
            let mut names: Vec<String> = std::fs::read_dir(&dir)
                .ok()?
                .flatten()
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with("game-") && name.ends_with(".jsonl"))
                .collect();
            names.sort_by_key(|name| {
                let number = name.trim_start_matches("game-").trim_end_matches(".jsonl");
                number.parse::<u64>().unwrap_or(u64::MAX)
            });
            let first = names.first()?;
            let first = dir.join(first).display().to_string();
            Some(format!(
                "; it has {}, the first: `arena replay {}`",
                arena::text::plural(names.len() as u64, "replay", "replays"),
                escape_control(&shell_word(&first))
            ))
        });
    format!(
        "{} is a folder: a replay is one game's file, `replays/game-<index>.jsonl` in a \
         results folder of a run with --replays{}",
        escape_control(&folder.display().to_string()),
        replays.unwrap_or_default()
    )
}

fn replay_command(args: &ReplayArgs) -> Result<u8, Error> {
    if args.file.is_dir() {
        return Err(Error::Usage(folder_for_a_replay(&args.file)));
    }
    if let Some(page) = &args.html {
        refuse_to_replace(page, [args.file.clone()])?;
    }
    let replay = Replay::read(&args.file)?;
    match &args.html {
        Some(path) => {
            write_atomically(path, render_html(&replay).as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            tracing::info!("wrote {}", path.display());
        }
        None => {
            if let Some(why) = args.turn.and_then(|turn| missing_turn(&replay, turn)) {
                return Err(Error::Usage(why));
            }
            let options = TextOptions {
                turn: args.turn,
                every: args.every,
                messages: args.messages,
            };
            to_stdout(|stdout| write_text(stdout, &replay, options))?;
        }
    }
    Ok(EXIT_OK)
}

/// Merges the shards' journals, writes the merged journal and leaderboard to `--out`, and
/// prints the leaderboard.
fn merge_command(args: &MergeArgs) -> Result<u8, Error> {
    let journal = merge_paths(&args.dirs)?;
    let board = leaderboard(&journal)?;
    if let Some(out) = &args.out {
        // A merge is never continued: the fresh run's hint to resume would mislead.
        if out.join(JOURNAL_FILE).exists() {
            return Err(Error::Usage(format!(
                "{} already holds a journal: give --out a new folder for the merged results",
                escape_control(&out.display().to_string())
            )));
        }
        let folder = ResultsFolder::claim(out, Start::Fresh)?;
        for (name, bytes) in [
            (JOURNAL_FILE, journal.to_jsonl()),
            (LEADERBOARD_FILE, render_json(&board).into_bytes()),
        ] {
            let path = folder.path().join(name);
            write_atomically(&path, &bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    print(&board, args.format)?;
    Ok(EXIT_OK)
}

/// What a leaderboard does with a journal line that is not one of the tournament's games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Refuse the journal: it is this run's own.
    Strict,
    /// Leave the line out with a warning: `arena standings` shows what the valid lines give.
    SkipBadLines,
}

/// Computes the leaderboard of a journal as it reads it, one game at a time: its memory does
/// not grow with the games (BENCHMARKS.md, figure f). Also returns how many lines it left
/// out.
fn standings(journal: &Path, reading: Reading) -> Result<(Leaderboard, u64), Error> {
    standings_of(journal, reading, &Selection::default())
}

/// [`standings`] of the games among the `selection`'s bots only, as the leaderboard of a
/// tournament of those bots.
fn standings_of(
    journal: &Path,
    reading: Reading,
    selection: &Selection,
) -> Result<(Leaderboard, u64), Error> {
    let reader = JournalReader::open(journal)?;
    let kind = game_kind(reader.header())?;
    let mut header = reader.header().clone();
    if !selection.is_all() {
        let format = header.pairing().map_err(Error::Usage)?;
        if format == arena_games::Pairing::FreeForAll {
            return Err(Error::Usage(format!(
                "--bots/--exclude: every {kind} game has every bot, so no game is among some \
                 of them only"
            )));
        }
        let kept = selection.apply(&header.bots).map_err(Error::Usage)?;
        header.bots = kept.iter().map(|&i| header.bots[i].clone()).collect();
        // Else the standings of no game, every bot ranked first, would look like a result.
        let seats = format.min_bots();
        if header.bots.len() < seats {
            return Err(Error::Usage(format!(
                "--bots/--exclude keep {} ({}); every {kind} game has {seats} bots, so no \
                 game is among them only",
                arena::text::plural(header.bots.len() as u64, "bot", "bots"),
                escape_control(&header.bots.join(", "))
            )));
        }
        header.total_games = arena::schedule::fixture_count(format, kept.len(), header.games);
    }
    // Looked up by name: a journal of 10,000 bots has 200,000 games. Every game is among
    // all the bots.
    let selected: Option<std::collections::HashSet<&str>> =
        (!selection.is_all()).then(|| header.bots.iter().map(String::as_str).collect());
    let among = |game: &arena::journal::GameRecord| {
        selected.as_ref().is_none_or(|selected| {
            game.seats
                .iter()
                .filter(|seat| !seat.built_in)
                .all(|seat| selected.contains(seat.bot.as_str()))
        })
    };
    let mut builder = LeaderboardBuilder::new(kind.scoring(), kind.stat_columns(), header.clone());
    let mut left_out = 0_u64;
    for game in reader {
        match game {
            Ok(game) if !among(&game) => {}
            Ok(game) => builder.add(&game),
            Err(error @ (JournalError::Corrupt { .. } | JournalError::Invalid { .. }))
                if reading == Reading::SkipBadLines =>
            {
                tracing::warn!("{error}");
                left_out += 1;
            }
            Err(error) => return Err(error.into()),
        }
    }
    if left_out > 0 {
        // Not a log line: with `-q` too, the exit status it gives needs a reason.
        arena::notice::always(
            arena::notice::Level::Warning,
            &format!(
                "{} of {} {}; the standings leave {} out (each is named above with why, unless -q)",
                arena::text::plural(left_out, "line", "lines"),
                journal.display(),
                if left_out == 1 {
                    "is not a game of its tournament"
                } else {
                    "are not games of its tournament"
                },
                if left_out == 1 { "it" } else { "them" }
            ),
        );
    }
    Ok((builder.finish(), left_out))
}

/// The leaderboard of a journal merged in memory.
fn leaderboard(journal: &Journal) -> Result<Leaderboard, Error> {
    let kind = game_kind(&journal.header)?;
    Ok(Leaderboard::compute(
        kind.scoring(),
        kind.stat_columns(),
        journal,
    ))
}

/// The game a journal is for.
fn game_kind(header: &Header) -> Result<GameKind, Error> {
    Ok(GameKind::from_name(&header.game)
        .with_context(|| format!("the journal is for an unknown game `{}`", header.game))?)
}

fn print(board: &Leaderboard, format: OutputFormat) -> Result<(), Error> {
    let text = match format {
        OutputFormat::Table => render_table(board),
        OutputFormat::Json => render_json(board),
        OutputFormat::Csv => render_csv(board),
        OutputFormat::Markdown => render_markdown(board),
    };
    write_stdout(&text)
}

/// Writes `text` to stdout.
pub(crate) fn write_stdout(text: &str) -> Result<(), Error> {
    to_stdout(|stdout| stdout.write_all(text.as_bytes()))
}

/// Lets `write` write to stdout, buffered, and flushes it.
fn to_stdout(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
) -> Result<(), Error> {
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut stdout).and_then(|()| stdout.flush()) {
        // A closed pipe (`arena run … | head`) is the reader's choice, not a failure.
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(error)
                .context("cannot write to stdout")
                .into())
        }
        _ => Ok(()),
    }
}

/// `arena-results/<file stem>-<UTC time>` under the current folder, made unique if needed.
fn default_results_dir(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map_or_else(|| "tournament".into(), |s| s.to_string_lossy());
    let time = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .replace(':', "-");
    let base = PathBuf::from("arena-results").join(format!("{stem}-{time}"));
    let mut candidate = base.clone();
    for n in 2.. {
        if !candidate.exists() {
            break;
        }
        candidate = PathBuf::from(format!("{}-{n}", base.display()));
    }
    candidate
}

/// Refuses an `--html` `page` that is one of `inputs` (however spelled or linked): writing it
/// would replace results with the page made of them.
fn refuse_to_replace(page: &Path, inputs: impl IntoIterator<Item = PathBuf>) -> Result<(), Error> {
    match (inputs.into_iter()).find(|input| arena::results::same_file(page, input)) {
        Some(input) => Err(Error::Usage(format!(
            "--html {}: that is {}, which the page would replace",
            page.display(),
            input.display()
        ))),
        None => Ok(()),
    }
}

/// Writes the results page of a results folder, or prints its leaderboard. The board comes
/// from the journal as `arena standings` computes it, so a folder still being written works
/// too; like there, journal lines left out give exit status 2.
fn report_command(args: &ReportArgs) -> Result<u8, Error> {
    if args.dir.is_file() {
        let folder = args.dir.parent().unwrap_or(Path::new("."));
        return Err(Error::Usage(format!(
            "{} is a file: `arena report` takes the results folder that holds the journal and \
             the replays (`arena report {}`)",
            args.dir.display(),
            folder.display()
        )));
    }
    let journal = args.dir.join(JOURNAL_FILE);
    if let Some(page) = &args.html {
        let replays = std::fs::read_dir(args.dir.join(REPLAYS_DIR))
            .into_iter()
            .flatten()
            .filter_map(|entry| entry.ok().map(|entry| entry.path()));
        let results = [JOURNAL_FILE, LEADERBOARD_FILE].map(|name| args.dir.join(name));
        refuse_to_replace(page, results.into_iter().chain(replays))?;
    }
    let (board, left_out) = standings(&journal, Reading::SkipBadLines)?;
    match &args.html {
        None => print(&board, args.format)?,
        Some(out) => {
            let header = JournalReader::open(&journal)?.header().clone();
            let replays = args.dir.join(REPLAYS_DIR);
            write_page(out, &replays, &board, &header, left_out)?;
            tracing::info!("wrote {}", out.display());
        }
    }
    Ok(if left_out == 0 { EXIT_OK } else { EXIT_USAGE })
}
