//! A bot given on `arena check`'s command line rather than in a tournament file: its
//! program found and launched as a file's bot would be, with the limits the check was given
//! (a file's defaults unless told), in the default sandbox.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::limits::{LimitSettings, megabytes};
use super::program::resolve_program;
use super::validate::DEFAULT_MAX_STDERR_BYTES;
use super::visibility::readable_folders;
use crate::bots::{
    BotProgram, JavaBuild, JavaHostRuntime, Limits, MIN_JVM_MEMORY_MB, cache_root, jvm_environment,
};
use crate::sandbox::BoxSpec;
use arena_games::GameKind;

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
    let rlimits = limits.resource_limits();
    let sandbox = BoxSpec {
        readable: readable_folders(dir, &program, args, java),
        max_processes: limits.max_processes,
        cpu_millis: limits.cpu_millis,
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
