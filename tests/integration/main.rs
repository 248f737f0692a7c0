//! End-to-end tests: the process layer against real (tiny, often hostile) processes, and the
//! `arena` binary against tournament files.

mod cave;
mod check;
mod cli;
mod config;
mod driver;
mod failures;
mod integrity;
mod java;
mod mutate;
mod preflight;
mod process;
mod replay;
mod report;
mod resume;
mod reuse;
mod sandbox;
mod shard;
mod support;
