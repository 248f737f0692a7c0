//! The command line: clap types only, no logic. Doc comments are the `--help` text.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use arena::config::MAX_JOBS;
use arena::shard::Shard;
use arena_games::GameKind;

/// Runs King-of-the-Hill bot tournaments: starts every bot as a subprocess speaking its
/// game's exact protocol, plays the games in parallel, journals every result and prints the
/// leaderboard computed like the original challenge.
#[derive(Debug, Parser)]
#[command(
    name = "arena",
    version,
    after_help = after_help(),
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// More log output on stderr (-v: per-game lines and bot failures, -vv: everything).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Only errors and what a finished command must still say on stderr: bots that failed
    /// often, how to resume a stopped run, lines a journal's standings left out.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// How log lines are written on stderr: `text` for people, `json` (one object per line,
    /// with its time) for a cluster's log collector; `json` shows progress as lines, never
    /// as the live bar.
    #[arg(long, value_enum, global = true, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One line of text per event, coloured on a terminal unless `NO_COLOR` is set.
    Text,
    /// One JSON object per event: `timestamp`, `level`, `message` and its fields.
    Json,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a tournament file and print its leaderboard.
    // With numbers: `--games -1` is a bad value, not an unknown flag `-1` (whose hint would be
    // to write `-- -1`, which makes it a file argument).
    #[command(
        allow_negative_numbers = true,
        after_help = RUN_HELP
    )]
    Run(RunArgs),
    /// Print the leaderboard of a results journal (also of an unfinished run).
    #[command(
        after_help = "Example:\n  arena standings arena-results/petri-2026-11-29T13-20-00Z/journal.jsonl --format json\n\nExit status: 0 done; 1 the journal cannot be read (I/O); 2 no journal there, a file that\nis no journal, or lines that are not games of the tournament were left out (the\nleaderboard of the rest is printed)."
    )]
    Standings(StandingsArgs),
    /// Show a recorded game (from `arena run --replays`) turn by turn, or write it as one
    /// self-contained HTML page with the board, play/pause, step, a turn slider and the
    /// scores over time.
    #[command(
        allow_negative_numbers = true,
        after_help = "Examples:\n  arena replay results/replays/game-0.jsonl --every 10\n  arena replay results/replays/game-0.jsonl --turn 42 --messages\n  arena replay results/replays/game-0.jsonl --html game-0.html\n\nExit status: 0 done; 1 the page not written (I/O); 2 no replay file there, a file that is\nno replay, or a turn the game does not have."
    )]
    Replay(ReplayArgs),
    /// Join the journals of a sharded run (`arena run --shard I/N`) and print the
    /// leaderboard of the whole tournament. Every shard must be there exactly once and
    /// finished; anything else is an error.
    #[command(
        after_help = "Example:\n  arena merge shards/1 shards/2 shards/3 --out merged --format json\n\nExit status: 0 merged; 1 a journal cannot be read or the merge not written (I/O); 2 a\nshard missing, given twice, unfinished or of another tournament, or --out in use."
    )]
    Merge(MergeArgs),
    /// Check that a bot speaks a game's protocol: it gets prepared positions (setup, early,
    /// crowded, edge of board, end-game) and each reply is shown with the exact bytes sent,
    /// whether it parsed, whether it was legal, and how long it took.
    #[command(
        allow_negative_numbers = true,
        override_usage = "arena check [OPTIONS] <GAME> -- <COMMAND>...\n       arena check [OPTIONS] <GAME> --java <FILE>...\n       arena check [OPTIONS] --tournament <FILE>",
        after_help = "Examples:\n  arena check petri -- /usr/bin/python3 -S -I bots/petri/hunter.py\n  arena check slime --timeout-ms 1000 -- ./my-slime-bot --fast\n  arena check --tournament tournaments/petri.toml   (every bot of the file, as it runs them)\n  arena check alienwar -- java -cp classes planet.AlienWarHost alien.Nomad   (a Java alien\n  compiled with its host by hand, see games/alienwar.md)\n\nExit status: 0 every reply valid (a crash after a reply is shown, and the reply still\ncounts); 3 a reply was invalid, illegal, late or missing (with --tournament: any bot's); 2\nbad command line, tournament file, or program not found."
    )]
    Check(CheckArgs),
    /// Write a minimal bot for a game that reads its input, parses it and answers legally:
    /// a starting point for a new entry.
    #[command(
        after_help = "Examples:\n  arena new petri --lang python my-petri-bot\n  arena new slime --lang rust slime-bot && cd slime-bot && cargo build --release\n  arena new alienwar --lang java my-alien\n\nThe folder may exist but must not hold the files to be written."
    )]
    New(NewArgs),
    /// Write the results page of a results folder, finished or still running: one HTML file
    /// (no network) with the leaderboard, the ratings and their 95% intervals as a chart,
    /// the head-to-head heat map or each bot's score range, the bots' failures, the settings,
    /// and the viewer pages of the recorded replays beside it (OUT-replays/game-N.html).
    /// Without --html, print the leaderboard (Markdown by default, ready to paste).
    #[command(
        after_help = "Examples:\n  arena report arena-results/petri-2026-11-29T13-20-00Z --html petri.html\n  arena report results --format markdown > post.md\n\nExit status: 0 done; 1 the journal cannot be read (I/O) or the page not written; 2 no journal\nin DIR, or the file is no journal (its first line is no journal header), or lines that are\nnot games of the tournament were left out (as in standings)."
    )]
    Report(ReportArgs),
    /// Play a quick match of bots given on the command line, without a tournament file: the
    /// same checks, journal and leaderboard as `run`. The match's tournament file is kept in
    /// the results folder (match.toml) to resume or rerun it.
    #[command(
        allow_negative_numbers = true,
        after_help = "Examples:\n  arena match petri --bot v1='/usr/bin/python3 -S -I v1.py' --bot v2='/usr/bin/python3 -S -I v2.py' --games 20\n  arena match slime --bot a=./a --bot b=./b --bot c=./c --bot d=./d --games 1 --replays\n\nExit status: as `arena run`'s (see `arena run --help`)."
    )]
    Match(MatchArgs),
    /// Print a completion script for a shell, generated from these definitions.
    #[command(
        after_help = "Examples:\n  arena completions bash > ~/.local/share/bash-completion/completions/arena\n  arena completions zsh > ~/.zfunc/_arena\n  arena completions fish > ~/.config/fish/completions/arena.fish"
    )]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a folder.
    #[command(
        after_help = "Examples:\n  arena man | man -l -\n  arena man --out /usr/local/share/man/man1"
    )]
    Man(ManArgs),
}

