//! Checking the `[[bots]]` entries: each one's folder, environment, limits and program,
//! every mistake a problem at its place in the file, so that one run reports them all.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use toml::Spanned;

use super::bot_name::{name_refusal, written_name};
use super::error::Problem;
use super::limits::{cpu_millis, limit_problems, megabytes, nonzero};
use super::places::unstartable;
use super::program::{command_launch, java_launch};
use super::raw::{RawBot, RawCommand, SandboxMode};
use super::validate::{Bot, StartableCheck};
use super::visibility::{hide_from_each_other, readable_folders};
use crate::bots::{BotProgram, JavaBuild, ResourceLimits, jvm_environment};
use crate::sandbox::BoxSpec;
use crate::text::escape_control;
use arena_games::GameKind;

/// What the bots need from the game: the names its built-in players take, and its Java
/// host for bots given as Java sources.
pub(super) struct BotContext<'a> {
    pub(super) source: &'a str,
    pub(super) base: &'a Path,
    pub(super) kind: GameKind,
    pub(super) built_in_names: Vec<&'static str>,
    pub(super) startable: StartableCheck<'a>,
    /// The names of the entries the command line leaves out (`--exclude`): checked no
    /// further than their names.
    pub(super) left_out: &'a BTreeSet<String>,
}

/// The tournament-wide sandbox settings, which each bot may override.
#[derive(Debug, Clone, Copy)]
pub(super) struct SandboxDefaults {
    pub(super) on: bool,
    pub(super) max_processes: u32,
    /// `cpus`, in thousandths of a core.
    pub(super) cpu_millis: Option<u32>,
}

/// Checks every `[[bots]]` entry and resolves its folder and program (compiling Java bots);
/// the bots, and where each one's program is written, by name.
pub(super) fn check_bots(
    context: &BotContext<'_>,
    raw: &[Spanned<RawBot>],
    settings: (ResourceLimits, SandboxDefaults),
    problems: &mut Vec<Problem>,
) -> (Vec<Bot>, BTreeMap<String, Range<usize>>) {
    let source = context.source;
    let mut bots: Vec<Bot> = Vec::new();
    let mut places = BTreeMap::new();
    let mut seen = BTreeMap::new();
    // The folders of the entries left out: hidden from the bots that play all the same.
    let mut left_out_folders = Vec::new();
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
        if name
            .as_ref()
            .is_some_and(|name| context.left_out.contains(name))
        {
            let dir = bot.get_ref().dir.as_ref();
            let folder = dir.map(|dir| bot_dir(context.base, dir.get_ref()));
            left_out_folders.extend(
                folder
                    .filter(|(_, why)| why.is_none())
                    .map(|(path, _)| path),
            );
            continue;
        }
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
    hide_from_each_other(&mut bots, context.base, &left_out_folders);
    (bots, places)
}

/// One `[[bots]]` entry, and how messages about it name it (by its name, or by its place
/// among the bots if it has none).
struct BotEntry<'a> {
    raw: &'a RawBot,
    label: String,
    name_span: Range<usize>,
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
        raw.cpus.as_ref(),
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
        cpu_millis: (raw.cpus.as_ref()).map_or(sandbox.cpu_millis, |c| cpu_millis(*c.get_ref())),
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
