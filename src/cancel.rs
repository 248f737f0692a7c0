//! Stopping a run from outside it. The library never installs signal handlers: whoever runs
//! a tournament hands it a [`Cancel`] and keeps the [`Canceller`], which the `arena` binary
//! triggers from SIGINT, SIGTERM and SIGHUP (see [`crate::signals`]).

use tokio::sync::watch;

/// Why a run was told to stop: the signal that asked for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// SIGINT: Ctrl-C in a terminal.
    Interrupt,
    /// SIGTERM: `timeout`, systemd, Slurm's time limit, a Kubernetes eviction.
    Terminate,
    /// SIGHUP: the terminal or ssh session went away.
    HangUp,
}

impl Stop {
    /// The exit status of a process stopped this way: 128 plus the signal's number, as a
    /// shell reports a process the signal killed.
    pub fn exit_code(self) -> u8 {
        let signal = match self {
            Stop::Interrupt => libc::SIGINT,
            Stop::Terminate => libc::SIGTERM,
            Stop::HangUp => libc::SIGHUP,
        };
        u8::try_from(128 + signal).unwrap_or(u8::MAX)
    }

    /// How the stop is named in messages.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Interrupt => "Ctrl-C",
            Stop::Terminate => "SIGTERM",
            Stop::HangUp => "SIGHUP",
        }
    }
}

/// The receiving side: a run watches it and stops when it fires. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Cancel(watch::Receiver<Option<Stop>>);

/// The triggering side.
#[derive(Debug)]
pub struct Canceller(watch::Sender<Option<Stop>>);

/// A new pair: [`Canceller::cancel`] makes every clone of the [`Cancel`] fire.
pub fn cancellation() -> (Canceller, Cancel) {
    let (sender, receiver) = watch::channel(None);
    (Canceller(sender), Cancel(receiver))
}

impl Canceller {
    /// Fires the cancellation; the first reason given is the one kept. Returns whether this
    /// call fired it (false if it had fired already).
    pub fn cancel(&self, why: Stop) -> bool {
        self.0.send_if_modified(|reason| {
            let first = reason.is_none();
            if first {
                *reason = Some(why);
            }
            first
        })
    }
}

impl Cancel {
    /// A cancellation that never fires.
    pub fn never() -> Cancel {
        cancellation().1
    }

    /// Why the run was cancelled, if it was.
    pub fn reason(&self) -> Option<Stop> {
        *self.0.borrow()
    }

    /// Resolves when the cancellation fires, with its reason; never, for [`Cancel::never`].
    pub async fn cancelled(&mut self) -> Stop {
        match self.0.wait_for(Option::is_some).await {
            Ok(reason) => reason.unwrap_or(Stop::Interrupt),
            // No canceller is left to fire it.
            Err(_) => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(Stop::Interrupt.exit_code(), 130);
        assert_eq!(Stop::Terminate.exit_code(), 143);
        assert_eq!(Stop::HangUp.exit_code(), 129);
    }

    #[tokio::test]
    async fn the_first_reason_is_kept_and_every_clone_sees_it() {
        let (canceller, cancel) = cancellation();
        let mut clone = cancel.clone();
        assert_eq!(cancel.reason(), None);
        assert!(canceller.cancel(Stop::Terminate));
        assert!(!canceller.cancel(Stop::Interrupt));
        assert_eq!(clone.cancelled().await, Stop::Terminate);
        assert_eq!(cancel.reason(), Some(Stop::Terminate));
    }

    #[tokio::test]
    async fn never_never_fires() {
        let mut never = Cancel::never();
        let timeout = tokio::time::timeout(std::time::Duration::from_millis(20), never.cancelled());
        assert!(timeout.await.is_err());
    }
}
