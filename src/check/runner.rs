//! Sends a game's probes to one bot through the process layer, exactly as a tournament would
//! (fresh processes or one persistent session, the same time limits), and collects what
//! happened to each.

use std::time::Duration;

use crate::bots::{BotProgram, CallEnv, CallResult, CallStatus, Exit, Limits, OneShotInput};
use crate::bots::{Place, Session, call_once};
use crate::engine::{Answer, Input, Phase};
use crate::games::GameKind;

use super::probe::Verdict;

/// The time limits of a check.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// One request.
    pub request: Duration,
    /// A setup request, and the first request to a persistent process.
    pub setup: Duration,
}

/// One probe and what the bot made of it.
#[derive(Debug)]
pub struct ProbeReport {
    /// The probe's name.
    pub name: String,
    /// What was sent.
    pub input: Input,
    /// What came back and how.
    pub result: CallResult,
    /// The game's verdict on the reply, when there was one.
    pub verdict: Option<Verdict>,
}

impl ProbeReport {
    /// Whether the bot answered in time, without crashing, with a legal reply.
    pub fn is_valid(&self) -> bool {
        let clean_exit = match self.result.status {
            CallStatus::Replied { exit } => match self.input {
                Input::Session(_) => exit == Exit::Running,
                Input::Stdin(_) | Input::Args(_) => !exit.is_abnormal(),
            },
            _ => false,
        };
        clean_exit && self.verdict.as_ref().is_some_and(Verdict::is_valid)
    }
}

/// Sends every probe of `kind` to `program` in order and returns the reports.
pub async fn check_bot(
    kind: GameKind,
    program: &BotProgram,
    limits: &Limits,
    timeouts: Timeouts,
) -> Vec<ProbeReport> {
    let env = CallEnv {
        game: kind.name(),
        seed: 1,
        seat: 0,
    };
    let mut answers: Vec<Answer> = Vec::new();
    let mut reports = Vec::new();
    let mut session = SessionState::NotStarted;
    let mut place = Place::default();
    let farewell = loop {
        let mut plan = kind.probes(&answers);
        if answers.len() >= plan.probes.len() {
            break plan.farewell;
        }
        let probe = plan.probes.swap_remove(answers.len());
        let limit = match probe.phase {
            Phase::Setup => timeouts.setup,
            Phase::Play => timeouts.request,
        };
        let result = match &probe.input {
            Input::Stdin(bytes) => {
                call_once(
                    &mut place,
                    program,
                    &env,
                    OneShotInput::Stdin(bytes),
                    limit,
                    limits,
                )
                .await
            }
            Input::Args(args) => {
                call_once(
                    &mut place,
                    program,
                    &env,
                    OneShotInput::Args(args),
                    limit,
                    limits,
                )
                .await
            }
            Input::Session(bytes) => {
                let fresh = matches!(session, SessionState::NotStarted);
                if fresh {
                    session = match Session::start(&mut place, program, &env, limits).await {
                        Ok(started) => SessionState::Running(Box::new(started)),
                        Err(error) => SessionState::Failed(error.to_string()),
                    };
                }
                match &mut session {
                    SessionState::Running(running) => {
                        // The first request also waits for the process to start.
                        let limit = if fresh {
                            limit.max(timeouts.setup)
                        } else {
                            limit
                        };
                        running.request(bytes, limit, limits).await
                    }
                    SessionState::Failed(error) if fresh => {
                        no_call(CallStatus::SpawnFailed(error.clone()))
                    }
                    SessionState::NotStarted | SessionState::Failed(_) => {
                        no_call(CallStatus::SessionGone)
                    }
                }
            }
        };
        let verdict = match result.status {
            CallStatus::Replied { .. } => Some((probe.judge)(&result.output)),
            _ => None,
        };
        answers.push(match verdict {
            Some(_) => Answer::Reply(result.output.clone()),
            None => Answer::NoReply,
        });
        reports.push(ProbeReport {
            name: probe.name,
            input: probe.input,
            result,
            verdict,
        });
    };
    if let SessionState::Running(session) = session {
        session.close(farewell).await;
    }
    place.close().await;
    reports
}

/// The bot's persistent process, if the game uses one.
enum SessionState {
    NotStarted,
    Running(Box<Session>),
    /// It could not be started (why).
    Failed(String),
}

/// The result of a request that never reached a process.
fn no_call(status: CallStatus) -> CallResult {
    CallResult {
        output: Vec::new(),
        status,
        elapsed: Duration::ZERO,
        stderr: Vec::new(),
    }
}
