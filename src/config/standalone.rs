//! A bot given on `arena check`'s command line rather than in a tournament file: its
//! program found and launched as a file's bot would be, with the default limits and sandbox.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::limits::{DEFAULT_CPU_SECONDS, DEFAULT_MEMORY_MB, megabytes, nonzero};
use super::program::resolve_program;
use super::validate::{DEFAULT_MAX_REPLY_BYTES, DEFAULT_MAX_STDERR_BYTES};
use super::visibility::readable_folders;
use crate::bots::{
    BotProgram, JavaBuild, JavaHostRuntime, Limits, ResourceLimits, cache_root, jvm_environment,
};
use crate::sandbox::{BoxSpec, DEFAULT_MAX_PROCESSES};
use arena_games::GameKind;

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
