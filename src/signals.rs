//! How the `arena` binary answers SIGINT, SIGTERM and SIGHUP during a run. The first signal
//! stops the run gracefully through its [`Canceller`]: no game is started any more, the
//! running ones are dropped with their bots, the journal keeps every finished game and the
//! partial standings are printed. A second signal, or any signal once the games are over,
//! ends the process at once: every bot still running is killed first, and the journal is
//! complete at every line boundary, so nothing is lost but the printout.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use tokio::signal::unix::{SignalKind, signal};

use crate::cancel::{Cancel, Canceller, Stop, cancellation};
use crate::errors::Error;

/// The signals that stop a run, the ones watched here. What stops a run may send them to all
/// of its processes at once, bots included (a cluster's job cancel, a service manager's stop).
pub const STOP_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

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
        loop {
            let stop = tokio::select! {
                _ = interrupt.recv() => Stop::Interrupt,
                _ = terminate.recv() => Stop::Terminate,
                _ = hang_up.recv() => Stop::HangUp,
            };
            if games_over.load(Ordering::SeqCst) || !canceller.cancel(stop) {
                end_now(stop);
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
