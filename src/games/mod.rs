//! The games `arena` can run. Each game is a pure engine (see [`crate::engine`]).

pub mod petri;
