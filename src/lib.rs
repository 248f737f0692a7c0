//! `arena`: a tournament runner for King-of-the-Hill bot competitions.
#![warn(missing_docs)]

pub mod engine;
pub mod games;
