//! `arena`: a tournament runner for King-of-the-Hill bot competitions; this library is the
//! runner, and the `arena` binary (`src/cli/`) its command line.
//!
//! Games are pure state machines ([`arena_games::engine::Game`], in the `arena-games`
//! crate); the [`driver`] connects one game to bot
//! processes ([`bots`]); [`run`] plays a whole tournament in parallel and journals every
//! result ([`journal`]); [`report`] computes and renders the leaderboard from the journal.
//! [`replay`] records and draws games turn by turn; [`shard`] and [`merge`] split a
//! tournament over machines and join the results.
#![warn(missing_docs)]
// `cargo doc` documents private items too (.cargo/config.toml): public items' docs may link
// to private ones.
#![allow(rustdoc::private_intra_doc_links)]

pub mod bots;
pub mod cancel;
pub mod check;
pub mod config;
pub mod driver;
pub mod errors;
pub mod fnv;
pub mod folder_bounds;
pub mod folder_snapshot;
pub mod folders;
mod html;
pub mod journal;
pub mod merge;
pub mod notice;
pub mod progress;
pub mod ratings;
pub mod replay;
pub mod report;
pub mod results;
pub mod reuse;
pub mod run;
pub mod sandbox;
pub mod schedule;
pub mod selection;
pub mod shard;
pub mod signals;
pub mod sprt;
pub mod stderr;
pub mod summary;
pub mod text;
