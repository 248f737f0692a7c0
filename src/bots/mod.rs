//! The process layer: starts bot processes, talks to them and bounds them. It knows nothing
//! about games: it moves bytes in and out under time and size limits and reports what
//! happened as data ([`CallResult`]), never as an error.

mod blocking;
mod call;
mod capture;
mod child;
mod fault;
mod group;
mod java;
mod oneshot;
pub mod preflight;
mod process;
mod program;
mod replies;
mod session;

pub use call::{CallResult, CallStatus, Exit, Waiting};
pub use fault::RunnerFault;
pub use group::kill_every_group;
pub use java::{
    JavaBuild, JavaHost, JavaHostRuntime, MIN_JVM_MEMORY_MB, cache_root, jvm_environment,
};
pub use oneshot::{OneShotInput, call_once};
pub use process::Place;
pub use program::{BotProgram, CallEnv, Limits, ResourceLimits};
pub use session::Session;
