//! The tournament file exactly as written: serde types, no checks beyond types.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use toml::Spanned;

/// A tournament file. `O` is the options type: a plain table on the first pass (to learn the
/// game), the game's own options type on the second (so unknown options are reported with
/// their exact place by the TOML parser).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTournament<O> {
    /// Any value, like a bot's `name`.
    pub(crate) game: Option<Spanned<toml::Value>>,
    pub(crate) seed: Option<u64>,
    pub(crate) games: Option<Spanned<u32>>,
    pub(crate) jobs: Option<Spanned<usize>>,
    pub(crate) timeout_ms: Option<Spanned<u64>>,
    pub(crate) setup_timeout_ms: Option<Spanned<u64>>,
    pub(crate) max_reply_bytes: Option<Spanned<usize>>,
    pub(crate) max_stderr_bytes: Option<usize>,
    pub(crate) memory_mb: Option<Spanned<u64>>,
    pub(crate) cpu_seconds: Option<Spanned<u64>>,
    pub(crate) java_host: Option<super::JavaHostMode>,
    pub(crate) sandbox: Option<SandboxMode>,
    pub(crate) max_processes: Option<Spanned<u32>>,
    pub(crate) cpus: Option<Spanned<f64>>,
    pub(crate) options: Option<Spanned<O>>,
    /// Spanned, so that a bot without a name is pointed at.
    #[serde(default)]
    pub(crate) bots: Vec<Spanned<RawBot>>,
}

/// One `[[bots]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBot {
    /// Any value: a required string field that serde rejected would be dropped and then
    /// reported missing as well, and stop the reading of everything else; the checks say
    /// whether it is missing or of the wrong type.
    pub(crate) name: Option<Spanned<toml::Value>>,
    pub(crate) command: Option<Spanned<RawCommand>>,
    /// Java source files (relative to the tournament file) run through the game's Java host.
    pub(crate) java: Option<Spanned<Vec<String>>>,
    pub(crate) dir: Option<Spanned<String>>,
    /// Spanned names and values, so that one a process cannot be given is pointed at.
    #[serde(default)]
    pub(crate) env: BTreeMap<Spanned<String>, Spanned<String>>,
    pub(crate) memory_mb: Option<Spanned<u64>>,
    pub(crate) cpu_seconds: Option<Spanned<u64>>,
    pub(crate) sandbox: Option<SandboxMode>,
    pub(crate) network: Option<bool>,
    pub(crate) max_processes: Option<Spanned<u32>>,
    pub(crate) cpus: Option<Spanned<f64>>,
}

/// `sandbox = "on" | "none"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub(crate) enum SandboxMode {
    /// Every process of the bot runs in its box (the default).
    #[serde(rename = "on")]
    On,
    /// The bot runs directly, as the runner's user.
    #[serde(rename = "none")]
    Off,
}

/// A command line: a string split like a POSIX shell splits words (no expansion), or an
/// array of words (each spanned, so that a bad one is pointed at).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RawCommand {
    Line(String),
    Words(Vec<Spanned<String>>),
}

impl<'de> Deserialize<'de> for RawCommand {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CommandVisitor;

        impl<'de> Visitor<'de> for CommandVisitor {
            type Value = RawCommand;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a command line string or an array of strings")
            }

            fn visit_str<E: de::Error>(self, line: &str) -> Result<RawCommand, E> {
                Ok(RawCommand::Line(line.to_owned()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawCommand, A::Error> {
                let mut words = Vec::new();
                while let Some(word) = seq.next_element()? {
                    words.push(word);
                }
                Ok(RawCommand::Words(words))
            }
        }

        deserializer.deserialize_any(CommandVisitor)
    }
}

impl RawCommand {
    /// The words of the command, or `None` if a command line has unbalanced quotes.
    pub(crate) fn words(&self) -> Option<Vec<String>> {
        match self {
            RawCommand::Line(line) => shlex::split(line),
            RawCommand::Words(words) => Some(words.iter().map(|w| w.get_ref().clone()).collect()),
        }
    }
}