/// `--bots` and `--exclude`, for `run` and `standings`.
#[derive(Debug, Clone, Default, Args)]
pub struct SelectionArgs {
    /// Only these bots (names from the tournament file, comma-separated; repeatable; a name
    /// that holds a comma is given alone, as one --bots)
    #[arg(long, value_name = "NAMES")]
    pub bots: Vec<String>,
    /// All bots but these (comma-separated; repeatable, like --bots)
    #[arg(long, value_name = "NAMES")]
    pub exclude: Vec<String>,
}

impl SelectionArgs {
    /// The library's selection.
    pub fn selection(&self) -> arena::selection::Selection {
        arena::selection::Selection {
            only: self.bots.clone(),
            exclude: self.exclude.clone(),
        }
    }
}

/// `arena run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The tournament file (TOML).
    pub file: PathBuf,
    /// Games per pairing (or runs), overriding the file's `games`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Master seed, overriding the file's `seed`.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Games in parallel (and bot processes working at once), overriding the file's `jobs`;
    /// 0 = number of cores, at most 1024. Cave games run one at a time (bots keep a folder
    /// across games).
    #[arg(long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// Results folder for the journal and leaderboard [default: arena-results/<file>-<time>].
    #[arg(long, value_name = "DIR", conflicts_with = "resume")]
    pub out: Option<PathBuf>,
    /// Continue the interrupted run whose results are in DIR: finished games are kept, the
    /// others are played. The file, seed and games must be those of the interrupted run.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Exit with status 3 if any bot timed out, crashed or sent an invalid reply (for CI).
    #[arg(long)]
    pub strict: bool,
    /// How to print the leaderboard on stdout.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Play only shard I of N: the games whose index g has g % N = I - 1, with the seeds of
    /// the whole run. Join the shards' results with `arena merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Play only the games of bot NAME: every pair with it (both sides) or every
    /// combination with it, with the seeds they have in the whole tournament. Not for games
    /// of all bots, nor with --shard.
    #[arg(long, value_name = "NAME", conflicts_with = "shard")]
    pub gauntlet: Option<String>,
    /// Stop a match of two bots once it is decided whether the candidate (the --gauntlet
    /// bot, or the first of the two in the file's order) is elo0 or elo1 stronger (logistic Elo; alpha and beta 0.05
    /// unless given): games come in pairs with one seed and the sides swapped, `--games` is
    /// the most that are played. Exit status 0 when H1 is accepted, 4 when H0 is, 5 when
    /// the games ran out first. Head-to-head games (Petri) only.
    #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]", conflicts_with_all = ["shard", "reuse"])]
    pub sprt: Option<arena::sprt::SprtBounds>,
    /// Record every game turn by turn in DIR/replays/game-<index>.jsonl, for `arena replay`.
    #[arg(long)]
    pub replays: bool,
    /// Write every request, reply and stderr of each bot in each game to
    /// LOGDIR/game-<index>/seat-<seat>-<name>.log (each file cut at 1 MiB), to debug a bot
    /// offline.
    #[arg(long, value_name = "LOGDIR")]
    pub log_io: Option<PathBuf>,
    /// Keep the games of earlier runs (results folders or journals; the folder being resumed
    /// too) whose bots and settings are unchanged, and play only the others: a new bot's
    /// games, a changed bot's games, more games per pairing.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub reuse: Vec<PathBuf>,
    /// Which bots play.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Run every bot directly as the runner's user, without its sandbox (own PID and network
    /// namespaces, read-only file system, unprivileged user, limits on the whole box).
    #[arg(long)]
    pub no_sandbox: bool,
}

