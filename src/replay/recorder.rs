//! Builds a game's [`Replay`] while the driver plays it: one frame per turn from the
//! engine's snapshots, and every request and reply, cut to [`MESSAGE_CAP`] bytes.

use arena_games::engine::{Answer, Input, Outcome, Query, Rejection};

use super::file::{
    Frame, Message, REPLAY_FORMAT_VERSION, Replay, ReplayEnd, ReplayHeader, encode_cells, excerpt,
};
use arena_games::snapshot::Snapshot;

/// Requests and replies are kept up to this many bytes each: enough for every request of the
/// games (a Petri or Slime board, an Egg Hunt view) while a bot that prints megabytes cannot
/// bloat the replay.
pub const MESSAGE_CAP: usize = 512;

/// A replay in the making.
#[derive(Debug)]
pub struct Recorder {
    header: ReplayHeader,
    frames: Vec<Frame>,
    /// Messages and events since the last frame; they belong to the next one.
    messages: Vec<Message>,
    events: Vec<String>,
    /// The newest snapshot if it came after the last frame without finishing a turn: the
    /// position of a game that ends inside a turn.
    latest: Option<Snapshot>,
}

impl Recorder {
    /// A recorder for game `index` of `game`, with `seed` and these bots in seat order.
    pub fn new(game: &str, index: u64, seed: u64, bots: Vec<String>) -> Recorder {
        Recorder {
            header: ReplayHeader {
                format_version: REPLAY_FORMAT_VERSION,
                game: game.to_owned(),
                index,
                seed,
                bots,
                width: 0,
                height: 0,
                legend: Vec::new(),
                message_cap: MESSAGE_CAP,
            },
            frames: Vec::new(),
            messages: Vec::new(),
            events: Vec::new(),
            latest: None,
        }
    }

