//! The tournament file: parsed by serde into raw types, then checked into a [`Tournament`].
//! Every problem is collected and reported at once, each with its file, line and column.

mod document;
mod error;
mod places;
mod raw;
mod source;
mod validate;
mod wording;

pub use error::{ConfigError, Problem};
pub use source::MAX_FILE_BYTES;
pub use validate::{
    Bot, DEFAULT_SETUP_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, JavaHostMode, MAX_JOBS, MAX_NAME_CHARS,
    StartableCheck, Timeouts, Tournament, bot_name_problem, standalone_bot, standalone_java_bot,
    too_few_bots,
};
