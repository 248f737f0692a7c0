//! Telling the runner's own failures from the bot's. A runner out of descriptors, processes
//! or memory fails every bot alike: counted as the bots' crashes, it would turn one broken run
//! into a leaderboard of blamed bots. So does a box whose process the machine refuses to set
//! up (a limit above arena's own hard limit), and an engine that cannot set up its game.

use std::error::Error;
use std::fmt;
use std::io;

use crate::sandbox::SetupRefused;

/// A game could not be played for a reason of the runner's, not of any bot's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunnerFault {
    /// A bot process could not be started because the runner itself ran out of a resource.
    Resource(String),
    /// The machine refused to set up a bot's process in its box (`sandbox::SetupRefused`).
    Sandbox(String),
    /// The engine refused to set up the game (options the loader should have refused).
    Setup(String),
}

impl RunnerFault {
    /// The runner's fault behind `error`, if the error is one of a resource of the runner's
    /// (`EMFILE`, `ENFILE`, `EAGAIN`, `ENOMEM` from its own pipes, forks and sockets).
    /// Errors reported from inside a box are the bot's (its box's limits are its own),
    /// except the box's refusal to set the process up, which comes before any of the bot's.
    pub fn of(error: &io::Error) -> Option<RunnerFault> {
        if let Some(refused) = error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<SetupRefused>())
        {
            return Some(RunnerFault::Sandbox(refused.to_string()));
        }
        let errno = os_error(error)?;
        [libc::EMFILE, libc::ENFILE, libc::EAGAIN, libc::ENOMEM]
            .contains(&errno)
            .then(|| RunnerFault::Resource(error.to_string()))
    }
}

impl fmt::Display for RunnerFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunnerFault::Resource(why) => write!(
                f,
                "the runner cannot start a bot process: {why} (a limit of the runner, not a \
                 fault of the bot: raise `ulimit -n` or `ulimit -u`, or lower `jobs`)"
            ),
            RunnerFault::Sandbox(why) => write!(f, "the sandbox cannot start a bot: {why}"),
            RunnerFault::Setup(why) => write!(f, "the game cannot be set up: {why}"),
        }
    }
}

impl Error for RunnerFault {}

/// The operating-system error code of `error` or of an error it wraps.
fn os_error(error: &io::Error) -> Option<i32> {
    let mut inner: Option<&(dyn Error + 'static)> = Some(error);
    while let Some(error) = inner {
        if let Some(code) = error
            .downcast_ref::<io::Error>()
            .and_then(io::Error::raw_os_error)
        {
            return Some(code);
        }
        inner = error
            .downcast_ref::<io::Error>()
            .and_then(|error| error.get_ref())
            .map(|wrapped| wrapped as &(dyn Error + 'static))
            .or_else(|| error.source());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runners_resources_are_its_faults_and_a_missing_program_is_not() {
        for errno in [libc::EMFILE, libc::ENFILE, libc::EAGAIN, libc::ENOMEM] {
            assert!(RunnerFault::of(&io::Error::from_raw_os_error(errno)).is_some());
        }
        for errno in [libc::ENOENT, libc::EACCES, libc::ENOEXEC] {
            assert_eq!(RunnerFault::of(&io::Error::from_raw_os_error(errno)), None);
        }
        assert_eq!(
            RunnerFault::of(&io::Error::other("fork: EAGAIN in the box")),
            None
        );
        let refused = io::Error::other(SetupRefused("RLIMIT_NPROC: EPERM".to_owned()));
        assert_eq!(
            RunnerFault::of(&refused),
            Some(RunnerFault::Sandbox("RLIMIT_NPROC: EPERM".to_owned()))
        );
    }

    #[test]
    fn a_wrapped_error_keeps_its_code() {
        #[derive(Debug)]
        struct Context(io::Error);
        impl fmt::Display for Context {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "cannot start the helper: {}", self.0)
            }
        }
        impl Error for Context {
            fn source(&self) -> Option<&(dyn Error + 'static)> {
                Some(&self.0)
            }
        }
        let emfile = io::Error::from_raw_os_error(libc::EMFILE);
        let wrapped = io::Error::new(emfile.kind(), Context(emfile));
        let fault = RunnerFault::of(&wrapped).expect("EMFILE under the context");
        assert!(
            fault.to_string().contains("cannot start the helper"),
            "{fault}"
        );
    }
}