    /// Records one batch of requests and their answers, in query order, with why each bot
    /// failed its request if it did (the driver's words, in query order too) and the
    /// engine's rejections of those answers.
    pub fn exchange<'a>(
        &mut self,
        queries: &[Query],
        answers: &[Answer],
        failures: impl IntoIterator<Item = Option<&'a str>>,
        rejections: &[Rejection],
    ) {
        self.messages
            .extend(queries.iter().zip(answers).zip(failures).enumerate().map(
                |(index, ((query, answer), failure))| {
                    let request = match &query.input {
                        Input::Stdin(bytes) | Input::Session(bytes) => excerpt(bytes, MESSAGE_CAP),
                        Input::Args(args) => excerpt(args.join(" ").as_bytes(), MESSAGE_CAP),
                    };
                    let reply = match answer {
                        Answer::Reply(bytes) => Some(excerpt(bytes, MESSAGE_CAP)),
                        Answer::NoReply => None,
                    };
                    let reasons: Vec<&str> = rejections
                        .iter()
                        .filter(|rejection| rejection.answer == index)
                        .map(|rejection| rejection.reason)
                        .collect();
                    Message {
                        seat: query.seat,
                        request,
                        reply,
                        invalid: (!reasons.is_empty()).then(|| reasons.join("; ")),
                        failure: failure.map(str::to_owned),
                    }
                },
            ));
    }

    /// Takes the engine's position after the last answers (`None`: nothing to draw yet). The
    /// first position of each turn becomes that turn's frame.
    pub fn observe(&mut self, snapshot: Option<Snapshot>) {
        let Some(mut snapshot) = snapshot else { return };
        if self.header.legend.is_empty() {
            self.header.width = snapshot.width;
            self.header.height = snapshot.height;
            self.header.legend = std::mem::take(&mut snapshot.legend);
        }
        self.events.append(&mut snapshot.events);
        if self.frames.last().is_some_and(|f| f.turn == snapshot.turn) {
            self.latest = Some(snapshot);
        } else {
            self.latest = None;
            self.push_frame(snapshot.turn, Some(&snapshot.cells), snapshot.scores);
        }
    }

    fn push_frame(&mut self, turn: u32, cells: Option<&str>, scores: Vec<i64>) {
        self.frames.push(Frame {
            turn,
            cells: cells.map(encode_cells),
            scores,
            events: std::mem::take(&mut self.events),
            messages: std::mem::take(&mut self.messages),
        });
    }

    /// The finished replay: a last frame for whatever happened after the last full turn
    /// (a game ended inside a turn, or messages of a game that never showed a board).
    pub fn finish(mut self, outcome: &Outcome) -> Replay {
        if self.latest.is_some() || !self.messages.is_empty() || !self.events.is_empty() {
            let turn = self.frames.last().map_or(0, |frame| frame.turn + 1);
            match self.latest.take() {
                Some(latest) => self.push_frame(turn, Some(&latest.cells), latest.scores),
                None => {
                    let previous = self.frames.last();
                    let cells = previous.and_then(|frame| frame.cells.clone());
                    let scores = previous.map(|frame| frame.scores.clone());
                    self.frames.push(Frame {
                        turn,
                        cells,
                        scores: scores.unwrap_or_default(),
                        events: std::mem::take(&mut self.events),
                        messages: std::mem::take(&mut self.messages),
                    });
                }
            }
        }
        Replay {
            header: self.header,
            frames: self.frames,
            end: Some(ReplayEnd {
                summary: outcome.summary.clone(),
                scores: outcome.seats.iter().map(|seat| seat.score).collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_games::engine::{Phase, SeatOutcome};
    use arena_games::snapshot::{Glyph, Legend};

    fn snapshot(turn: u32, cells: &str) -> Option<Snapshot> {
        Some(Snapshot {
            turn,
            width: cells.len(),
            height: 1,
            cells: cells.into(),
            legend: Legend::new([Glyph::thing('.', '.', "empty", "#000")], 1, |seat| {
                format!("cell {seat}")
            })
            .into_glyphs(),
            scores: vec![cells.matches('A').count() as i64],
            events: vec![format!("now {cells}")],
        })
    }

    /// Asks seat 0 `request`, which it answers with `answer`, failing it as `failure` says.
    fn ask(recorder: &mut Recorder, request: &str, answer: Answer, failure: Option<&str>) {
        let query = Query {
            seat: 0,
            input: Input::Stdin(request.as_bytes().to_vec()),
            phase: Phase::Play,
        };
        recorder.exchange(&[query], &[answer], [failure], &[]);
    }

    fn outcome() -> Outcome {
        Outcome {
            seats: vec![SeatOutcome {
                score: 3,
                result: None,
                invalid_replies: 0,
                stats: std::collections::BTreeMap::new(),
            }],
            summary: "over".into(),
            built_in: Vec::new(),
        }
    }

    #[test]
    fn each_turn_keeps_its_first_position_and_the_messages_that_led_to_it() {
        let mut recorder = Recorder::new("test", 4, 5, vec!["bot".into()]);
        recorder.observe(None);
        ask(&mut recorder, "setup", Answer::Reply(b"ok".to_vec()), None);
        recorder.observe(snapshot(0, "A.."));
        ask(
            &mut recorder,
            "move 1",
            Answer::Reply(b"right".to_vec()),
            None,
        );
        recorder.observe(snapshot(0, "AA."));
        ask(
            &mut recorder,
            "move 2",
            Answer::NoReply,
            Some("no reply within 100 ms"),
        );
        recorder.observe(snapshot(1, "AA."));
        ask(
            &mut recorder,
            "move 3",
            Answer::Reply(vec![b'x'; MESSAGE_CAP + 3]),
            Some("replied, then ended (exit status 1)"),
        );
        recorder.observe(snapshot(1, "AAA"));
        let replay = recorder.finish(&outcome());

        assert_eq!(replay.header.width, 3);
        assert_eq!(replay.header.legend.len(), 2);
        let turns: Vec<u32> = replay.frames.iter().map(|f| f.turn).collect();
        assert_eq!(
            turns,
            [0, 1, 2],
            "a last frame for the game ended inside turn 2"
        );
        let cells: Vec<&str> = replay
            .frames
            .iter()
            .map(|f| f.cells.as_deref().unwrap())
            .collect();
        assert_eq!(cells, ["A2.", "2A.", "3A"]);
        let requests = |n: usize| -> Vec<&str> {
            replay.frames[n]
                .messages
                .iter()
                .map(|m| m.request.as_str())
                .collect()
        };
        assert_eq!(requests(0), ["setup"]);
        assert_eq!(requests(1), ["move 1", "move 2"]);
        assert_eq!(requests(2), ["move 3"]);
        let failures = |n: usize| -> Vec<Option<&str>> {
            replay.frames[n]
                .messages
                .iter()
                .map(|m| m.failure.as_deref())
                .collect()
        };
        assert_eq!(failures(0), [None]);
        assert_eq!(failures(1), [None, Some("no reply within 100 ms")]);
        assert_eq!(failures(2), [Some("replied, then ended (exit status 1)")]);
        assert_eq!(replay.frames[1].messages[1].reply, None);
        let long = replay.frames[2].messages[0].reply.as_deref().unwrap();
        assert!(long.ends_with("…[3 more bytes]"), "{long}");
        assert_eq!(replay.frames[1].events, ["now AA.", "now AA."]);
        let end = replay.end.unwrap();
        assert_eq!((end.summary.as_str(), end.scores), ("over", vec![3]));
    }

    #[test]
    fn a_game_without_a_board_still_keeps_its_messages() {
        let mut recorder = Recorder::new("test", 0, 0, vec!["bot".into()]);
        recorder.observe(None);
        ask(
            &mut recorder,
            "hello",
            Answer::NoReply,
            Some("cannot start: no such file"),
        );
        recorder.observe(None);
        let replay = recorder.finish(&outcome());
        assert_eq!(replay.frames.len(), 1);
        assert_eq!(replay.frames[0].cells, None);
        assert_eq!(replay.frames[0].messages[0].request, "hello");
        assert_eq!(replay.header.width, 0);
    }
}
