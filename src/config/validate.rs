//! Raw tournament file -> validated [`Tournament`]: every check, including that each bot's
//! program exists, runs from here (the bot entries' in `bot_entry`), before any game starts.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::de::DeserializeOwned;
use toml::Spanned;

use super::bot_entry::{BotContext, SandboxDefaults, check_bots};
use super::bot_name::written_name;
use super::document::Document;
use super::error::{ConfigError, Problem};
use super::limits::{LimitSettings, cpu_millis, limit_problems};
use super::places::BotPlaces;
use super::program::canonical_so_far;
use super::raw::{RawBot, RawTournament, SandboxMode};
use super::source::read_bounded;
use crate::bots::{BotProgram, JavaBuild, Limits};
use crate::schedule::fixture_count;
use crate::selection::Selection;
use arena_games::{GameKind, GameOptions, OptionsParser};

/// The master seed when the file sets none: fixed, so two runs of one file agree.
const DEFAULT_SEED: u64 = 1;
/// Default time for one request, generous for interpreters on a loaded machine (a game may
/// set its own, [`GameKind::default_timeout_ms`]).
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;
/// Default time for a setup request, which includes interpreter or JVM start-up.
pub const DEFAULT_SETUP_TIMEOUT_MS: u64 = 30_000;
/// How much of a bot's stderr is kept for diagnostics.
pub(super) const DEFAULT_MAX_STDERR_BYTES: usize = 4 * 1024;
/// The most games at once and bot processes working at once (`jobs`, `--jobs`): far more
/// than any machine has cores, and far less than would exhaust threads or processes.
pub const MAX_JOBS: usize = 1024;

/// A checked tournament, ready to run.
#[derive(Debug, Clone)]
pub struct Tournament {
    /// The file it came from.
    pub path: PathBuf,
    /// The game and its options.
    pub options: GameOptions,
    /// The master seed; each game's seed derives from it and the game's index.
    pub seed: u64,
    /// Games per pairing (head-to-head games) or runs.
    pub games: u32,
    /// Games run in parallel and bot processes working at once; 0 = number of cores.
    pub jobs: usize,
    /// Its requests' time limits.
    pub timeouts: Timeouts,
    /// What is kept of each bot's output.
    pub limits: Limits,
    /// Whether a game's Java bots share one JVM.
    pub java_host: JavaHostMode,
    /// The entries, in file order.
    pub bots: Vec<Bot>,
    /// Where the bots are written, for their problems found after loading (not part of the
    /// digest: moving a bot down a line changes no game).
    places: BotPlaces,
}

/// The time limits of a bot's requests: a tournament's (`timeout_ms`, `setup_timeout_ms`)
/// or a check's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// One request.
    pub request: Duration,
    /// A setup request, and the first request to a persistent process.
    pub setup: Duration,
}

/// Says why a bot's program cannot start, if it cannot (see [`Tournament::with_startable`]).
pub type StartableCheck<'a> = &'a dyn Fn(&BotProgram) -> Option<String>;

/// How a game's bots given as Java sources run (`java_host` in the tournament file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JavaHostMode {
    /// All in one JVM, each by a class loader of its own, as in the original controller: one
    /// JVM start and one JIT warm-up per game. A Java bot that hangs stops them all.
    #[default]
    Shared,
    /// Each in a JVM of its own, isolated like any other bot.
    Separate,
}

/// One entry of the tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bot {
    /// Its unique name.
    pub name: String,
    /// How to start it (alone, for a Java bot).
    pub program: BotProgram,
    /// Its compiled classes, if it was given as Java sources.
    pub java: Option<JavaBuild>,
}

/// What a tournament file is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// Its games: `arena run`, `match`, and every command that reads its results.
    Play,
    /// `arena check` of its bots, which plays no game.
    Check,
}

impl Tournament {
    /// Reads and checks the tournament file at `path`.
    pub fn load(path: &Path) -> Result<Tournament, ConfigError> {
        Tournament::load_selected(path, &Selection::default())
    }

    /// Reads the tournament file at `path` and checks it with only the bots `selection`
    /// keeps (`--bots`, `--exclude`): the others' entries are checked no further than their
    /// names, so that a bot whose folder or program is gone can be left out of a run, and
    /// their folders stay hidden from the bots that play. A name the selection gives that
    /// no bot has is a problem of the file's.
    pub fn load_selected(path: &Path, selection: &Selection) -> Result<Tournament, ConfigError> {
        Tournament::read(path, selection, Purpose::Play)
    }

