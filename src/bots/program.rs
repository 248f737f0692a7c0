//! How to start one bot: its validated command, folder and environment.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Once, OnceLock};

use crate::sandbox::BoxSpec;

/// Variables passed through from the runner's environment; everything else is cleared so
/// that bots see the same environment on every machine and cannot read the runner's secrets.
const PASSED_THROUGH: &[&str] = &[
    "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "USER",
];

/// The values of [`PASSED_THROUGH`] in the runner's environment, read once: the runner
/// never changes its own environment.
fn passed_through() -> &'static [(OsString, OsString)] {
    static VALUES: OnceLock<Vec<(OsString, OsString)>> = OnceLock::new();
    VALUES.get_or_init(|| {
        PASSED_THROUGH
            .iter()
            .filter_map(|key| Some((OsString::from(key), std::env::var_os(key)?)))
            .collect()
    })
}

/// A bot's validated launch specification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotProgram {
    /// The program to execute, resolved to a path that existed when the tournament was loaded.
    pub program: PathBuf,
    /// Arguments given before any per-request arguments.
    pub args: Vec<String>,
    /// The working directory.
    pub dir: PathBuf,
    /// Extra environment variables from the tournament file.
    pub env: BTreeMap<String, String>,
    /// Operating-system limits on every process of the bot.
    pub rlimits: ResourceLimits,
    /// The box its processes run in; `None`: run directly (`sandbox = "none"`).
    pub sandbox: Option<Arc<BoxSpec>>,
    /// Whether `dir` is the bot's private folder, which the bot itself could replace by a
    /// link: it is entered only if no link leads to it.
    pub private_dir: bool,
}

/// Marks every descriptor above stderr of this process close-on-exec, once, before the
/// first bot starts, so a bot inherits none of the runner's (descriptors the runner itself
/// inherited, such as a build jobserver's; Rust opens its own close-on-exec). Done in the
/// runner rather than in each child, because a hook between fork and exec would cost every
/// spawn the fast `posix_spawn` path. Best effort: kernels before 5.11 lack the flag.
pub(crate) fn seal_inherited_descriptors() {
    static SEALED: Once = Once::new();
    SEALED.call_once(|| {
        // SAFETY: close_range only changes descriptor flags; a failure is ignored on purpose.
        unsafe {
            libc::syscall(
                libc::SYS_close_range,
                3u32,
                u32::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            );
        }
    });
}

/// Limits the kernel enforces on each bot process (`prlimit`, inherited by its children).
/// They stop runaway bots; they are not a security sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResourceLimits {
    /// Address space in bytes (`RLIMIT_AS`); allocations beyond it fail.
    pub memory_bytes: Option<u64>,
    /// CPU seconds per process (`RLIMIT_CPU`): SIGXCPU at the limit, SIGKILL a second later.
    pub cpu_seconds: Option<u64>,
}

impl ResourceLimits {
    /// The looser of two limits on each resource (no limit is the loosest), for one
    /// process that serves several bots.
    pub fn widest(self, other: ResourceLimits) -> ResourceLimits {
        let wider = |a: Option<u64>, b: Option<u64>| a.zip(b).map(|(a, b)| a.max(b));
        ResourceLimits {
            memory_bytes: wider(self.memory_bytes, other.memory_bytes),
            cpu_seconds: wider(self.cpu_seconds, other.cpu_seconds),
        }
    }

    /// Applies the limits to the freshly started process `pid` (`prlimit`); its children
    /// inherit them. This happens as soon as the spawn returns, before the program can have
    /// done much: set from outside so that spawning keeps the fast `posix_spawn` path. A
    /// process that is already gone needs no limits.
    pub(crate) fn apply_to(self, pid: u32) {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return;
        };
        let set = |resource, soft: u64, hard: u64| {
            let limit = libc::rlimit {
                rlim_cur: soft as libc::rlim_t,
                rlim_max: hard as libc::rlim_t,
            };
            // SAFETY: prlimit reads the struct we pass and writes nothing (no old-limit
            // pointer); a failure (the process already exited) is harmless.
            unsafe {
                libc::prlimit(pid, resource, &limit, std::ptr::null_mut());
            }
        };
        if let Some(bytes) = self.memory_bytes {
            set(libc::RLIMIT_AS, bytes, bytes);
        }
        if let Some(seconds) = self.cpu_seconds {
            set(libc::RLIMIT_CPU, seconds, seconds + 1);
        }
    }
}

