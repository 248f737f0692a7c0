//! The results journal: append-only JSON Lines, one record per line, flushed as each game
//! finishes, so a crash loses at most the games still running. Leaderboards are computed
//! from the journal, never from in-memory state.
//!
//! Every line is an object `{"type": ..., "data": {...}}`. The first line is a `header`;
//! each further line is a `game`:
//!
//! ```text
//! {"type":"header","data":{"format_version":2,"arena_version":"0.1.0","game":"petri","seed":1,"games":100,"bots":["a","b"],"total_games":100,"config_digest":"5f0c…","sandbox":"on","rules":"16fe…","bounds":{"min_score":0,"max_score":1,"invalid_per_request":1}}}
//! {"type":"game","data":{"index":0,"seed":123,"summary":"...","duration_ms":84,"seats":[{"bot":"a","score":1,"result":"win","requests":40,"timeouts":0,"crashes":0,"invalid_replies":0,"digest":"3ddd…"},{"bot":"b",...}]}}
//! ```
//!
//! Games with figures beyond the score add them per seat as `"stats":{"gold":3,...}`, and a
//! seat with invalid replies counts them by reason as
//! `"invalid_reasons":{"the attack strength is not 1, 2 or 3":4}`.
//!
//! The header also records the tournament's `bounds` (see
//! [`Bounds`](arena_games::Bounds)): the range of a seat's score and how many invalid replies
//! one request can count, which every game is checked against.
//!
//! Game lines appear in completion order; readers order them by `index`. Players built into
//! a game (AlienWar's prey) follow the bots' seats, marked `"built_in":true`.

mod check;
mod error;
#[cfg(test)]
mod fixtures;
mod reader;
mod records;
mod versions;
mod writer;

pub use error::JournalError;
pub use reader::{Journal, JournalReader};
pub use records::{GameRecord, Header, OVERSIZED_REASON, Record, Sandboxing, SeatRecord};
pub use versions::BotVersions;
pub use writer::JournalWriter;

/// Bumped whenever a field changes meaning.
pub const FORMAT_VERSION: u32 = 2;

/// The journal's file name inside a results folder.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// How every journal starts: its header line's first bytes.
pub const HEADER_START: &[u8] = br#"{"type":"header""#;
