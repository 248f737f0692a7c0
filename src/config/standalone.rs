//! A bot given on `arena check`'s command line rather than in a tournament file: its
//! program found and launched as a file's bot would be, with the limits the check was given
//! (a file's defaults unless told), in the default sandbox.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::limits::{DEFAULT_CPU_SECONDS, DEFAULT_MEMORY_MB, megabytes, nonzero};
use super::program::resolve_program;
use super::validate::{DEFAULT_MAX_REPLY_BYTES, DEFAULT_MAX_STDERR_BYTES};
use super::visibility::readable_folders;
use crate::bots::{
    BotProgram, JavaBuild, JavaHostRuntime, Limits, MIN_JVM_MEMORY_MB, ResourceLimits, cache_root,
    jvm_environment,
};
use crate::sandbox::{BoxSpec, DEFAULT_MAX_PROCESSES};
use arena_games::GameKind;

/// The limits a bot runs under, each a tournament file's key of the same name (`memory_mb`,
/// `cpu_seconds`, `max_processes`, `max_reply_bytes`), as `arena check` and `arena match`
/// take them, so that a contestant can try a bot under a competition's limits. Values are in
/// range: the command line checks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitSettings {
    /// Address space in MiB; 0 = none.
    pub memory_mb: u64,
    /// CPU seconds per process; 0 = none.
    pub cpu_seconds: u64,
    /// Processes and threads in the bot's box.
    pub max_processes: u32,
    /// The longest reply, in bytes.
    pub max_reply_bytes: usize,
}

impl Default for LimitSettings {
    /// A tournament file's defaults.
    fn default() -> LimitSettings {
        LimitSettings {
            memory_mb: DEFAULT_MEMORY_MB,
            cpu_seconds: DEFAULT_CPU_SECONDS,
            max_processes: DEFAULT_MAX_PROCESSES,
            max_reply_bytes: DEFAULT_MAX_REPLY_BYTES,
        }
    }
}

/// A bot outside any tournament file (`arena check`): the command `words` run in `dir`, its
/// program found like a tournament file's, with `limits`, in the default sandbox.
pub fn standalone_bot(
    words: &[String],
    dir: &Path,
    limits: LimitSettings,
) -> Result<(BotProgram, Limits), String> {
    let (program, args) = words.split_first().ok_or("the command is empty")?;
    let program = resolve_program(program, dir)?;
    Ok(standalone(program, args, dir, None, limits))
}

/// A Java bot outside any tournament file (`arena check --java`): its `sources` compiled by
/// `kind`'s Java host into the cache, as a tournament compiles them, and run alone in its
/// own JVM in `dir`, with `limits`, in the default sandbox.
pub fn standalone_java_bot(
    kind: GameKind,
    sources: &[PathBuf],
    dir: &Path,
    limits: LimitSettings,
) -> Result<(BotProgram, Limits), String> {
    let Some(host) = kind.java_host() else {
        return Err(format!("--java: {kind} has no Java host"));
    };
    if limits.memory_mb != 0 && limits.memory_mb < MIN_JVM_MEMORY_MB {
        return Err(format!(
            "--memory-mb {}: a JVM needs at least {MIN_JVM_MEMORY_MB} (0 for no limit): under \
             that it may not start, and cannot say why",
            limits.memory_mb
        ));
    }
    let build = host.build(sources, &cache_root())?;
    let java = resolve_program("java", dir)?;
    let args = host.solo_args(&build, megabytes(limits.memory_mb));
    Ok(standalone(java, &args, dir, Some(&build), limits))
}

/// `program` with `args` run in `dir` with `limits` and the default sandbox.
fn standalone(
    program: PathBuf,
    args: &[String],
    dir: &Path,
    java: Option<&JavaBuild>,
    limits: LimitSettings,
) -> (BotProgram, Limits) {
    let rlimits = ResourceLimits {
        memory_bytes: megabytes(limits.memory_mb),
        cpu_seconds: nonzero(limits.cpu_seconds),
    };
    let sandbox = BoxSpec {
        readable: readable_folders(dir, &program, args, java),
        max_processes: limits.max_processes,
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
    let caps = Limits {
        max_reply_bytes: limits.max_reply_bytes,
        max_stderr_bytes: DEFAULT_MAX_STDERR_BYTES,
    };
    (program, caps)
}
