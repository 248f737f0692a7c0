//! Raw tournament file -> validated [`Tournament`]: every check, including that each bot's
//! program exists, happens here, before any game starts.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::env;
use std::ffi::OsStr;
use std::ops::{Range, RangeInclusive};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use toml::Spanned;

use super::document::Document;
use super::error::{ConfigError, Problem};
use super::places::{BotPlaces, unstartable};
use super::raw::{RawBot, RawCommand, RawTournament, SandboxMode};
use super::source::read_bounded;
use crate::bots::{
    BotProgram, JavaBuild, JavaHostRuntime, Limits, MIN_JVM_MEMORY_MB, ResourceLimits, cache_root,
    jvm_environment,
};
use crate::sandbox::{BoxSpec, DEFAULT_MAX_PROCESSES, MAX_PROCESSES};
use crate::schedule::fixture_count;
use crate::text::{escape_control, is_unsafe, reading_of};
use arena_games::{GameKind, GameOptions, OptionsParser};

/// The master seed when the file sets none: fixed, so two runs of one file agree.
const DEFAULT_SEED: u64 = 1;
/// Default time for one request, generous for interpreters on a loaded machine (a game may
/// set its own, [`GameKind::default_timeout_ms`]).
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;
/// Default time for a setup request, which includes interpreter or JVM start-up.
pub const DEFAULT_SETUP_TIMEOUT_MS: u64 = 30_000;
/// Default cap on one reply; no game's reply comes close.
const DEFAULT_MAX_REPLY_BYTES: usize = 64 * 1024;
/// How much of a bot's stderr is kept for diagnostics.
const DEFAULT_MAX_STDERR_BYTES: usize = 4 * 1024;
/// Default address-space limit: far above what any KotH bot needs, yet it stops a runaway
/// allocation long before the machine swaps. JVMs and V8 size themselves to fit under it.
const DEFAULT_MEMORY_MB: u64 = 4096;
/// Default CPU seconds per bot process: a persistent bot lives a whole game.
const DEFAULT_CPU_SECONDS: u64 = 600;
/// The most `cpu_seconds`: the kernel turns the limit, and the hard limit a second above it,
/// into nanoseconds in 64 bits without checking; past this the product wraps around, and a
/// bot is stopped (SIGXCPU) within seconds of CPU time.
const MAX_CPU_SECONDS: u64 = u64::MAX / 1_000_000_000 - 1;
/// The most `memory_mb`: the limit in bytes must fit in 64 bits.
const MAX_MEMORY_MB: u64 = u64::MAX / MIB;
/// Bytes in a megabyte, as `memory_mb` counts them.
const MIB: u64 = 1024 * 1024;
/// The most games at once and bot processes working at once (`jobs`, `--jobs`): far more
/// than any machine has cores, and far less than would exhaust threads or processes.
pub const MAX_JOBS: usize = 1024;
/// The most characters a bot name may have: room for any real name, and short enough for a
/// table column and for a folder name (each character becomes one byte of it, see
/// `folders`), far below the 255 bytes a file system allows.
pub const MAX_NAME_CHARS: usize = 64;

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
    /// Time limit of one request.
    pub timeout: Duration,
    /// Time limit of a setup request (and of the first request to a persistent process).
    pub setup_timeout: Duration,
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