/// `arena replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A replay file, `replays/game-<index>.jsonl` in a results folder.
    pub file: PathBuf,
    /// Write the HTML viewer to this file instead of printing.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Print only this turn.
    #[arg(long, value_name = "N", conflicts_with = "html")]
    pub turn: Option<u32>,
    /// Print every K-th turn (and the last).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..), conflicts_with_all = ["html", "turn"])]
    pub every: u32,
    /// Also print each turn's requests and replies, and why a bot gave none.
    #[arg(long, conflicts_with = "html")]
    pub messages: bool,
}

/// `arena merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' results folders (or their `journal.jsonl` files).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Write the merged journal and leaderboard here (a new folder, or one without a
    /// journal).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// How to print the leaderboard on stdout.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
}

/// `arena standings`.
#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// A results folder, or the `journal.jsonl` in one.
    pub journal: PathBuf,
    /// The standings of the games among these bots only (not for games of every bot).
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// How to print the leaderboard on stdout.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
}

/// `arena check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The game whose protocol to check.
    #[arg(
        value_parser = game_kind(),
        required_unless_present = "tournament",
        conflicts_with = "tournament"
    )]
    pub game: Option<GameKind>,
    /// The bot's command and its arguments, after `--`.
    #[arg(
        last = true,
        required_unless_present_any = ["java", "tournament"],
        conflicts_with_all = ["java", "tournament"],
        value_name = "COMMAND"
    )]
    pub command: Vec<String>,
    /// Instead of one bot: every bot of this tournament file, each as the file runs it (its
    /// folder, limits, time limits and sandbox), then a line per bot.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = [
            "java", "timeout_ms", "setup_timeout_ms", "dir", "memory_mb", "cpu_seconds",
            "max_processes", "cpus", "max_reply_bytes"
        ]
    )]
    pub tournament: Option<PathBuf>,
    /// With --tournament: only some of its bots.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// A game option, as in a tournament file's `[options]` table (`parsing=lenient`), by
    /// which the replies are judged; repeatable (with --tournament: the file's own).
    #[arg(
        long = "option",
        value_name = "KEY=VALUE",
        value_parser = crate::quick_match::parse_option,
        conflicts_with = "tournament"
    )]
    pub options: Vec<crate::quick_match::MatchOption>,
    /// Instead of a command: a Java bot's source files (the first naming the class), compiled
    /// with the game's Java host as a tournament compiles them and run in a JVM of its own
    /// (AlienWar's original aliens; repeat for several files).
    #[arg(long, value_name = "FILE")]
    pub java: Vec<PathBuf>,
    /// Time for one request, in milliseconds [default: the game's own, as in a tournament:
    /// 2000 for cave, 5000 for the others].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout_ms: Option<u64>,
    /// Time for a setup request and for the first request to a persistent process.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = arena::config::DEFAULT_SETUP_TIMEOUT_MS,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub setup_timeout_ms: u64,
    /// The bot's working folder [default: the current folder].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// The bot's limits.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Run the bot directly, without the sandbox a tournament gives it.
    #[arg(long)]
    pub no_sandbox: bool,
}