/// Per-game facts every bot process receives as `ARENA_*` environment variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallEnv {
    /// The game's name (`ARENA_GAME`).
    pub game: &'static str,
    /// The game's seed (`ARENA_SEED`), so that bots which want randomness are reproducible.
    pub seed: u64,
    /// The bot's seat in this game, 0-based (`ARENA_SEAT`).
    pub seat: usize,
}

/// Size limits on what the runner keeps from a bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A reply longer than this is discarded and the process killed. The newline that ends
    /// a reply is not counted, in one-shot and persistent mode alike.
    pub max_reply_bytes: usize,
    /// Only the last this many bytes of stderr are kept.
    pub max_stderr_bytes: usize,
}

impl BotProgram {
    /// Its box's CPU quota (`cpus`), in thousandths of a core; none without a box.
    pub fn cpu_quota(&self) -> Option<u32> {
        self.sandbox.as_ref()?.cpu_millis
    }

    /// This program run directly, as the runner's user (`--no-sandbox`).
    pub fn without_sandbox(&self) -> BotProgram {
        BotProgram {
            sandbox: None,
            ..self.clone()
        }
    }

    /// This program run with `folder` as its current directory instead of `dir`. Arguments
    /// that are relative paths of files or folders in `dir` become absolute, so they still
    /// name what they named (options starting with `-` are left alone).
    pub fn run_in(&self, folder: &Path) -> BotProgram {
        let args = self
            .args
            .iter()
            .map(|arg| {
                let path = self.dir.join(arg);
                if arg.starts_with('-') || Path::new(arg).is_absolute() || !path.exists() {
                    arg.clone()
                } else {
                    path.display().to_string()
                }
            })
            .collect();
        BotProgram {
            args,
            dir: folder.to_path_buf(),
            private_dir: true,
            ..self.clone()
        }
    }

    /// The environment of one process of this bot: the variables passed through, the
    /// bot's own and the `ARENA_*` ones, in that order; a later variable replaces an earlier
    /// one of the same name. In a box, `TMPDIR` is the box's private `/tmp`.
    pub(crate) fn environment<'a>(
        &'a self,
        env: &CallEnv,
        boxed: bool,
    ) -> impl Iterator<Item = (&'a OsStr, Cow<'a, OsStr>)> {
        let passed = passed_through()
            .iter()
            .map(|(key, value)| (key.as_os_str(), Cow::Borrowed(value.as_os_str())));
        let private_tmp = boxed.then(|| (OsStr::new("TMPDIR"), Cow::Borrowed(OsStr::new("/tmp"))));
        let own = (self.env.iter())
            .map(|(key, value)| (OsStr::new(key), Cow::Borrowed(OsStr::new(value))));
        let arena = [
            ("ARENA_GAME", env.game.to_owned()),
            ("ARENA_SEED", env.seed.to_string()),
            ("ARENA_SEAT", env.seat.to_string()),
        ]
        .map(|(key, value)| (OsStr::new(key), Cow::Owned(OsString::from(value))));
        passed.chain(private_tmp).chain(own).chain(arena)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_widest_limits_take_the_larger_value_and_no_limit_over_any() {
        let limits = |memory_bytes, cpu_seconds| ResourceLimits {
            memory_bytes,
            cpu_seconds,
        };
        assert_eq!(
            limits(Some(10), Some(5)).widest(limits(Some(20), Some(3))),
            limits(Some(20), Some(5))
        );
        assert_eq!(
            limits(None, Some(5)).widest(limits(Some(20), None)),
            limits(None, None)
        );
    }
}
