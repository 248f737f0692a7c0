//! How the `arena` binary answers SIGINT, SIGTERM and SIGHUP during a run. The first signal
//! stops the run gracefully through its [`Canceller`]: no game is started any more, the
//! running ones are dropped with their bots, the journal keeps every finished game and the
//! partial standings are printed. A second signal at least [`SAME_STOP_WITHIN`] after the
//! first, or any first signal once the games are over, ends the process at once: every bot
//! still running is killed first, and the journal is complete at every line boundary, so
//! nothing is lost but the printout. A signal sooner after the first is the same stop sent
//! twice, and changes nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use tokio::signal::unix::{SignalKind, signal};

use crate::cancel::{Cancel, Canceller, Stop, cancellation};
use crate::errors::Error;

/// The signals that stop a run, the ones watched here. What stops a run may send them to all
/// of its processes at once, bots included (a cluster's job cancel, a service manager's stop).
pub const STOP_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// How soon after the first stop signal another one is the same stop rather than a request
/// to stop at once. Whatever stops a run may send it twice: coreutils `timeout` signals arena
/// and then arena's whole process group, systemd follows SIGTERM with SIGHUP
/// (`SendSIGHUP=yes`), microseconds apart, which the watcher may see a scheduling delay
/// later on a loaded machine. A person who presses Ctrl-C again has first seen that the
/// run did not stop: that takes longer than a second.
pub const SAME_STOP_WITHIN: Duration = Duration::from_secs(1);

/// What one stop signal asks for, given the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Meaning {
    /// The first: stop (gracefully, while games run).
    First,
    /// Within [`SAME_STOP_WITHIN`] of the first: the same stop, sent again.
    Repeat,
    /// Later: stop at once.
    Again,
}

/// When the first stop signal came, to tell a repeat of it from a second stop.
#[derive(Debug, Default)]
struct Received {
    first: Option<Instant>,
}

impl Received {
    /// What a stop signal that arrived `at` means.
    fn handle_signal(&mut self, at: Instant) -> Meaning {
        match self.first {
            None => {
                self.first = Some(at);
                Meaning::First
            }
            Some(first) if at.saturating_duration_since(first) < SAME_STOP_WITHIN => {
                Meaning::Repeat
            }
            Some(_) => Meaning::Again,
        }
    }
}

/// The signal watcher of one run; see the module's documentation.
#[derive(Debug)]
pub struct Signals {
    games_over: Arc<AtomicBool>,
}

impl Signals {
    /// Starts watching the three signals on a thread of its own, and returns the
    /// cancellation they fire. Once this returns, none of them kills the process unasked.
    pub fn watch() -> Result<(Signals, Cancel), Error> {
        let (canceller, cancel) = cancellation();
        let games_over = Arc::new(AtomicBool::new(false));
        let (ready, registered) = std::sync::mpsc::channel();
        let over = Arc::clone(&games_over);
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || listen(&canceller, &over, &ready))
            .context("cannot start the signal watcher")?;
        registered
            .recv()
            .context("the signal watcher stopped")?
            .context("cannot listen for signals")?;
        Ok((Signals { games_over }, cancel))
    }

    /// The games are over (played or stopped): from now on a signal ends the process at
    /// once, since nothing is left to stop gracefully (computing and printing the
    /// standings of a large field must not keep a signal waiting).
    pub fn games_over(&self) {
        self.games_over.store(true, Ordering::SeqCst);
    }
}

/// The watcher thread: registers the handlers, reports on `ready`, then answers signals.
fn listen(
    canceller: &Canceller,
    games_over: &AtomicBool,
    ready: &std::sync::mpsc::Sender<std::io::Result<()>>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            let _ = ready.send(Err(error));
            return;
        }
    };
    runtime.block_on(async {
        let streams = (|| {
            Ok::<_, std::io::Error>([
                signal(SignalKind::interrupt())?,
                signal(SignalKind::terminate())?,
                signal(SignalKind::hangup())?,
            ])
        })();
        let [mut interrupt, mut terminate, mut hang_up] = match streams {
            Ok(streams) => {
                let _ = ready.send(Ok(()));
                streams
            }
            Err(error) => {
                let _ = ready.send(Err(error));
                return;
            }
        };
        let mut received = Received::default();
        loop {
            let stop = tokio::select! {
                _ = interrupt.recv() => Stop::Interrupt,
                _ = terminate.recv() => Stop::Terminate,
                _ = hang_up.recv() => Stop::HangUp,
            };
            match received.handle_signal(Instant::now()) {
                Meaning::Repeat => tracing::debug!(
                    "{} within {} s of the first stop signal: the same stop",
                    stop.name(),
                    SAME_STOP_WITHIN.as_secs_f64()
                ),
                Meaning::First if !games_over.load(Ordering::SeqCst) && canceller.cancel(stop) => {}
                Meaning::First | Meaning::Again => end_now(stop),
            }
        }
    });
}

/// Kills every bot still running and exits with `stop`'s status.
fn end_now(stop: Stop) -> ! {
    crate::bots::kill_every_group();
    crate::notice::always(
        crate::notice::Level::Error,
        &format!(
            "{}: stopped at once; the journal keeps every finished game",
            stop.name()
        ),
    );
    std::process::exit(i32::from(stop.exit_code()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_soon_after_the_first_is_the_same_stop_and_a_later_one_stops_at_once() {
        let start = Instant::now();
        let mut received = Received::default();
        assert_eq!(received.handle_signal(start), Meaning::First);
        // As `timeout` sends it: to arena, then to its process group.
        assert_eq!(received.handle_signal(start), Meaning::Repeat);
        let just_before = start + SAME_STOP_WITHIN - Duration::from_millis(1);
        assert_eq!(received.handle_signal(just_before), Meaning::Repeat);
        // Measured from the first: repeats never push the window on.
        assert_eq!(
            received.handle_signal(start + SAME_STOP_WITHIN),
            Meaning::Again
        );
        assert_eq!(
            received.handle_signal(start + SAME_STOP_WITHIN * 5),
            Meaning::Again
        );
    }
}