/// A bot's limits on the command line (`arena check`, `arena match`): a tournament file's
/// keys of the same names, with the same defaults.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// A bot's address space in MiB, as a tournament file's `memory_mb` (0 = none).
    #[arg(
        long,
        value_name = "MB",
        default_value_t = arena::config::DEFAULT_MEMORY_MB,
        value_parser = clap::value_parser!(u64).range(..=arena::config::MAX_MEMORY_MB)
    )]
    pub memory_mb: u64,
    /// The CPU seconds of each of a bot's processes, as a tournament file's `cpu_seconds`
    /// (0 = none).
    #[arg(
        long,
        value_name = "S",
        default_value_t = arena::config::DEFAULT_CPU_SECONDS,
        value_parser = clap::value_parser!(u64).range(..=arena::config::MAX_CPU_SECONDS)
    )]
    pub cpu_seconds: u64,
    /// The processes and threads a bot's sandbox holds, as a tournament file's
    /// `max_processes`.
    #[arg(
        long,
        value_name = "N",
        default_value_t = arena::sandbox::DEFAULT_MAX_PROCESSES,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(arena::sandbox::MAX_PROCESSES))
    )]
    pub max_processes: u32,
    /// The cores' worth of CPU a bot's sandbox may use at once, as a tournament file's
    /// `cpus` (0 = no quota; needs arena to run as root).
    #[arg(long, value_name = "N", default_value_t = 0.0, value_parser = cpus)]
    pub cpus: f64,
    /// The longest reply in bytes, as a tournament file's `max_reply_bytes`.
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = arena::config::DEFAULT_MAX_REPLY_BYTES,
        value_parser = reply_bytes
    )]
    pub max_reply_bytes: usize,
}

impl LimitArgs {
    /// The limits as the tournament's settings.
    pub fn settings(&self) -> arena::config::LimitSettings {
        arena::config::LimitSettings {
            memory_mb: self.memory_mb,
            cpu_seconds: self.cpu_seconds,
            max_processes: self.max_processes,
            cpu_millis: arena::config::cpu_millis(self.cpus),
            max_reply_bytes: self.max_reply_bytes,
        }
    }
}

/// `--cpus`: a number the file's key takes.
fn cpus(text: &str) -> Result<f64, String> {
    let cpus: f64 = text.parse().map_err(|_| "expected a number".to_owned())?;
    match arena::config::cpus_problem(cpus) {
        Some(why) => Err(why),
        None => Ok(cpus),
    }
}

