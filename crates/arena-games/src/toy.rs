//! A sixth game as small as a game can be, registered the way the five are: its module (this
//! file) and one line of the list of games (`every_game!`). The tests run it through every registry method
//! beside the five real games, so adding a game stays that and nothing more.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::Deserialize;

use crate::declaration::{
    Bounds, JavaHost, OptionsParser, Pairing, RegisteredGame, Scoring, Settings, StatColumn,
    Templates,
};
use crate::engine::{
    Answer, Game, Input, Outcome, PendingAsk, Phase, Query, Rejection, Rejections, SeatOutcome,
    SetupError, Step,
};
use crate::probe::{Plan, Verdict};
use crate::registry::{SettingsView, every_game, games};
use crate::snapshot::Snapshot;

/// Guess: every seat names a digit each round and scores it; anything else scores 0.
#[derive(Debug)]
pub struct Guess {
    rounds_left: u32,
    scores: Vec<i64>,
    pending: PendingAsk,
    rejections: Rejections,
}

/// Guess's options: how many rounds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GuessOptions {
    rounds: u32,
}

impl Default for GuessOptions {
    fn default() -> GuessOptions {
        GuessOptions { rounds: 3 }
    }
}

impl Settings for GuessOptions {
    fn pairing(&self) -> Pairing {
        Pairing::FreeForAll
    }

    fn validate(&self) -> Vec<String> {
        match self.rounds {
            0 => vec!["`rounds` must be at least 1".to_owned()],
            _ => Vec::new(),
        }
    }

    /// A digit a round.
    fn bounds(&self, _seats: usize) -> Bounds {
        Bounds::up_to(9 * i64::from(self.rounds))
    }
}

impl Game for Guess {
    fn poll(&mut self) -> Step {
        if self.rounds_left == 0 {
            let seats = self
                .scores
                .iter()
                .enumerate()
                .map(|(seat, &score)| SeatOutcome {
                    score,
                    result: None,
                    invalid_replies: self.rejections.count(seat),
                    stats: BTreeMap::new(),
                });
            return Step::Done(Outcome {
                seats: seats.collect(),
                summary: "guessed".to_owned(),
                built_in: Vec::new(),
            });
        }
        let queries = (0..self.scores.len()).map(|seat| Query {
            seat,
            input: Input::Stdin(b"GUESS\n".to_vec()),
            phase: Phase::Play,
        });
        self.pending.ask(queries.collect())
    }

    fn handle_answers(&mut self, answers: &[Answer]) {
        self.pending.answer(answers);
        for (seat, answer) in answers.iter().enumerate() {
            match digit(answer) {
                Some(points) => self.scores[seat] += points,
                None => self.rejections.reject(seat, seat, 0, 1, "not a digit"),
            }
        }
        self.rounds_left -= 1;
    }

    fn take_rejections(&mut self) -> Vec<Rejection> {
        self.rejections.take()
    }
}

/// The digit a reply names.
fn digit(answer: &Answer) -> Option<i64> {
    match answer {
        Answer::Reply(bytes) => match bytes.trim_ascii() {
            [d @ b'0'..=b'9'] => Some(i64::from(d - b'0')),
            _ => None,
        },
        Answer::NoReply => None,
    }
}

impl RegisteredGame for Guess {
    type Options = GuessOptions;
    const NAME: &'static str = "guess";
    const SCORING: Scoring = Scoring::Mean;
    const DEFAULT_GAMES: u32 = 1;
    const PAIRINGS: &'static [Pairing] = &[Pairing::FreeForAll];
    const TEMPLATES: Templates = Templates {
        python: "print(7)\n",
        javascript: "console.log(7);\n",
        rust: "fn main() {\n    println!(\"7\");\n}\n",
    };

