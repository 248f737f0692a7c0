//! Leaderboards: computed once from a journal (pure), rendered in several formats.

mod json;
mod leaderboard;
mod table;

pub use json::render_json;
pub use leaderboard::{Leaderboard, PairRecord, Standing};
pub use table::render_table;