/// `--max-reply-bytes`: a whole number from 1, as the file's key must be, and no larger than
/// a file can hold (a TOML integer, for the file `arena match` writes).
fn reply_bytes(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&bytes| bytes >= 1 && i64::try_from(bytes).is_ok())
        .ok_or_else(|| format!("expected a whole number from 1 to {}", i64::MAX))
}

/// `arena new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The game the bot plays.
    #[arg(value_parser = game_kind())]
    pub game: GameKind,
    /// The bot's language.
    #[arg(long, value_enum)]
    pub lang: Lang,
    /// The folder to write the bot into (created if needed).
    pub dir: PathBuf,
}

/// `arena report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A results folder written by `arena run` (or `arena merge --out`).
    pub dir: PathBuf,
    /// Write the results page to this file (and the replays' pages beside it).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// How to print the leaderboard on stdout when there is no --html.
    #[arg(long, value_enum, default_value_t = OutputFormat::Markdown, conflicts_with = "html")]
    pub format: OutputFormat,
}

/// `arena match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The game.
    #[arg(value_parser = game_kind())]
    pub game: GameKind,
    /// A bot: its name, `=`, and its command line (split like a tournament file's `command`
    /// string, run in the current folder), or, for a game with a Java host (alienwar), its
    /// Java source files (`mine=MyAlien.java`: a command of only `.java` files is a file's
    /// `java` list). Give one per bot, as many as the game needs.
    #[arg(long = "bot", value_name = "NAME=COMMAND", required = true, value_parser = crate::quick_match::parse_bot)]
    pub bots: Vec<crate::quick_match::MatchBot>,
    /// Games per pairing (or runs) [default: the game's, as in a tournament file].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// A game option, as in a tournament file's `[options]` table (`rounds=200`,
    /// `density.gold=300`, `rules=petri.js`; the value is read as TOML, else as a word).
    /// Repeatable; the game's page lists its options.
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = crate::quick_match::parse_option)]
    pub options: Vec<crate::quick_match::MatchOption>,
    /// Time a request has, in milliseconds, as a tournament file's `timeout_ms` [default:
    /// the game's].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout_ms: Option<u64>,
    /// Master seed [default: 1].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Games in parallel; 0 = number of cores [default: 0].
    #[arg(long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// Results folder [default: arena-results/<game>-match-<time>].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Exit with status 3 if any bot timed out, crashed or sent an invalid reply.
    #[arg(long)]
    pub strict: bool,
    /// How to print the leaderboard on stdout.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Record every game's replay in the results folder.
    #[arg(long)]
    pub replays: bool,
    /// The bots' limits (written in the match's tournament file when not the defaults).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Run the bots without their sandbox.
    #[arg(long)]
    pub no_sandbox: bool,
    /// Stop once it is decided whether the first bot is elo0 or elo1 stronger than the
    /// second (see `arena run --help`).
    #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]")]
    pub sprt: Option<arena::sprt::SprtBounds>,
}

/// `arena completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete `arena` in.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `arena man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `arena.1` and `arena-<command>.1` for every command into this folder instead
    /// of printing `arena.1`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The languages `arena new` writes bots in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    /// Python 3, standard library only: `bot.py`.
    Python,
    /// JavaScript for Node.js: `bot.js`.
    Javascript,
    /// Rust, standard library only: `Cargo.toml` and `src/main.rs`.
    Rust,
    /// Java, for a game with a Java host (alienwar): a class of the original challenge's API,
    /// such as `MyAlien.java`, which arena compiles and runs through the host.
    Java,
}

/// Parses `--jobs`: a count up to [`MAX_JOBS`].
fn jobs(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&jobs| jobs <= MAX_JOBS)
        .ok_or_else(|| format!("expected a number from 0 to {MAX_JOBS}"))
}

/// Parses a game's name, offering the registry's names (in `--help` and in errors).
fn game_kind() -> impl TypedValueParser<Value = GameKind> {
    PossibleValuesParser::new(GameKind::ALL.iter().map(|kind| kind.name()))
        .map(|name| GameKind::from_name(&name).expect("only the games' names are offered"))
}

