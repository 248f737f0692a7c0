//! Sends a game's probes to one bot through the driver's [`Connection`], exactly as a
//! tournament would (fresh processes or one persistent session, the same time limits), and
//! collects what happened to each.

use std::time::Duration;

use crate::bots::{BotProgram, CallEnv, CallResult, CallStatus, Limits, Waiting};
use crate::config::Timeouts;
use crate::driver::{Connection, Limit};
use crate::sandbox::EmptiedFolder;
use arena_games::engine::{Answer, Input};
use arena_games::{GameKind, GameOptions};

use arena_games::probe::{Judge, Verdict};

impl Timeouts {
    /// The limits of a check of a `kind` bot: `request` if given, else the game's own time
    /// for one request as a tournament of the game has it by default (Cave Rangers: 2 s),
    /// so a bot that passes the check is not late in the tournament.
    pub fn for_game(kind: GameKind, request: Option<Duration>, setup: Duration) -> Timeouts {
        let default = kind
            .default_timeout_ms()
            .unwrap_or(crate::config::DEFAULT_TIMEOUT_MS);
        Timeouts {
            request: request.unwrap_or(Duration::from_millis(default)),
            setup,
        }
    }
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
    /// What a persistent process wrote to stdout after its reply line, before the next
    /// request: a tournament would take it as the next request's reply.
    pub unasked: Vec<u8>,
    /// For a one-shot reply of several lines that does not parse, the first of its lines
    /// (counted from 1) that would parse alone: the other lines are likely debugging output.
    pub parsed_alone: Option<usize>,
}

impl ProbeReport {
    /// Whether a tournament plays the reply as sent: the bot answered in time with a legal
    /// reply. A process that crashed after replying still replied (the crash is counted, see
    /// [`ProbeReport::crashed_after_replying`]), as in a game.
    pub fn is_valid(&self) -> bool {
        matches!(self.result.status, CallStatus::Replied { .. })
            && self.verdict.as_ref().is_some_and(Verdict::is_valid)
            && self.unasked.is_empty()
    }

    /// Whether the process ended abnormally after replying (or, for a persistent process,
    /// ended at all): a tournament plays the reply and counts a crash.
    pub fn crashed_after_replying(&self) -> bool {
        match self.result.status {
            CallStatus::Replied { exit } => {
                exit.crashed_after_reply(matches!(self.input, Input::Session(_)))
            }
            _ => false,
        }
    }

    /// Whether the process ended abnormally on this request without replying.
    pub fn died_without_replying(&self) -> bool {
        matches!(self.result.status, CallStatus::Died { exit } if exit.is_abnormal())
    }

    /// Whether the reply's line ends in CR LF. A persistent process's reply is its line
    /// without the newline, so there the `\r` alone says so.
    pub fn ends_in_cr_lf(&self) -> bool {
        let end: &[u8] = match self.input {
            Input::Session(_) => b"\r",
            Input::Stdin(_) | Input::Args(_) => b"\r\n",
        };
        matches!(self.result.status, CallStatus::Replied { .. })
            && self.result.output.ends_with(end)
    }
}

/// The first line (counted from 1) of `reply`, of several lines, that `judge` parses alone.
fn line_parsed_alone(reply: &[u8], judge: &Judge) -> Option<usize> {
    let lines: Vec<&[u8]> = reply.split_inclusive(|&b| b == b'\n').collect();
    if lines.len() < 2 {
        return None;
    }
    (1..)
        .zip(lines)
        .find(|(_, line)| !matches!(judge(line), Verdict::Unparsed(_)))
        .map(|(number, _)| number)
}

/// How long the check waits after a persistent process's reply line for more output, which
/// would put its later replies out of step. A bot that prints two lines for a request does
/// so within microseconds; this spares the check a false all-clear when the second comes
/// in a write of its own.
const UNASKED_SETTLE: Duration = Duration::from_millis(30);

/// Sends every probe of the game of `options` to `program` in order and returns the reports,
/// and the box's report of a private folder it emptied when it ended.
pub async fn check_bot(
    options: &GameOptions,
    program: &BotProgram,
    limits: &Limits,
    timeouts: Timeouts,
) -> (Vec<ProbeReport>, Vec<EmptiedFolder>) {
    let env = CallEnv {
        game: options.kind().name(),
        seed: 1,
        seat: 0,
    };
    let mut answers: Vec<Answer> = Vec::new();
    let mut reports = Vec::new();
    let mut connection = Connection::default();
    let farewell = loop {
        let mut plan = options.probes(&answers);
        if answers.len() >= plan.probes.len() {
            break plan.farewell;
        }
        let probe = plan.probes.swap_remove(answers.len());
        let limit = Limit::of(probe.phase, timeouts);
        let mut result = connection
            .send(program, &env, &probe.input, limit, limits, Waiting::Alone)
            .await;
        let verdict = match result.status {
            CallStatus::Replied { .. } => Some((probe.judge)(&result.output)),
            _ => None,
        };
        // Taken after every request, so that each shows only its own: beside an invalid reply
        // it often says why (an exception the bot caught and printed, the Java host's report
        // of an alien's failure). A request that failed has the session's whole tail already.
        let unasked = match (&probe.input, &result.status) {
            (Input::Session(_), CallStatus::Replied { .. }) => {
                connection
                    .session_unasked(UNASKED_SETTLE, limits.max_reply_bytes)
                    .await
            }
            _ => Vec::new(),
        };
        let parsed_alone = match (&probe.input, &verdict) {
            (Input::Session(_), _) => None,
            (_, Some(Verdict::Unparsed(_))) => line_parsed_alone(&result.output, &probe.judge),
            _ => None,
        };
        let written = connection.session_stderr();
        if result.stderr.is_empty() && !verdict.as_ref().is_some_and(Verdict::is_valid) {
            result.stderr = written;
        }
        answers.push(match verdict {
            Some(_) => Answer::Reply(result.output.clone()),
            None => Answer::NoReply,
        });
        reports.push(ProbeReport {
            name: probe.name,
            input: probe.input,
            result,
            verdict,
            unasked,
            parsed_alone,
        });
    };
    let emptied = connection.close(farewell).await;
    (reports, emptied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_parses_alone_is_looked_for_only_in_a_reply_of_several() {
        let judge: Judge = Box::new(|reply: &[u8]| match reply.starts_with(b"MOVE") {
            true => Verdict::Legal("a move".into()),
            false => Verdict::Unparsed("no move".into()),
        });
        assert_eq!(line_parsed_alone(b"debug\nMOVE N\n", &judge), Some(2));
        assert_eq!(line_parsed_alone(b"MOVE N\ndebug\n", &judge), Some(1));
        assert_eq!(line_parsed_alone(b"debug\nmore\n", &judge), None);
        assert_eq!(line_parsed_alone(b"MOVE N\n", &judge), None);
    }

    #[test]
    fn a_check_takes_the_games_own_request_time_unless_given_one() {
        let setup = Duration::from_secs(30);
        let request = |kind, given| Timeouts::for_game(kind, given, setup).request;
        assert_eq!(request(GameKind::Cave, None), Duration::from_secs(2));
        assert_eq!(request(GameKind::Petri, None), Duration::from_secs(5));
        let given = Some(Duration::from_millis(300));
        assert_eq!(request(GameKind::Cave, given), Duration::from_millis(300));
    }
}
