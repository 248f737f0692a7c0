//! The pure part of `arena`: the [`engine::Game`] interface and the five games' rules engines,
//! with what `arena check` and the replays need from them ([`probe`], [`snapshot`]).
//!
//! Nothing here starts a process, reads a clock, touches a file or needs a runtime: an engine
//! turns [`engine::Answer`]s into its next [`engine::Step`], from its options and its seed
//! alone. The crate's dependencies (serde, rand_chacha, thiserror) keep it that way; the
//! runner that does the I/O is the `arena` crate. Every game is declared once in
//! [`registry`].
#![warn(missing_docs)]

pub mod alienwar;
pub mod cave;
pub mod compass;
mod decimal;
pub mod eggs;
pub mod engine;
pub mod petri;
pub mod probe;
pub mod registry;
pub mod seeded;
pub mod slime;
pub mod snapshot;

pub use registry::{
    Aggregate, AnyGame, GameKind, GameOptions, JavaHost, OptionsParser, Pairing, RegisteredGame,
    Scoring, Settings, StatColumn, Templates,
};
