//! One bot's way in for a game, or for `arena check`: where its processes run and its
//! persistent process, and how each request reaches it. Tournaments and checks send their
//! requests through this one piece of code, so a check sees the bot exactly as a game does.

use std::time::Duration;

use crate::bots::{
    BotProgram, CallEnv, CallResult, CallStatus, Limits, OneShotInput, Place, Session, Waiting,
    call_once,
};
use crate::config::Timeouts;
use crate::sandbox::EmptiedFolder;
use arena_games::engine::{Input, Phase};

/// A bot's place and persistent process for one game.
#[derive(Debug, Default)]
pub(crate) struct Connection {
    /// Where its processes run: its box, for the length of the game.
    place: Place,
    session: Persistent,
}

/// The persistent process: started on the first session request. A session that failed
/// stays `Running` and answers every later request with [`CallStatus::SessionGone`].
#[derive(Debug, Default)]
enum Persistent {
    #[default]
    NotStarted,
    Running(Box<Session>),
    /// It could not be started.
    Failed,
}

/// The time limits of one request.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limit {
    /// For the request itself.
    pub(crate) request: Duration,
    /// For the first request to a persistent process, which also waits for it to start (at
    /// least `request`).
    pub(crate) start: Duration,
}

impl Limit {
    /// The limit of a request in `phase` under `timeouts`; a persistent process's first
    /// request has the setup time too.
    pub(crate) fn of(phase: Phase, timeouts: Timeouts) -> Limit {
        Limit {
            request: match phase {
                Phase::Setup => timeouts.setup,
                Phase::Play => timeouts.request,
            },
            start: timeouts.setup,
        }
    }
}

impl Connection {
    /// Sends `input` to `bot` within `limit`: a fresh process for one-shot input, the
    /// persistent process (started now if this is its first request) for session input.
    /// `waiting` says whether anything else waits meanwhile.
    pub(crate) async fn send(
        &mut self,
        bot: &BotProgram,
        env: &CallEnv,
        input: &Input,
        limit: Limit,
        limits: &Limits,
        waiting: Waiting,
    ) -> CallResult {
        let input = match input {
            Input::Stdin(bytes) => OneShotInput::Stdin(bytes),
            Input::Args(args) => OneShotInput::Args(args),
            Input::Session(bytes) => {
                let limit = self.session_limit(limit);
                return match self.session(bot, env, limits).await {
                    Ok(session) => session.request(bytes, limit, limits, waiting).await,
                    Err(status) => not_sent(status),
                };
            }
        };
        call_once(
            &mut self.place,
            bot,
            env,
            input,
            limit.request,
            limits,
            waiting,
        )
        .await
    }

    /// Makes `bot`'s box, if it runs in one, before its first request needs it. A box that
    /// cannot be made now is tried again at the first request, which reports why.
    pub(crate) async fn prepare(&mut self, bot: &BotProgram) {
        let _ = self.place.prepare(bot).await;
    }

    /// The persistent process of `bot`, started now if it has not been. `Err`: how a request
    /// to it ends instead, why it cannot be started the first time, then
    /// [`CallStatus::SessionGone`].
    pub(crate) async fn session(
        &mut self,
        bot: &BotProgram,
        env: &CallEnv,
        limits: &Limits,
    ) -> Result<&mut Session, CallStatus> {
        if matches!(self.session, Persistent::NotStarted) {
            match Session::start(&mut self.place, bot, env, limits).await {
                Ok(session) => self.session = Persistent::Running(Box::new(session)),
                Err(error) => {
                    self.session = Persistent::Failed;
                    return Err(CallStatus::not_started(&error));
                }
            }
        }
        match &mut self.session {
            Persistent::Running(session) => Ok(session),
            Persistent::NotStarted | Persistent::Failed => Err(CallStatus::SessionGone),
        }
    }

    /// What the persistent process, if it runs, wrote to stderr since the last call (see
    /// [`Session::stderr_written`]).
    pub(crate) fn session_stderr(&mut self) -> Vec<u8> {
        match &mut self.session {
            Persistent::Running(session) => session.stderr_written(),
            Persistent::NotStarted | Persistent::Failed => Vec::new(),
        }
    }

    /// What the persistent process, if it runs, wrote past its last reply line (see
    /// [`Session::unasked`]).
    pub(crate) async fn session_unasked(&mut self, settle: Duration, cap: usize) -> Vec<u8> {
        match &mut self.session {
            Persistent::Running(session) => session.unasked(settle, cap).await,
            Persistent::NotStarted | Persistent::Failed => Vec::new(),
        }
    }

    /// The time a request to the persistent process has under `limit`: the first one also
    /// waits for the process to start.
    pub(crate) fn session_limit(&self, limit: Limit) -> Duration {
        match self.session {
            Persistent::NotStarted => limit.request.max(limit.start),
            Persistent::Running(_) | Persistent::Failed => limit.request,
        }
    }

    /// Ends the game for this bot: writes `farewell` to its persistent process, if it
    /// runs, then ends its box and waits until everything of it is gone; returns the box's
    /// report of a private folder it emptied.
    pub(crate) async fn close(self, farewell: &[u8]) -> Vec<EmptiedFolder> {
        if let Persistent::Running(session) = self.session {
            session.close(farewell).await;
        }
        self.place.close().await
    }
}

/// The result of a request that never reached a process.
pub(super) fn not_sent(status: CallStatus) -> CallResult {
    CallResult {
        output: Vec::new(),
        status,
        elapsed: Duration::ZERO,
        stderr: Vec::new(),
    }
}
