//! How to start one bot: its validated command, folder and environment.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Stdio;

use tokio::process::Command;

/// Variables passed through from the runner's environment; everything else is cleared so
/// that bots see the same environment on every machine and cannot read the runner's secrets.
const PASSED_THROUGH: &[&str] = &[
    "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "USER",
];

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
    /// A reply longer than this is discarded and the process killed.
    pub max_reply_bytes: usize,
    /// Only the last this many bytes of stderr are kept.
    pub max_stderr_bytes: usize,
}

impl BotProgram {
    /// A command for one process of this bot: its own process group, a clean environment,
    /// stdout and stderr piped, stdin as the caller needs.
    pub(crate) fn command(&self, env: &CallEnv, stdin: Stdio) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .current_dir(&self.dir)
            .env_clear()
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        for key in PASSED_THROUGH {
            if let Some(value) = std::env::var_os(key) {
                command.env(key, value);
            }
        }
        command
            .envs(&self.env)
            .env("ARENA_GAME", env.game)
            .env("ARENA_SEED", env.seed.to_string())
            .env("ARENA_SEAT", env.seat.to_string());
        command
    }
}