    fn probes(_options: &GuessOptions, _answers: &[Answer]) -> Plan {
        let judge = |reply: &[u8]| match digit(&Answer::Reply(reply.to_vec())) {
            Some(points) => Verdict::Legal(format!("{points} points")),
            None => Verdict::Unparsed("not a digit".to_owned()),
        };
        Plan::one_shot([(
            "a round".to_owned(),
            Input::Stdin(b"GUESS\n".to_vec()),
            judge,
        )])
    }

    fn start(options: &GuessOptions, _seed: u64, seats: usize) -> Result<Guess, SetupError> {
        SetupError::check(options, seats)?;
        Ok(Guess {
            rounds_left: options.rounds,
            scores: vec![0; seats],
            pending: PendingAsk::default(),
            rejections: Rejections::new(seats),
        })
    }
}

every_game! {
    /// Guess, the toy.
    Guess => Guess,
}

/// Parses every game's options as their defaults.
struct Defaults;

impl OptionsParser for Defaults {
    type Error = fmt::Error;

    fn parse<T: serde::de::DeserializeOwned + Default>(&mut self) -> Result<T, fmt::Error> {
        Ok(T::default())
    }
}

#[test]
fn a_sixth_game_needs_only_its_registry_line() {
    assert_eq!(GameKind::ALL.len(), 6);
    let kind = GameKind::from_name("guess").expect("listed by its name");
    assert_eq!(kind.to_string(), "guess");
    assert_eq!(kind.default_games(), 1);
    assert_eq!(kind.pairings(), &[Pairing::FreeForAll]);
    assert!(kind.java_host().is_none() && kind.built_in_names().is_empty());
    assert_eq!(kind.scoring(), Scoring::Mean);
    assert_eq!(kind.default_timeout_ms(), None);
    assert!(!kind.private_folders() && kind.stat_columns().is_empty());
    assert!(!kind.persistent_processes());
    assert_eq!(kind.templates().python, "print(7)\n");
    assert_eq!(kind.default_options().probes(&[]).probes.len(), 1);
    let mut options = kind.parse_options(&mut Defaults).expect("defaults parse");
    assert_eq!(options, kind.default_options());
    assert_eq!((options.kind(), options.min_bots()), (kind, 1));
    assert_eq!(
        (options.fewer_bots(), options.data_file_option()),
        (None, None)
    );
    assert_eq!(options.pairing(), Pairing::FreeForAll);
    assert!(options.validate().is_empty() && options.built_in_names().is_empty());
    assert!(options.data_file().is_none());
    assert!(options.use_data_file(Path::new("none"), "", 2).is_empty());
    let mut game = options.new_game(1, 2).expect("default options play");
    let mut replies = [b"7".to_vec(), b"x".to_vec()].into_iter().cycle();
    let outcome = loop {
        match game.poll() {
            Step::Ask(queries) => {
                let answers = queries
                    .iter()
                    .map(|_| Answer::Reply(replies.next().unwrap()));
                game.handle_answers(&answers.collect::<Vec<_>>());
            }
            Step::Done(outcome) => break outcome,
        }
    };
    let scores: Vec<(i64, u32)> = outcome
        .seats
        .iter()
        .map(|seat| (seat.score, seat.invalid_replies))
        .collect();
    assert_eq!(scores, [(21, 0), (0, 3)]);
    assert_eq!(options.bounds(2), Bounds::up_to(27));
    assert_eq!(kind.widest_bounds(), Bounds::up_to(i64::MAX));
}

#[test]
fn a_registered_game_refuses_options_it_cannot_play() {
    for &kind in GameKind::ALL {
        let options = kind.default_options();
        let none = options.new_game(1, 0);
        assert!(
            matches!(none, Err(SetupError::Seats { seats: 0, .. })),
            "{kind}: {none:?}"
        );
    }
    let zero = GameOptions::Guess(GuessOptions { rounds: 0 });
    assert!(matches!(
        zero.new_game(1, 2),
        Err(SetupError::InvalidOptions(problems)) if problems.len() == 1
    ));
}
