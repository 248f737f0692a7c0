//! The command line: clap types only, no logic. Doc comments are the `--help` text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Runs King-of-the-Hill bot tournaments: starts every bot as a subprocess speaking its
/// game's exact protocol, plays the games in parallel, journals every result and prints the
/// leaderboard computed like the original challenge.
#[derive(Debug, Parser)]
#[command(
    name = "arena",
    version,
    after_help = "Games: cave, eggs, petri, slime (rules and protocols in games/<game>.md).\n\nExamples:\n  arena run tournaments/petri.toml\n  arena run tournaments/petri.toml --games 10 --jobs 2 --format json\n  arena standings arena-results/petri-2026-11-29T13-20-00Z/journal.jsonl\n\nExit status: 0 success, 1 run failed (I/O, journal), 2 bad command line, tournament file or\njournal to resume, 3 bot failures under --strict, 130 interrupted."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// More log output on stderr (-v: per-game lines and bot failures, -vv: everything).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Only errors on stderr.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a tournament file and print its leaderboard.
    #[command(
        after_help = "Example:\n  arena run tournaments/petri.toml --games 20 --seed 7 --format json > results.json"
    )]
    Run(RunArgs),
    /// Print the leaderboard of a results journal (also of an unfinished run).
    #[command(
        after_help = "Example:\n  arena standings arena-results/petri-2026-11-29T13-20-00Z/journal.jsonl --format json"
    )]
    Standings(StandingsArgs),
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
    /// 0 = number of cores. Cave games run one at a time (bots keep a folder across games).
    #[arg(long, value_name = "N")]
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
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// `arena standings`.
#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// A `journal.jsonl` written by `arena run`.
    pub journal: PathBuf,
    /// How to print the leaderboard on stdout.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Leaderboard output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
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
        let names: Vec<&str> = crate::games::GameKind::ALL
            .iter()
            .map(|k| k.name())
            .collect();
        assert!(
            help.contains(&format!("Games: {} (", names.join(", "))),
            "{help}"
        );
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
            (
                &["arena", "run", "t.toml", "--seed", "-1"],
                ErrorKind::UnknownArgument,
            ),
            (&["arena", "play", "t.toml"], ErrorKind::InvalidSubcommand),
            (
                &["arena", "-q", "-v", "run", "t.toml"],
                ErrorKind::ArgumentConflict,
            ),
        ];
        for (line, kind) in bad {
            let error = Cli::try_parse_from(*line).expect_err("should fail");
            assert_eq!(error.kind(), *kind, "{line:?}");
        }
    }
}
