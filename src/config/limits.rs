//! The limits a tournament file or a bot may set (`memory_mb`, `cpu_seconds`,
//! `max_processes`, `cpus`, and the file's `max_reply_bytes`): their defaults, the range a
//! run can apply, and their conversion to what the kernel is given. Apart, because the file, each
//! bot, `arena check` and `arena match` share them.

use std::ops::{Range, RangeInclusive};

use toml::Spanned;

use crate::bots::ResourceLimits;
use crate::sandbox::{DEFAULT_MAX_PROCESSES, MAX_PROCESSES};

/// Default address-space limit: far above what any KotH bot needs, yet it stops a runaway
/// allocation long before the machine swaps. JVMs and V8 size themselves to fit under it.
pub const DEFAULT_MEMORY_MB: u64 = 4096;
/// Default CPU seconds per bot process: a persistent bot lives a whole game.
pub const DEFAULT_CPU_SECONDS: u64 = 600;
/// Default cap on one reply; no game's reply comes close.
pub const DEFAULT_MAX_REPLY_BYTES: usize = 64 * 1024;
/// The most `cpu_seconds`: the kernel turns the limit, and the hard limit a second above it,
/// into nanoseconds in 64 bits without checking; past this the product wraps around, and a
/// bot is stopped (SIGXCPU) within seconds of CPU time.
pub const MAX_CPU_SECONDS: u64 = u64::MAX / 1_000_000_000 - 1;
/// The most `memory_mb`: the limit in bytes must fit in 64 bits.
pub const MAX_MEMORY_MB: u64 = u64::MAX / MIB;
/// The least `cpus` but none: a cgroup's CPU quota is at least a millisecond in each period
/// of 100 ms.
pub const MIN_CPUS: f64 = 0.01;
/// The most `cpus`: more cores than a machine has.
pub const MAX_CPUS: f64 = 1024.0;
/// Bytes in a megabyte, as `memory_mb` counts them.
pub(super) const MIB: u64 = 1024 * 1024;

/// The limits a bot runs under, each a tournament file's key of the same name (`memory_mb`,
/// `cpu_seconds`, `max_processes`, `cpus`, `max_reply_bytes`), as `arena check` and `arena match`
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
    /// The cores' worth of CPU the bot's box may use, in thousandths of a core; `None`: no
    /// quota.
    pub cpu_millis: Option<u32>,
    /// The longest reply, in bytes.
    pub max_reply_bytes: usize,
}

impl LimitSettings {
    /// The memory and CPU limits as each of the bot's processes is given them.
    pub(super) fn resource_limits(&self) -> ResourceLimits {
        ResourceLimits {
            memory_bytes: megabytes(self.memory_mb),
            cpu_seconds: nonzero(self.cpu_seconds),
        }
    }
}

impl Default for LimitSettings {
    /// A tournament file's defaults.
    fn default() -> LimitSettings {
        LimitSettings {
            memory_mb: DEFAULT_MEMORY_MB,
            cpu_seconds: DEFAULT_CPU_SECONDS,
            max_processes: DEFAULT_MAX_PROCESSES,
            cpu_millis: None,
            max_reply_bytes: DEFAULT_MAX_REPLY_BYTES,
        }
    }
}

/// Where and why the resource limits a file or a bot sets hold a value the run could not
/// apply.
pub(super) fn limit_problems(
    memory_mb: Option<&Spanned<u64>>,
    cpu_seconds: Option<&Spanned<u64>>,
    max_processes: Option<&Spanned<u32>>,
    cpus: Option<&Spanned<f64>>,
) -> Vec<(Range<usize>, String)> {
    [
        out_of_range("memory_mb", memory_mb, 0..=MAX_MEMORY_MB),
        out_of_range("cpu_seconds", cpu_seconds, 0..=MAX_CPU_SECONDS),
        out_of_range("max_processes", max_processes, 1..=MAX_PROCESSES.into()),
        cpus.and_then(|cpus| Some((cpus.span(), cpus_problem(*cpus.get_ref())?))),
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

/// Why `cpus` cannot be applied, if it cannot: 0 (none), or from [`MIN_CPUS`] to
/// [`MAX_CPUS`].
pub fn cpus_problem(cpus: f64) -> Option<String> {
    (cpus != 0.0 && !(MIN_CPUS..=MAX_CPUS).contains(&cpus))
        .then(|| format!("`cpus` must be from {MIN_CPUS} to {MAX_CPUS} (0 = none)"))
}

/// `cpus` in thousandths of a core, as the sandbox takes it; 0 means no quota. Only for a
/// value [`cpus_problem`] accepts.
pub fn cpu_millis(cpus: f64) -> Option<u32> {
    (cpus > 0.0).then(|| (cpus * 1000.0).round() as u32)
}

/// A limit in megabytes as bytes; 0 means no limit. Saturating: a value past
/// [`MAX_MEMORY_MB`] is reported, never used.
pub(super) fn megabytes(mb: u64) -> Option<u64> {
    nonzero(mb).map(|mb| mb.saturating_mul(MIB))
}

/// 0 means no limit.
pub(super) fn nonzero(value: u64) -> Option<u64> {
    (value > 0).then_some(value)
}