    /// Reads the tournament file at `path` for `arena check`, which plays no game: as
    /// [`Tournament::load_selected`], but a file with fewer bots than a game needs (a
    /// contestant's, with only their bot) is fine.
    pub fn load_to_check(path: &Path, selection: &Selection) -> Result<Tournament, ConfigError> {
        Tournament::read(path, selection, Purpose::Check)
    }

    /// Reads and checks the tournament file at `path` for `purpose`.
    fn read(
        path: &Path,
        selection: &Selection,
        purpose: Purpose,
    ) -> Result<Tournament, ConfigError> {
        let source = read_bounded(path).map_err(|error| {
            ConfigError::new(
                path,
                vec![Problem::at(
                    "",
                    None,
                    format!("cannot read the file: {error}"),
                )],
            )
        })?;
        Tournament::parse(&source, path, &|_| None, selection, purpose)
    }

    /// Checks a tournament given as text; `path` names it in errors and anchors relative
    /// paths (its folder is where bot folders and programs are looked up).
    pub fn from_toml_str(source: &str, path: &Path) -> Result<Tournament, ConfigError> {
        Tournament::with_startable(source, path, &|_| None)
    }

    /// Checks a tournament given as text, as [`Tournament::from_toml_str`] does, and each
    /// bot's program with `startable` as soon as the bot is checked: what it says is one
    /// more problem of the file, at the bot's `command` (or `java`), reported with the rest
    /// in one run. For a caller who knows, at loading, how the bots will be started
    /// (`arena match`: all of them, in the sandbox or not).
    pub fn with_startable(
        source: &str,
        path: &Path,
        startable: StartableCheck<'_>,
    ) -> Result<Tournament, ConfigError> {
        Tournament::parse(
            source,
            path,
            startable,
            &Selection::default(),
            Purpose::Play,
        )
    }

    /// Checks a tournament given as text for `purpose`, with its programs checked by
    /// `startable`, keeping the bots `selection` keeps (see [`Tournament::load_selected`]).
    fn parse(
        source: &str,
        path: &Path,
        startable: StartableCheck<'_>,
        selection: &Selection,
        purpose: Purpose,
    ) -> Result<Tournament, ConfigError> {
        let fail = |problems| ConfigError::new(path, problems);
        let mut document = Document::parse(source).map_err(fail)?;
        let mut problems = Vec::new();
        let Some(first) = document.deserialize::<RawTournament<toml::Table>>(&mut problems) else {
            return Err(fail(problems));
        };
        let (kind, game_span) = match game_kind(first.game.as_ref()) {
            Ok(game) => game,
            Err((span, why)) => {
                problems.push(Problem::at(source, Some(span), why));
                // What does not depend on the game is still said: one run names it all.
                problems.extend(setting_problems(source, &first));
                return Err(fail(problems));
            }
        };
        let mut reparse = Reparse {
            document: &mut document,
            problems: &mut problems,
            options_span: None,
        };
        let Ok(mut options) = kind.parse_options(&mut reparse) else {
            problems.extend(setting_problems(source, &first));
            return Err(fail(problems));
        };
        let option_span = reparse.options_span.clone().or(Some(game_span.clone()));
        // Absolute, because a bot runs in its own folder: a relative program path would
        // otherwise be ambiguous between the runner's folder and the bot's.
        let folder = match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        let base = canonical_so_far(folder);
        for message in options.validate() {
            // At the option the message names first (`max_turns` must be...), if it is there.
            let named = message.split('`').nth(1).and_then(|key| {
                let path: Vec<&str> = std::iter::once("options").chain(key.split('.')).collect();
                document.value_span(&path)
            });
            problems.push(Problem::at(
                source,
                named.or(option_span.clone()),
                format!("options: {message}"),
            ));
        }
        problems.extend(setting_problems(source, &first));
        // The file's limits, each bot's unless it sets its own.
        let unset = LimitSettings::default();
        let file_limits = LimitSettings {
            memory_mb: (first.memory_mb.as_ref()).map_or(unset.memory_mb, |m| *m.get_ref()),
            cpu_seconds: (first.cpu_seconds.as_ref()).map_or(unset.cpu_seconds, |c| *c.get_ref()),
            max_processes: (first.max_processes.as_ref())
                .map_or(unset.max_processes, |m| *m.get_ref()),
            cpu_millis: (first.cpus.as_ref()).and_then(|c| cpu_millis(*c.get_ref())),
            max_reply_bytes: (first.max_reply_bytes.as_ref())
                .map_or(unset.max_reply_bytes, |c| *c.get_ref()),
        };
        let defaults = file_limits.resource_limits();
        let sandbox = SandboxDefaults {
            on: first.sandbox != Some(SandboxMode::Off),
            max_processes: file_limits.max_processes,
            cpu_millis: file_limits.cpu_millis,
        };
        let left_out = left_out(source, &first.bots, selection, &mut problems);
        let context = BotContext {
            source,
            base: &base,
            kind,
            built_in_names: options.built_in_names(),
            startable,
            left_out: &left_out,
        };
        let (bots, places) = check_bots(&context, &first.bots, (defaults, sandbox), &mut problems);
        if let Some(file) = options.data_file() {
            let path = base.join(file);
            let messages = match read_bounded(&path) {
                Ok(text) => options.use_data_file(&path, &text, first.bots.len()),
                Err(error) => vec![format!("cannot read {}: {error}", path.display())],
            };
            for message in messages {
                let message = format!("options: {message}");
                problems.push(Problem::at(source, option_span.clone(), message));
            }
        }
        let min_bots = options.min_bots();
        if purpose == Purpose::Play && first.bots.len() < min_bots {
            problems.push(Problem::at(
                source,
                Some(game_span.clone()),
                too_few_bots(kind, min_bots, first.bots.len(), options.fewer_bots()),
            ));
        }
        let games = (first.games.as_ref()).map_or(kind.default_games(), |g| *g.get_ref());
        if fixture_count(options.pairing(), first.bots.len(), games) == u64::MAX {
            let span = first.games.as_ref().map_or(game_span, toml::Spanned::span);
            let message = format!(
                "{} bots and {games} games make more games than arena can count (2^64): \
                 lower `games`",
                first.bots.len()
            );
            problems.push(Problem::at(source, Some(span), message));
        }
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        let millis = |value: Option<toml::Spanned<u64>>, default| {
            Duration::from_millis(value.map_or(default, toml::Spanned::into_inner))
        };
        Ok(Tournament {
            path: path.to_path_buf(),
            options,
            seed: first.seed.unwrap_or(DEFAULT_SEED),
            games: first
                .games
                .map_or(kind.default_games(), toml::Spanned::into_inner),
            jobs: first.jobs.map_or(0, toml::Spanned::into_inner),
            timeouts: Timeouts {
                request: millis(
                    first.timeout_ms,
                    kind.default_timeout_ms().unwrap_or(DEFAULT_TIMEOUT_MS),
                ),
                setup: millis(first.setup_timeout_ms, DEFAULT_SETUP_TIMEOUT_MS),
            },
            limits: Limits {
                max_reply_bytes: file_limits.max_reply_bytes,
                max_stderr_bytes: first.max_stderr_bytes.unwrap_or(DEFAULT_MAX_STDERR_BYTES),
            },
            java_host: first.java_host.unwrap_or_default(),
            bots,
            places: BotPlaces::new(source, places),
        })
    }

