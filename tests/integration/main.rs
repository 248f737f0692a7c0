//! End-to-end tests: the process layer against real (tiny, often hostile) processes, and the
//! `arena` binary against tournament files.

mod cave;
mod check;
mod cli;
mod config;
mod deploy;
mod driver;
mod failures;
mod gauntlet;
mod integrity;
mod java;
mod mutate;
mod output;
mod packaging;
mod preflight;
mod process;
mod quick_match;
mod replay;
mod report;
mod resume;
mod reuse;
mod sandbox;
mod shard;
mod sprt;
mod support;
