//! The pure part of `arena`: the [`engine::Game`] interface and the five games' rules engines,
//! with what `arena check` and the replays need from them ([`probe`], [`snapshot`]).
//!
//! Nothing here starts a process, reads a clock, touches a file or needs a runtime: an engine
//! turns [`engine::Answer`]s into its next [`engine::Step`], from its options and its seed
//! alone. The crate's dependencies (serde, rand_chacha, thiserror) keep it that way; the
//! runner that does the I/O is the `arena` crate. Every game declares itself
//! once ([`declaration`]) and is listed once ([`registry`]).
#![warn(missing_docs)]
// `cargo doc` documents private items too (.cargo/config.toml): public items' docs may link
// to private ones.
#![allow(rustdoc::private_intra_doc_links)]

pub mod alienwar;
pub mod cave;
pub mod compass;
pub mod decimal;
pub mod declaration;
pub mod eggs;
pub mod engine;
pub mod petri;
pub mod probe;
pub mod registry;
pub mod seeded;
pub mod slime;
pub mod snapshot;
#[cfg(test)]
mod toy;

pub use declaration::{
    Aggregate, Bounds, JavaHost, OptionsParser, Pairing, RegisteredGame, Scoring, Settings,
    StatColumn, Templates,
};
pub use registry::{AnyGame, GameKind, GameOptions};