/// The main help's closing text: the games, from the registry, then examples and exit
/// statuses.
fn after_help() -> String {
    let games: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
    format!(
        "Games: {} (rules and protocols in games/<game>.md).\n\n{EXAMPLES_AND_EXIT_STATUS}",
        games.join(", ")
    )
}

/// `arena run --help`'s example and exit statuses.
const RUN_HELP: &str = "Example:\n  arena run tournaments/petri.toml --games 20 --seed 7 --format json > results.json\n\nExit status: 0 every game played (with --sprt: H1 accepted); 1 the run failed (I/O); 2 bad\ncommand line or tournament file, a bot that cannot start, a sandbox the kernel refuses, a\njournal to resume that is not this tournament's, or a results folder in use; 3 a bot timed\nout, crashed or replied invalidly, under --strict; 4 H0 accepted and 5 no verdict, under\n--sprt; 130, 143, 129 stopped by Ctrl-C, SIGTERM, SIGHUP (finished games are kept; the\nresume command is printed).";

/// The main help's examples and exit statuses.
const EXAMPLES_AND_EXIT_STATUS: &str = "Examples:\n  arena run tournaments/petri.toml\n  arena run tournaments/petri.toml --games 10 --jobs 2 --format json\n  arena standings arena-results/petri-2026-11-29T13-20-00Z/journal.jsonl\n  arena run tournaments/slime.toml --replays --out results\n  arena replay results/replays/game-0.jsonl --html game-0.html\n  arena check petri -- /usr/bin/python3 -S -I my-bot.py\n  arena new slime --lang python my-slime-bot\n  arena run tournaments/petri.toml --shard 1/4 --out shard-1   # one per machine, then:\n  arena merge shard-1 shard-2 shard-3 shard-4 --out merged\n  arena match petri --bot v2=./v2 --bot v1=./v1 --sprt elo0=0,elo1=10 --games 400   # v2 is tested\n\nExit status: 0 success (with --sprt: H1 accepted), 1 run failed (I/O), 2 bad command line,\ntournament file, journal, replay file or shards to merge, results folder in use, 3 bot\nfailures under --strict or in check, 4 H0 accepted and 5 no verdict under --sprt, 130, 143,\n129 stopped by Ctrl-C, SIGTERM, SIGHUP (finished games are kept; the resume command is\nprinted).";

