//! The tournament file: parsed by serde into raw types, then checked into a [`Tournament`].
//! Every problem is collected and reported at once, each with its file, line and column.

mod bot_entry;
mod bot_name;
mod document;
mod error;
mod limits;
mod places;
mod program;
mod raw;
mod source;
mod standalone;
mod validate;
mod visibility;
mod wording;

pub use bot_name::{MAX_NAME_CHARS, bot_name_problem};
pub use error::{ConfigError, Problem};
pub use limits::{
    DEFAULT_CPU_SECONDS, DEFAULT_MAX_REPLY_BYTES, DEFAULT_MEMORY_MB, LimitSettings,
    MAX_CPU_SECONDS, MAX_MEMORY_MB, cpu_millis, cpus_problem,
};
pub use source::MAX_FILE_BYTES;
pub use standalone::{standalone_bot, standalone_java_bot};
pub use validate::{
    Bot, DEFAULT_SETUP_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, JavaHostMode, MAX_JOBS, StartableCheck,
    Timeouts, Tournament, too_few_bots,
};