    /// Every bot whose program the system cannot start ([`preflight`]), as it will be
    /// started once the command line has had its say: each a problem of the file at the
    /// bot's `command` (or `java`), in file order. Such a bot would crash at every request
    /// of every game.
    ///
    /// [`preflight`]: crate::bots::preflight
    pub fn unstartable_bots(&self) -> Result<(), ConfigError> {
        let problems: Vec<Problem> = (self.bots.iter())
            .filter_map(|bot| {
                let why = crate::bots::preflight::problem(&bot.program)?;
                Some(self.places.unstartable(&bot.name, &why))
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ConfigError::new(&self.path, problems))
        }
    }

    /// The largest CPU quota a sandboxed bot has (`cpus`), in thousandths of a core: the
    /// box made before any game must show that the machine can give it.
    pub fn widest_cpu_quota(&self) -> Option<u32> {
        (self.bots.iter())
            .filter_map(|bot| bot.program.cpu_quota())
            .max()
    }

    /// The game being played.
    pub fn kind(&self) -> GameKind {
        self.options.kind()
    }

    /// A fingerprint of what decides the games: the game and its options and each bot's name,
    /// program, arguments, folder and environment (not the seed and counts, which journals
    /// record on their own, nor time limits, which may change between a run and its resume).
    /// FNV-1a over the values' debug text: stable for one `arena` version, which is what a
    /// resume needs.
    pub fn digest(&self) -> String {
        let text = format!("{:?}\n{:?}", self.options, self.bots);
        format!("{:016x}", crate::fnv::fnv1a(text.as_bytes()))
    }
}

/// Parses the whole file again with the game's own options type, so that an unknown or
/// mistyped option is reported by the TOML parser at its exact place (added to `problems`,
/// the option dropped).
struct Reparse<'a, 's> {
    document: &'a mut Document<'s>,
    problems: &'a mut Vec<Problem>,
    options_span: Option<std::ops::Range<usize>>,
}

/// Options that could not be read at all (the problems say why).
struct Unreadable;