/// Leaderboard output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// An aligned table with a head-to-head matrix.
    Table,
    /// One JSON document (schema in the README).
    Json,
    /// CSV, one row per bot, fixed columns.
    Csv,
    /// A Markdown table.
    Markdown,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_help_lists_every_game() {
        let help = Cli::command().render_long_help().to_string();
        let names: Vec<&str> = arena_games::GameKind::ALL
            .iter()
            .map(|k| k.name())
            .collect();
        assert!(
            help.contains(&format!("Games: {} (", names.join(", "))),
            "{help}"
        );
    }

    #[test]
    fn every_example_of_the_top_level_help_is_one_line() {
        let help = Cli::command()
            .term_width(100)
            .render_long_help()
            .to_string();
        let examples = help.split("Examples:\n").nth(1).expect("examples");
        let examples = examples.split("\n\n").next().unwrap();
        for line in examples.lines() {
            assert!(line.starts_with("  arena "), "a broken example: {line:?}");
        }
    }

    #[test]
    fn the_run_help_states_the_bound_on_jobs() {
        let mut command = Cli::command();
        let run = command.find_subcommand_mut("run").expect("run exists");
        let help = run.render_long_help().to_string();
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains(&format!("at most {MAX_JOBS}.")), "{help}");
    }

    #[test]
    fn argument_lines_parse_or_fail_as_expected() {
        let ok: &[&[&str]] = &[
            &["arena", "run", "t.toml"],
            &[
                "arena", "run", "t.toml", "--games", "4", "--seed", "9", "--jobs", "0", "--format",
                "json",
            ],
            &["arena", "-v", "run", "t.toml", "--out", "results"],
            &["arena", "standings", "j.jsonl", "--format", "table"],
            &["arena", "run", "t.toml", "--resume", "results", "--strict"],
            &["arena", "standings", "j.jsonl", "--format", "csv"],
            &["arena", "standings", "j.jsonl", "--format", "markdown"],
            &["arena", "run", "t.toml", "--shard", "2/3", "--replays"],
            &["arena", "run", "t.toml", "--jobs", "1024"],
            &["arena", "replay", "g.jsonl", "--turn", "3", "--messages"],
            &["arena", "replay", "g.jsonl", "--html", "g.html"],
            &["arena", "merge", "a", "b", "--out", "m", "--format", "json"],
            &[
                "arena", "check", "petri", "--", "python3", "bot.py", "--fast",
            ],
            &[
                "arena",
                "check",
                "slime",
                "--timeout-ms",
                "100",
                "--",
                "./bot",
            ],
            &["arena", "new", "eggs", "--lang", "rust", "dir"],
            &["arena", "report", "results", "--html", "page.html"],
            &["arena", "report", "results", "--format", "markdown"],
        ];
        for line in ok {
            assert!(Cli::try_parse_from(*line).is_ok(), "{line:?} should parse");
        }
        let bad: &[(&[&str], ErrorKind)] = &[
            (
                &["arena"],
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand,
            ),
            (&["arena", "run"], ErrorKind::MissingRequiredArgument),
            (
                &["arena", "run", "t.toml", "--games", "0"],
                ErrorKind::ValueValidation,
            ),
            (
                &["arena", "run", "t.toml", "--format", "xml"],
                ErrorKind::InvalidValue,
            ),
            // A bad value, not an unknown flag whose hint would make it a file argument.
            (
                &["arena", "run", "t.toml", "--seed", "-1"],
                ErrorKind::ValueValidation,
            ),
            (
                &["arena", "run", "t.toml", "--games", "-1"],
                ErrorKind::ValueValidation,
            ),
            (
                &["arena", "match", "petri", "--bot", "a=x", "--jobs", "-2"],
                ErrorKind::ValueValidation,
            ),
            (
                &["arena", "replay", "g.jsonl", "--turn", "3", "--every", "2"],
                ErrorKind::ArgumentConflict,
            ),
            (&["arena", "play", "t.toml"], ErrorKind::InvalidSubcommand),
            (
                &["arena", "run", "t.toml", "--shard", "4/3"],
                ErrorKind::ValueValidation,
            ),
            (&["arena", "merge"], ErrorKind::MissingRequiredArgument),
            (
                &["arena", "run", "t.toml", "--jobs", "2305843009213693952"],
                ErrorKind::ValueValidation,
            ),
            (
                &["arena", "run", "t.toml", "--jobs", "1025"],
                ErrorKind::ValueValidation,
            ),
            (
                &["arena", "replay", "g.jsonl", "--html", "x", "--every", "2"],
                ErrorKind::ArgumentConflict,
            ),
            (
                &["arena", "check", "chess", "--", "bot"],
                ErrorKind::InvalidValue,
            ),
            (
                &["arena", "check", "petri"],
                ErrorKind::MissingRequiredArgument,
            ),
            (
                &["arena", "new", "petri", "--lang", "cobol", "d"],
                ErrorKind::InvalidValue,
            ),
            (
                &["arena", "-q", "-v", "run", "t.toml"],
                ErrorKind::ArgumentConflict,
            ),
            (
                &[
                    "arena", "report", "r", "--html", "p.html", "--format", "csv",
                ],
                ErrorKind::ArgumentConflict,
            ),
        ];
        for (line, kind) in bad {
            let error = Cli::try_parse_from(*line).expect_err("should fail");
            assert_eq!(error.kind(), *kind, "{line:?}");
        }
    }
}
