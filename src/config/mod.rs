//! The tournament file: parsed by serde into raw types, then checked into a [`Tournament`].
//! Every problem is collected and reported at once, each with its file, line and column.

mod error;
mod raw;
mod validate;

pub use error::{ConfigError, Problem};
pub use validate::{Bot, JavaHostMode, Tournament};
pub(crate) use validate::{DEFAULT_SETUP_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, standalone_bot};