impl OptionsParser for Reparse<'_, '_> {
    type Error = Unreadable;

    fn parse<T: DeserializeOwned + Default>(&mut self) -> Result<T, Unreadable> {
        let raw: RawTournament<T> = self.document.deserialize(self.problems).ok_or(Unreadable)?;
        Ok(match raw.options {
            Some(options) => {
                self.options_span = Some(options.span());
                options.into_inner()
            }
            None => T::default(),
        })
    }
}

/// The names of the `bots` entries that `selection` leaves out; a name it gives that no
/// entry has is one more of the `problems`.
fn left_out(
    source: &str,
    bots: &[Spanned<RawBot>],
    selection: &Selection,
    problems: &mut Vec<Problem>,
) -> BTreeSet<String> {
    if selection.is_all() {
        return BTreeSet::new();
    }
    let names: Vec<String> = (bots.iter())
        .filter_map(|bot| written_name(bot).ok())
        .map(|(name, _)| name.trim().to_owned())
        .collect();
    match selection.apply(&names) {
        Ok(kept) => (names.into_iter().enumerate())
            .filter(|(index, _)| !kept.contains(index))
            .map(|(_, name)| name)
            .collect(),
        Err(why) => {
            problems.push(Problem::at(
                source,
                None,
                format!("--bots/--exclude: {why}"),
            ));
            BTreeSet::new()
        }
    }
}

/// The problems of the file's settings that hold whatever the game: counts that must be at
/// least 1, `jobs` and the resource limits out of their range.
fn setting_problems(source: &str, first: &RawTournament<toml::Table>) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut at_least_one = |value: Option<(Range<usize>, bool)>, key: &str| {
        if let Some((span, true)) = value {
            problems.push(Problem::at(
                source,
                Some(span),
                format!("`{key}` must be at least 1"),
            ));
        }
    };
    let zero = |value: &Spanned<u64>| (value.span(), *value.get_ref() == 0);
    at_least_one(first.timeout_ms.as_ref().map(zero), "timeout_ms");
    at_least_one(
        first.setup_timeout_ms.as_ref().map(zero),
        "setup_timeout_ms",
    );
    let games = first.games.as_ref().map(|g| (g.span(), *g.get_ref() == 0));
    at_least_one(games, "games");
    let cap = (first.max_reply_bytes.as_ref()).map(|c| (c.span(), *c.get_ref() == 0));
    at_least_one(cap, "max_reply_bytes");
    if let Some(jobs) = first.jobs.as_ref().filter(|j| *j.get_ref() > MAX_JOBS) {
        problems.push(Problem::at(
            source,
            Some(jobs.span()),
            format!("`jobs` must be at most {MAX_JOBS} (0 = one per core)"),
        ));
    }
    let limits = limit_problems(
        first.memory_mb.as_ref(),
        first.cpu_seconds.as_ref(),
        first.max_processes.as_ref(),
        first.cpus.as_ref(),
    );
    for (span, why) in limits {
        problems.push(Problem::at(source, Some(span), why));
    }
    problems
}

/// The game a file names, and where; or where and why it names none (a missing `game` at
/// the start of the file, where serde points at a missing key of the top-level table).
fn game_kind(
    game: Option<&Spanned<toml::Value>>,
) -> Result<(GameKind, Range<usize>), (Range<usize>, String)> {
    let names: Vec<_> = GameKind::ALL.iter().map(|k| k.name()).collect();
    let expected = format!("expected one of: {}", names.join(", "));
    let Some(game) = game else {
        return Err((0..0, format!("missing field `game` ({expected})")));
    };
    let name = string_value(game)?;
    match GameKind::from_name(&name) {
        Some(kind) => Ok((kind, game.span())),
        None => Err((game.span(), format!("unknown game `{name}` ({expected})"))),
    }
}

/// The text of a value that must be a string, or where and why it is not one (in serde's
/// words, as for any other value of the wrong type).
pub(super) fn string_value(value: &Spanned<toml::Value>) -> Result<String, (Range<usize>, String)> {
    let text = value.get_ref().clone().try_into::<String>();
    text.map_err(|error| (value.span(), error.message().to_owned()))
}

/// The problem of a tournament file of `kind` with `count` bots where it needs `min`.
pub fn too_few_bots(
    kind: GameKind,
    min: usize,
    count: usize,
    fewer: Option<(&str, &str)>,
) -> String {
    let or = fewer.map_or_else(String::new, |(key, value)| {
        format!(", or set `{key} = {value}` in [options] to play fewer")
    });
    format!("{kind} needs at least {min} bots, the file has {count} (add [[bots]] tables{or})")
}
