//! Replays: what happened in a game, turn by turn, for people to watch.
//!
//! Engines describe their position as a game-agnostic
//! [`Snapshot`](arena_games::snapshot::Snapshot) (a grid of cell codes with a legend, the
//! scores, a few events); the [`Recorder`] turns a game's snapshots and messages into a
//! [`Replay`], written as one JSON Lines file per game ([`file`](mod@file) documents the
//! format). The terminal printer and the HTML viewer draw any game from that model alone.

pub mod file;
pub mod html;
pub mod recorder;
pub mod text;

pub use file::{Frame, Message, Replay, ReplayEnd, ReplayError, ReplayHeader};
pub use recorder::{MESSAGE_CAP, Recorder};
