//! `arena check`: a bot against its game's protocol in prepared positions, before a long run.
//! `probe` is the pure vocabulary games build their probes with; `runner` sends them through
//! the process layer; `render` prints what happened.

mod render;
mod runner;

pub use render::render_check;
pub use runner::{ProbeReport, check_bot};