impl Tournament {
    /// Reads and checks the tournament file at `path`.
    pub fn load(path: &Path) -> Result<Tournament, ConfigError> {
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
        Tournament::from_toml_str(&source, path)
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
                return Err(fail(problems));
            }
        };
        let mut reparse = Reparse {
            document: &mut document,
            problems: &mut problems,
            options_span: None,
        };
        let Ok(mut options) = kind.parse_options(&mut reparse) else {
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
        let positive =
            |value: &Option<toml::Spanned<u64>>, key: &str, problems: &mut Vec<Problem>| {
                if let Some(value) = value.as_ref().filter(|v| *v.get_ref() == 0) {
                    problems.push(Problem::at(
                        source,
                        Some(value.span()),
                        format!("`{key}` must be at least 1"),
                    ));
                }
            };
        positive(&first.timeout_ms, "timeout_ms", &mut problems);
        positive(&first.setup_timeout_ms, "setup_timeout_ms", &mut problems);
        if let Some(games) = first.games.as_ref().filter(|g| *g.get_ref() == 0) {
            problems.push(Problem::at(
                source,
                Some(games.span()),
                "`games` must be at least 1",
            ));
        }
        if let Some(jobs) = first.jobs.as_ref().filter(|j| *j.get_ref() > MAX_JOBS) {
            problems.push(Problem::at(
                source,
                Some(jobs.span()),
                format!("`jobs` must be at most {MAX_JOBS} (0 = one per core)"),
            ));
        }
        if let Some(cap) = first.max_reply_bytes.as_ref().filter(|c| *c.get_ref() == 0) {
            problems.push(Problem::at(
                source,
                Some(cap.span()),
                "`max_reply_bytes` must be at least 1",
            ));
        }
        let limits = limit_problems(
            first.memory_mb.as_ref(),
            first.cpu_seconds.as_ref(),
            first.max_processes.as_ref(),
        );
        for (span, why) in limits {
            problems.push(Problem::at(source, Some(span), why));
        }
        let memory_mb = first.memory_mb.as_ref().map(|m| *m.get_ref());
        let cpu_seconds = first.cpu_seconds.as_ref().map(|c| *c.get_ref());
        let defaults = ResourceLimits {
            memory_bytes: megabytes(memory_mb.unwrap_or(DEFAULT_MEMORY_MB)),
            cpu_seconds: nonzero(cpu_seconds.unwrap_or(DEFAULT_CPU_SECONDS)),
        };
        let sandbox = SandboxDefaults {
            on: first.sandbox != Some(SandboxMode::Off),
            max_processes: (first.max_processes.as_ref())
                .map_or(DEFAULT_MAX_PROCESSES, |m| *m.get_ref()),
        };
        let context = BotContext {
            source,
            base: &base,
            kind,
            built_in_names: options.built_in_names(),
            startable,
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
        if first.bots.len() < min_bots {
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
            timeout: millis(
                first.timeout_ms,
                kind.default_timeout_ms().unwrap_or(DEFAULT_TIMEOUT_MS),
            ),
            setup_timeout: millis(first.setup_timeout_ms, DEFAULT_SETUP_TIMEOUT_MS),
            limits: Limits {
                max_reply_bytes: first
                    .max_reply_bytes
                    .map_or(DEFAULT_MAX_REPLY_BYTES, toml::Spanned::into_inner),
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

    /// Its requests' time limits.
    pub fn timeouts(&self) -> Timeouts {
        Timeouts {
            request: self.timeout,
            setup: self.setup_timeout,
        }
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

/// What the bots need from the game: the names its built-in players take, and its Java
/// host for bots given as Java sources.
struct BotContext<'a> {
    source: &'a str,
    base: &'a Path,
    kind: GameKind,
    built_in_names: Vec<&'static str>,
    startable: StartableCheck<'a>,
}

/// The tournament-wide sandbox settings, which each bot may override.
#[derive(Debug, Clone, Copy)]
struct SandboxDefaults {
    on: bool,
    max_processes: u32,
}

/// Checks every `[[bots]]` entry and resolves its folder and program (compiling Java bots);
/// the bots, and where each one's program is written, by name.
fn check_bots(
    context: &BotContext<'_>,
    raw: &[Spanned<RawBot>],
    settings: (ResourceLimits, SandboxDefaults),
    problems: &mut Vec<Problem>,
) -> (Vec<Bot>, BTreeMap<String, Range<usize>>) {
    let source = context.source;
    let mut bots: Vec<Bot> = Vec::new();
    let mut places = BTreeMap::new();
    let mut seen = BTreeMap::new();
    for (number, bot) in (1..).zip(raw) {
        let (name, name_span) = match written_name(bot) {
            Ok((written, span)) => {
                if let Some(why) = name_refusal(context, &written, &mut seen) {
                    problems.push(Problem::at(source, Some(span.clone()), why));
                }
                (Some(written.trim().to_owned()), span)
            }
            Err((span, why)) => {
                problems.push(Problem::at(source, Some(span.clone()), why));
                (None, span)
            }
        };
        let label = match &name {
            Some(name) => format!("bot `{name}`"),
            None => format!("bot {number}"),
        };
        let bot = BotEntry {
            raw: bot.get_ref(),
            label,
            name_span,
        };
        let checked = check_bot(context, &bot, settings, problems);
        if let Some((program, _, written)) = &checked
            && let Some(why) = (context.startable)(program)
        {
            problems.push(unstartable(source, Some(written.clone()), &bot.label, &why));
        }
        if let (Some(name), Some((program, java, written))) = (name, checked) {
            places.insert(name.clone(), written);
            bots.push(Bot {
                name,
                program,
                java,
            });
        }
    }
    hide_from_each_other(&mut bots, context.base);
    (bots, places)
}

/// One `[[bots]]` entry, and how messages about it name it (by its name, or by its place
/// among the bots if it has none).
struct BotEntry<'a> {
    raw: &'a RawBot,
    label: String,
    name_span: Range<usize>,
}

/// A bot's `name` as written, and where; or where and why it has none (missing, or not a
/// string).
fn written_name(bot: &Spanned<RawBot>) -> Result<(String, Range<usize>), (Range<usize>, String)> {
    match &bot.get_ref().name {
        Some(name) => string_value(name).map(|text| (text, name.span())),
        None => Err((bot.span(), "missing field `name`".to_owned())),
    }
}

/// Why the name `written` cannot be this bot's: unsafe to show ([`bot_name_problem`]), taken by
/// a bot before it or by a player built into the game. `seen` holds the names before it, by
/// how they read ([`reading_of`]), and this one joins them.
fn name_refusal(
    context: &BotContext<'_>,
    written: &str,
    seen: &mut BTreeMap<String, String>,
) -> Option<String> {
    let name = written.trim();
    if let Some(why) = bot_name_problem(written) {
        return Some(why);
    }
    match seen.entry(reading_of(name)) {
        Entry::Occupied(earlier) if earlier.get() == name => {
            Some(format!("duplicate bot name `{name}`"))
        }
        Entry::Occupied(earlier) => Some(format!(
            "bot name `{name}` reads as the earlier bot's `{}` but is written with other \
             Unicode characters (an accented letter as a letter and a combining accent, or the \
             reverse): two bots may not have names that read alike; rename one",
            earlier.get()
        )),
        Entry::Vacant(vacant) => {
            vacant.insert(name.to_owned());
            context
                .built_in_names
                .contains(&name)
                .then(|| format!("bot name `{name}` is taken by a player built into the game"))
        }
    }
}

/// Checks a bot's folder, environment, limits and program, adding a problem for each
/// mistake; its program, Java build and where its program is written if it can run.
fn check_bot(
    context: &BotContext<'_>,
    bot: &BotEntry<'_>,
    (defaults, sandbox): (ResourceLimits, SandboxDefaults),
    problems: &mut Vec<Problem>,
) -> Option<(BotProgram, Option<JavaBuild>, Range<usize>)> {
    let (source, label, raw) = (context.source, &bot.label, bot.raw);
    let dir = match &raw.dir {
        Some(dir) => {
            let (path, why) = bot_dir(context.base, dir.get_ref());
            if let Some(why) = why {
                let message = format!("{label}: {why}");
                problems.push(Problem::at(source, Some(dir.span()), message));
            }
            path
        }
        None => context.base.to_path_buf(),
    };
    let limits = limit_problems(
        raw.memory_mb.as_ref(),
        raw.cpu_seconds.as_ref(),
        raw.max_processes.as_ref(),
    );
    for (span, why) in env_problems(&raw.env).into_iter().chain(limits) {
        let message = format!("{label}: {why}");
        problems.push(Problem::at(source, Some(span), message));
    }
    let rlimits = ResourceLimits {
        memory_bytes: (raw.memory_mb.as_ref())
            .map_or(defaults.memory_bytes, |m| megabytes(*m.get_ref())),
        cpu_seconds: (raw.cpu_seconds.as_ref())
            .map_or(defaults.cpu_seconds, |c| nonzero(*c.get_ref())),
    };
    let launch = match (&raw.command, &raw.java) {
        (Some(command), None) => match command_nul(command) {
            Some((span, why)) => Err((span, why)),
            None => command_launch(command.get_ref(), &dir)
                .map(|(program, args)| (program, args, None, command.span()))
                .map_err(|why| (command.span(), why)),
        },
        (None, Some(java)) => java_launch(context, java.get_ref(), &dir, rlimits.memory_bytes)
            .map(|(program, args, build)| (program, args, build, java.span()))
            .map_err(|why| (java.span(), why)),
        (Some(_), Some(java)) => Err((
            java.span(),
            "give either `command` or `java`, not both".to_owned(),
        )),
        (None, None) => Err((
            bot.name_span.clone(),
            "needs `command` (the program to run) or `java` (its Java sources)".to_owned(),
        )),
    };
    let (program, args, java, written) = match launch {
        Ok(launch) => launch,
        Err((span, why)) => {
            // javac's messages are lines of their own, shown under the problem.
            let (why, details) = match why.split_once('\n') {
                Some((first, rest)) if raw.java.is_some() => (first, rest),
                _ => (why.as_str(), ""),
            };
            let problem = Problem::at(source, Some(span), format!("{label}: {why}"));
            problems.push(problem.with_details(details));
            return None;
        }
    };
    let sandboxed = raw
        .sandbox
        .map_or(sandbox.on, |mode| mode == SandboxMode::On);
    let spec = sandboxed.then(|| BoxSpec {
        readable: readable_folders(&dir, &program, &args, java.as_ref()),
        network: raw.network.unwrap_or(false),
        max_processes: (raw.max_processes.as_ref()).map_or(sandbox.max_processes, |m| *m.get_ref()),
        ..BoxSpec::default()
    });
    let env = (raw.env.iter())
        .map(|(key, value)| (key.get_ref().clone(), value.get_ref().clone()))
        .collect();
    let env = match java {
        Some(_) => jvm_environment(env, rlimits.memory_bytes),
        None => env,
    };
    let program = BotProgram {
        program,
        args,
        dir,
        env,
        rlimits,
        sandbox: spec.map(Arc::new),
        private_dir: false,
    };
    Some((program, java, written))
}

/// The folder a bot runs in (canonical if it exists), and why it cannot be one.
fn bot_dir(base: &Path, dir: &str) -> (PathBuf, Option<String>) {
    let path = base.join(dir);
    let why = nul_problem("`dir`", dir)
        .or_else(|| (!path.is_dir()).then(|| format!("`dir` {} is not a folder", path.display())));
    (path.canonicalize().unwrap_or(path), why)
}

/// Where and why a bot's `env` holds a variable no process can be given.
fn env_problems(env: &BTreeMap<Spanned<String>, Spanned<String>>) -> Vec<(Range<usize>, String)> {
    let mut problems = Vec::new();
    for (name, value) in env {
        let what = format!("`env` value of `{}`", escape_control(name.get_ref()));
        problems.extend(env_name_problem(name.get_ref()).map(|why| (name.span(), why)));
        problems.extend(nul_problem(&what, value.get_ref()).map(|why| (value.span(), why)));
    }
    problems
}

/// Why `name` cannot name an environment variable: empty, or holding `=` (a process would
/// see the name end there and the rest join the value) or a NUL byte. Any other character
/// works, even where a shell could not name it.
fn env_name_problem(name: &str) -> Option<String> {
    let shown = escape_control(name);
    if name.is_empty() {
        Some("an `env` name must not be empty".to_owned())
    } else if name.contains('=') {
        Some(format!(
            "`env` name `{shown}` holds `=`, which would end the name there"
        ))
    } else {
        nul_problem(&format!("`env` name `{shown}`"), name)
    }
}

/// Where and why a word of `command` (the whole line, or one element of an array) holds a
/// NUL byte.
fn command_nul(command: &Spanned<RawCommand>) -> Option<(Range<usize>, String)> {
    let words: Vec<(&str, Range<usize>)> = match command.get_ref() {
        RawCommand::Line(line) => vec![(line, command.span())],
        RawCommand::Words(words) => (words.iter())
            .map(|word| (word.get_ref().as_str(), word.span()))
            .collect(),
    };
    (words.into_iter()).find_map(|(word, span)| Some((span, nul_problem("`command`", word)?)))
}

/// Why `what`, passed to the kernel as a C string (an argument, a variable, a path), cannot
/// be: such a string ends at its first NUL byte.
fn nul_problem(what: &str, value: &str) -> Option<String> {
    value.contains('\0').then(|| {
        format!("{what} holds a NUL byte (\\u0000), which no argument, variable or path can hold")
    })
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
fn string_value(value: &Spanned<toml::Value>) -> Result<String, (Range<usize>, String)> {
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

/// Why `name` (as written, before trimming spaces) cannot name a bot, if it cannot: empty,
/// too long, or with a character that is unsafe on a terminal ([`is_unsafe`]; a newline
/// would also forge a line of a table or a log).
pub fn bot_name_problem(name: &str) -> Option<String> {
    let trimmed = name.trim();
    let length = trimmed.chars().count();
    if let Some(c) = name.chars().find(|&c| is_unsafe(c)) {
        Some(format!(
            "bot name `{}` contains the control or invisible character U+{:04X}; names are shown on \
             terminals and in tables, so they may not hold control characters, newlines, \
             bidirectional overrides or characters that show as nothing",
            escape_control(name),
            u32::from(c)
        ))
    } else if trimmed.is_empty() {
        Some("a bot's `name` must not be empty".to_owned())
    } else if length > MAX_NAME_CHARS {
        let start: String = trimmed.chars().take(16).collect();
        Some(format!(
            "bot name `{start}…` has {length} characters, more than the {MAX_NAME_CHARS} \
             allowed"
        ))
    } else {
        None
    }
}

/// What a bot reads: its folder, its program's folder (for a program in a `bin` folder, the
/// whole installation around it: an interpreter in `<prefix>/bin` needs `<prefix>/lib`; for
/// a version manager's `shims` folder, the manager around it: pyenv's `python3` shim runs
/// `<root>/libexec/pyenv`, which runs `<root>/versions/<version>/bin/python3`),
/// its compiled classes, and every existing absolute path its arguments name (each part of
/// a `:`-separated class path too): the folder itself, or a file's folder.
fn readable_folders(
    dir: &Path,
    program: &Path,
    args: &[String],
    java: Option<&JavaBuild>,
) -> Vec<PathBuf> {
    let mut folders = vec![dir.to_path_buf()];
    folders.extend(program.parent().map(|folder| match folder.file_name() {
        Some(name) if name == "bin" || name == "shims" => {
            folder.parent().unwrap_or(folder).to_path_buf()
        }
        _ => folder.to_path_buf(),
    }));
    folders.extend(java.map(|build| build.classes.clone()));
    for part in args.iter().flat_map(|arg| arg.split(':')) {
        let path = Path::new(part);
        if !path.is_absolute() {
            continue;
        }
        if path.is_dir() {
            folders.push(path.to_path_buf());
        } else if let Some(parent) = path.parent().filter(|_| path.exists()) {
            folders.push(parent.to_path_buf());
        }
    }
    folders
}

/// Hides the tournament file's folder and every other bot's folders from each sandboxed
/// bot (its own stay visible, also when they lie inside a hidden one).
fn hide_from_each_other(bots: &mut [Bot], tournament_folder: &Path) {
    let folders: Vec<PathBuf> = bots.iter().map(|bot| bot.program.dir.clone()).collect();
    for bot in bots.iter_mut() {
        if let Some(spec) = bot.program.sandbox.as_mut().map(Arc::make_mut) {
            spec.hidden.push(tournament_folder.to_path_buf());
            spec.hidden.extend(
                folders
                    .iter()
                    .filter(|folder| **folder != bot.program.dir)
                    .cloned(),
            );
        }
    }
}

/// A bot outside any tournament file (`arena check`): the command `words` run in `dir`, its
/// program found like a tournament file's, with the default limits, in the default sandbox.
pub fn standalone_bot(words: &[String], dir: &Path) -> Result<(BotProgram, Limits), String> {
    let (program, args) = words.split_first().ok_or("the command is empty")?;
    let program = resolve_program(program, dir)?;
    Ok(standalone(program, args, dir, None))
}

/// A Java bot outside any tournament file (`arena check --java`): its `sources` compiled by
/// `kind`'s Java host into the cache, as a tournament compiles them, and run alone in its
/// own JVM in `dir`, with the default limits, in the default sandbox.
pub fn standalone_java_bot(
    kind: GameKind,
    sources: &[PathBuf],
    dir: &Path,
) -> Result<(BotProgram, Limits), String> {
    let Some(host) = kind.java_host() else {
        return Err(format!("--java: {kind} has no Java host"));
    };
    let build = host.build(sources, &cache_root())?;
    let java = resolve_program("java", dir)?;
    let args = host.solo_args(&build, megabytes(DEFAULT_MEMORY_MB));
    Ok(standalone(java, &args, dir, Some(&build)))
}

/// `program` with `args` run in `dir` with the default limits and sandbox.
fn standalone(
    program: PathBuf,
    args: &[String],
    dir: &Path,
    java: Option<&JavaBuild>,
) -> (BotProgram, Limits) {
    let rlimits = ResourceLimits {
        memory_bytes: megabytes(DEFAULT_MEMORY_MB),
        cpu_seconds: nonzero(DEFAULT_CPU_SECONDS),
    };
    let sandbox = BoxSpec {
        readable: readable_folders(dir, &program, args, java),
        max_processes: DEFAULT_MAX_PROCESSES,
        ..BoxSpec::default()
    };
    let env = match java {
        Some(_) => jvm_environment(BTreeMap::new(), rlimits.memory_bytes),
        None => BTreeMap::new(),
    };
    let program = BotProgram {
        program,
        args: args.to_vec(),
        dir: dir.to_path_buf(),
        env,
        rlimits,
        sandbox: Some(Arc::new(sandbox)),
        private_dir: false,
    };
    let limits = Limits {
        max_reply_bytes: DEFAULT_MAX_REPLY_BYTES,
        max_stderr_bytes: DEFAULT_MAX_STDERR_BYTES,
    };
    (program, limits)
}

/// The program and arguments of a `command`.
fn command_launch(command: &RawCommand, dir: &Path) -> Result<(PathBuf, Vec<String>), String> {
    let Some(mut words) = command.words() else {
        return Err("`command` has an unclosed quote".to_owned());
    };
    if words.is_empty() || words[0].is_empty() {
        return Err("`command` is empty".to_owned());
    }
    let program_word = words.remove(0);
    resolve_program(&program_word, dir).map(|program| (program, words))
}

/// Compiles a bot's Java sources (relative to the tournament file) with the game's host and
/// returns how to run it alone (`java -cp <classes> <host main> <bot class>`, under an
/// address-space limit of `memory_bytes`) and its build.
fn java_launch(
    context: &BotContext<'_>,
    sources: &[String],
    dir: &Path,
    memory_bytes: Option<u64>,
) -> Result<(PathBuf, Vec<String>, Option<JavaBuild>), String> {
    let Some(host) = context.kind.java_host() else {
        return Err(format!(
            "`java` bots need a game with a Java host, and {} has none",
            context.kind
        ));
    };
    if let Some(mb) = memory_bytes
        .map(|bytes| bytes / MIB)
        .filter(|&mb| mb < MIN_JVM_MEMORY_MB)
    {
        return Err(format!(
            "its `memory_mb` is {mb}, and a JVM needs at least {MIN_JVM_MEMORY_MB} (0 for no \
             limit): under that it may not start, and cannot say why"
        ));
    }
    let sources: Vec<PathBuf> = sources.iter().map(|s| context.base.join(s)).collect();
    let build = host.build(&sources, &cache_root())?;
    let java = resolve_program("java", dir)?;
    Ok((java, host.solo_args(&build, memory_bytes), Some(build)))
}

/// Where and why the resource limits a file or a bot sets hold a value the run could not
/// apply.
fn limit_problems(
    memory_mb: Option<&Spanned<u64>>,
    cpu_seconds: Option<&Spanned<u64>>,
    max_processes: Option<&Spanned<u32>>,
) -> Vec<(Range<usize>, String)> {
    [
        out_of_range("memory_mb", memory_mb, 0..=MAX_MEMORY_MB),
        out_of_range("cpu_seconds", cpu_seconds, 0..=MAX_CPU_SECONDS),
        out_of_range("max_processes", max_processes, 1..=MAX_PROCESSES.into()),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Where and why `value`, of `key`, lies outside `range` (whose start, if 0, means none).
fn out_of_range<T: Copy + Into<u64>>(
    key: &str,
    value: Option<&Spanned<T>>,
    range: RangeInclusive<u64>,
) -> Option<(Range<usize>, String)> {
    let value = value.filter(|v| !range.contains(&(*v.get_ref()).into()))?;
    let none = if *range.start() == 0 {
        " (0 = none)"
    } else {
        ""
    };
    let (start, end) = range.into_inner();
    Some((
        value.span(),
        format!("`{key}` must be from {start} to {end}{none}"),
    ))
}

/// A limit in megabytes as bytes; 0 means no limit. Saturating: a value past
/// [`MAX_MEMORY_MB`] is reported, never used.
fn megabytes(mb: u64) -> Option<u64> {
    nonzero(mb).map(|mb| mb.saturating_mul(MIB))
}

/// 0 means no limit.
fn nonzero(value: u64) -> Option<u64> {
    (value > 0).then_some(value)
}

/// Finds the program to execute: a word with a `/` is a path relative to the bot's folder;
/// a bare name is looked up in `PATH`, as a shell would.
fn resolve_program(word: &str, dir: &Path) -> Result<PathBuf, String> {
    if word.contains('/') {
        // Without `.` parts: `./bot.py` in `/x` is `/x/bot.py` in messages, not `/x/./bot.py`.
        let path: PathBuf = dir.join(word).components().collect();
        if path.is_dir() {
            return Err(format!(
                "program {} is a folder, not a program",
                path.display()
            ));
        }
        return match executable(&path) {
            Some(true) => Ok(without_dot_dot(path)),
            Some(false) => Err(crate::bots::preflight::not_executable(&path, word)),
            None => Err(format!(
                "program {} does not exist{}",
                path.display(),
                one_word_hint(word)
            )),
        };
    }
    let search = env::var_os("PATH").unwrap_or_default();
    env::split_paths(&search)
        .map(|folder| folder.join(OsStr::new(word)))
        .find(|candidate| executable(candidate) == Some(true))
        .ok_or_else(|| {
            // As in a shell, a bare name is never looked up in the bot's own folder.
            let hint = if dir.join(word).is_file() {
                format!(" (for {word} in the bot's folder, write `./{word}`)")
            } else {
                one_word_hint(word)
            };
            format!("program `{word}` not found in PATH{hint}")
        })
}

/// What to add when no program is named `word`: a command line given as one word (quoted
/// whole on `arena check`'s command line) holds its spaces.
fn one_word_hint(word: &str) -> String {
    if word.contains(' ') {
        "; a command is its words one by one: its program, then its arguments (quote none \
         of them together)"
            .to_owned()
    } else {
        String::new()
    }
}

/// `path` with its folder canonical (no `..`, no link), the file's own name kept (a program
/// may be a link on purpose). Paths are canonical from loading on, so the runner and a box,
/// which hides folders a `..` would pass through, mean the same folder by the same path.
fn without_dot_dot(path: PathBuf) -> PathBuf {
    match (path.parent().map(Path::canonicalize), path.file_name()) {
        (Some(Ok(folder)), Some(name)) => folder.join(name),
        _ => path,
    }
}

/// `folder` absolute and canonical, also when it does not exist yet (`arena match` names
/// its tournament file in the results folder it is about to make): its longest existing
/// ancestor canonical, the rest as written. So the folder has the same name, and the run
/// the same digest, before and after it is made, whatever `..` or link led to it.
fn canonical_so_far(folder: &Path) -> PathBuf {
    let absolute = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
    let mut missing = Vec::new();
    let mut existing = absolute.as_path();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            return missing
                .iter()
                .rev()
                .fold(canonical, |path, part| path.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name);
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

/// `Some(is_executable)` for an existing file, `None` if there is no file.
fn executable(path: &Path) -> Option<bool> {
    let metadata = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    Some(metadata.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_reads_its_folder_its_programs_installation_and_the_paths_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let classes = dir.path().join("classes");
        std::fs::create_dir(&classes).unwrap();
        let script = dir.path().join("bot.py");
        std::fs::write(&script, "").unwrap();
        let args = [
            "-cp".to_owned(),
            format!("{}:relative", classes.display()),
            script.display().to_string(),
            "/no/such/path".to_owned(),
        ];
        let folders = readable_folders(
            Path::new("/bots/mine"),
            Path::new("/opt/python2/bin/python2"),
            &args,
            None,
        );
        let expected = [
            PathBuf::from("/bots/mine"),
            PathBuf::from("/opt/python2"),
            classes,
            dir.path().to_path_buf(),
        ];
        assert_eq!(folders, expected);
        // A version manager's shim reads the manager around it; another folder is itself.
        let folders = readable_folders(
            Path::new("/b"),
            Path::new("/r/.pyenv/shims/python3"),
            &[],
            None,
        );
        assert_eq!(folders, [Path::new("/b"), Path::new("/r/.pyenv")]);
        let folders = readable_folders(Path::new("/b"), Path::new("/opt/tools/python3"), &[], None);
        assert_eq!(folders, [Path::new("/b"), Path::new("/opt/tools")]);
    }

    #[test]
    fn env_names_are_refused_only_when_no_process_could_see_them() {
        for name in [
            "PATH",
            "lower",
            "1ST",
            "dotted.name",
            "with-dash",
            "été",
            "a b",
        ] {
            assert_eq!(env_name_problem(name), None, "{name}");
        }
        for name in ["", "A=B", "=A", "A\0"] {
            assert!(env_name_problem(name).is_some(), "{name:?}");
        }
    }

    #[test]
    fn a_folder_not_made_yet_is_named_as_it_will_be_once_made() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("sub")).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        let to_be = dir.path().join("link/sub/../results/inner");
        let before = canonical_so_far(&to_be);
        std::fs::create_dir_all(real.join("results/inner")).unwrap();
        assert_eq!(before, canonical_so_far(&to_be));
        assert_eq!(before, real.canonicalize().unwrap().join("results/inner"));
    }
}
