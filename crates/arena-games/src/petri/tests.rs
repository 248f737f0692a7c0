//! Engine-level tests: the byte-exact vectors in `games/petri/`, setup and forfeits, LOOP
//! sessions, outcomes, and a randomized run that feeds the engine garbage and checks the
//! rules' invariants after every step.

use crate::engine::testing::play;
use crate::engine::testing::{VectorRecord as Record, vector_records as records};
use crate::engine::{Answer, Game, GameResult, Input, Outcome, Phase, Query, Step};
use crate::seeded::Draws;

use super::game::Petri;
use super::options::{PetriOptions, RuleSet};
use super::protocol::encode_request;
use super::rules::{Dish, Framing, Species};

const WORKED_EXAMPLE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../games/petri/worked-example.txt"
));
const LOOP_EXAMPLE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../games/petri/loop-example.txt"
));
const REQUESTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../games/petri/requests.txt"
));

fn options_from(record: &Record) -> PetriOptions {
    assert_eq!(record.words[0], "options");
    let mut options = PetriOptions::default();
    for word in &record.words[1..] {
        let (key, value) = word.split_once('=').expect("key=value");
        match key {
            "width" => options.width = value.parse().expect("width"),
            "height" => options.height = value.parse().expect("height"),
            "turns" => options.turns = value.parse().expect("turns"),
            "rules" => {
                options.rules = match value {
                    "text" => RuleSet::Text,
                    "petri.js" => RuleSet::PetriJs,
                    other => panic!("unknown rules {other}"),
                }
            }
            other => panic!("unknown option {other}"),
        }
    }
    options
}

/// A query as a transcript header and payload, so a mismatch shows readable text.
fn show_query(query: &Query) -> String {
    let (kind, bytes) = match &query.input {
        Input::Stdin(bytes) => ("stdin", bytes),
        Input::Session(bytes) => ("session", bytes),
        Input::Args(args) => panic!("petri never passes arguments: {args:?}"),
    };
    let phase = match query.phase {
        Phase::Setup => "setup",
        Phase::Play => "play",
    };
    let text = String::from_utf8_lossy(bytes).replace('\n', "⏎\n");
    format!("query {} {kind} {phase}\n{text}", query.seat)
}

fn show_record_query(record: &Record) -> String {
    assert_eq!(
        record.words[0], "query",
        "expected a query, got {:?}",
        record.words
    );
    let text = String::from_utf8_lossy(&record.payload).replace('\n', "⏎\n");
    format!("{}\n{text}", record.words.join(" "))
}

fn answer_from(record: &Record, seat: usize) -> Answer {
    assert_eq!(
        record.words[1],
        seat.to_string(),
        "answer for the wrong seat"
    );
    match record.words[0].as_str() {
        "answer" => Answer::Reply(record.payload.clone()),
        "no-answer" => Answer::NoReply,
        other => panic!("expected an answer, got {other}"),
    }
}

fn show_outcome(outcome: &Outcome) -> String {
    let mut text = outcome.summary.clone();
    for (seat, result) in outcome.seats.iter().enumerate() {
        let kind = match result.result {
            Some(GameResult::Win) => "win",
            Some(GameResult::Draw) => "draw",
            Some(GameResult::Loss) => "loss",
            None => "none",
        };
        text.push_str(&format!(
            "\nseat {seat}: {kind}, score {}, {} invalid",
            result.score, result.invalid_replies
        ));
    }
    text
}

/// Plays a transcript: every query must match the next record byte for byte, and is
/// answered with the records after the batch.
fn replay(text: &str) -> Petri {
    let mut records = records(text).into_iter();
    let options = options_from(&records.next().expect("an options record"));
    let mut game = Petri::new(&options).unwrap();
    loop {
        match game.poll() {
            Step::Ask(queries) => {
                for query in &queries {
                    let record = records
                        .next()
                        .unwrap_or_else(|| panic!("unexpected {}", show_query(query)));
                    assert_eq!(show_query(query), show_record_query(&record));
                }
                let mut answers = Vec::new();
                for query in &queries {
                    let Some(record) = records.next() else {
                        return game;
                    };
                    answers.push(answer_from(&record, query.seat));
                }
                game.handle_answers(&answers);
            }
            Step::Done(outcome) => {
                let record = records.next().expect("an outcome record");
                assert_eq!(record.words, ["outcome"]);
                assert_eq!(
                    show_outcome(&outcome),
                    String::from_utf8(record.payload).expect("UTF-8 outcome")
                );
                assert!(records.next().is_none(), "records after the outcome");
                return game;
            }
        }
    }
}

#[test]
fn worked_example_of_the_specification_byte_for_byte() {
    // See games/petri.md, "Byte-exact examples" (`worked-example.txt`).
    replay(WORKED_EXAMPLE);
}

#[test]
fn loop_example_byte_for_byte() {
    // See games/petri.md, "LOOP mode".
    let game = replay(LOOP_EXAMPLE);
    assert_eq!(game.session_farewell(), b"END\n");
}

#[test]
fn request_vectors_render_byte_for_byte() {
    // See games/petri.md, "Cell requests", and the contact and corner boards of
    // "Byte-exact examples".
    let records = records(REQUESTS);
    assert_eq!(records.len(), 4);
    for record in records {
        assert_eq!(record.words[0], "request");
        let text = std::str::from_utf8(&record.payload).expect("UTF-8 request");
        let lines: Vec<&str> = text.split('\n').collect();
        let height: usize = lines[0].split(' ').nth(1).expect("H").parse().expect("H");
        let rows = &lines[1..=height];
        assert_eq!(lines[height + 1], "", "blank line after the rows");
        let stats: Vec<u16> = lines[height + 2]
            .split(' ')
            .map(|n| n.parse().expect("stat"))
            .collect();
        let species = Species::new(5, 7, 0);
        let mut dish = Dish::from_picture(rows, 150, RuleSet::Text, [species; 2]);
        let actor = dish.at(stats[0], stats[1]);
        dish.set(actor, i32::from(stats[2]), u32::from(stats[3]));
        let name = &record.words[1];
        assert_eq!(
            String::from_utf8_lossy(&encode_request(&dish, actor, Framing::OneShot)),
            text,
            "{name}"
        );
        let mut framed = record.payload.clone();
        framed.push(b'\n');
        assert_eq!(
            encode_request(&dish, actor, Framing::Loop),
            framed,
            "{name}"
        );
    }
}

/// Answers setup with the given species replies and every cell with `cell(query)`.
fn bot<'a>(
    species: [&'a [u8]; 2],
    mut cell: impl FnMut(&Query) -> Answer + 'a,
) -> impl FnMut(&Query) -> Answer + 'a {
    move |query| match (&query.input, query.phase) {
        (Input::Stdin(bytes), Phase::Setup) if bytes == b"BEGIN" => {
            Answer::Reply(species[query.seat].to_vec())
        }
        (Input::Session(bytes), Phase::Setup) if bytes == b"BEGIN\n" => {
            Answer::Reply(species[query.seat].to_vec())
        }
        (_, Phase::Play) => cell(query),
        _ => panic!("unexpected query {}", show_query(query)),
    }
}

fn rest(_: &Query) -> Answer {
    Answer::Reply(b"REST\n".to_vec())
}

fn results(outcome: &Outcome) -> Vec<(i64, Option<GameResult>, u32)> {
    outcome
        .seats
        .iter()
        .map(|seat| (seat.score, seat.result, seat.invalid_replies))
        .collect()
}

#[test]
fn setup_asks_both_seats_at_once_for_begin_without_a_newline() {
    let mut game = Petri::new(&PetriOptions::default()).unwrap();
    let setup = |seat| Query {
        seat,
        input: Input::Stdin(b"BEGIN".to_vec()),
        phase: Phase::Setup,
    };
    assert_eq!(game.poll(), Step::Ask(vec![setup(0), setup(1)]));
    assert_eq!(
        game.poll(),
        Step::Ask(vec![setup(0), setup(1)]),
        "polling again before answering repeats the requests"
    );
}

#[test]
fn setup_failures_forfeit_the_game() {
    // See games/petri.md, "Fallbacks". (seat 0 reply, seat 1 reply, results, summary).
    use GameResult::{Draw, Loss, Win};
    let garbage = format!("{}...", "\\xff".repeat(40));
    /// The two setup replies (`None`: no reply), the seats' results and the summary.
    type Case = (
        Option<&'static [u8]>,
        Option<&'static [u8]>,
        [Seat; 2],
        String,
    );
    type Seat = (i64, Option<GameResult>, u32);
    let cases: [Case; 9] = [
        (
            Some(b"4 4 5\n"),
            Some(b"5 6 1"),
            [(0, Some(Loss), 1), (1, Some(Win), 0)],
            "seat 0 forfeited: species spec `4 4 5\\n` does not add up to 12".to_owned(),
        ),
        (
            Some(b"5 6 1"),
            Some(b"-1 6 7"),
            [(1, Some(Win), 0), (0, Some(Loss), 1)],
            "seat 1 forfeited: species spec `-1 6 7` has a negative value".to_owned(),
        ),
        (
            Some(b"0 6 6"),
            Some(b"5 6 1"),
            [(0, Some(Loss), 0), (1, Some(Win), 0)],
            "seat 0 forfeited: species spec `0 6 6` has 0 HP".to_owned(),
        ),
        (
            Some(b"5 6 1"),
            Some(b"6 0 6"),
            [(1, Some(Win), 0), (0, Some(Loss), 0)],
            "seat 1 forfeited: species spec `6 0 6` has 0 energy".to_owned(),
        ),
        (
            Some(b"five six one"),
            Some(b"5 6 1"),
            [(0, Some(Loss), 1), (1, Some(Win), 0)],
            "seat 0 forfeited: species spec `five six one` is not three integers".to_owned(),
        ),
        (
            Some(b"5 6"),
            Some(b"5 6 1"),
            [(0, Some(Loss), 1), (1, Some(Win), 0)],
            "seat 0 forfeited: species spec `5 6` is not three integers".to_owned(),
        ),
        (
            Some(b"5 6 1"),
            None,
            [(1, Some(Win), 0), (0, Some(Loss), 0)],
            "seat 1 forfeited: no species spec (no reply)".to_owned(),
        ),
        (
            None,
            Some(b"5  6 1"),
            [(0, Some(Draw), 0), (0, Some(Draw), 1)],
            "both seats forfeited (seat 0: no species spec (no reply); \
             seat 1: species spec `5  6 1` is not three integers)"
                .to_owned(),
        ),
        (
            Some(&[0xff; 60]),
            Some(b"12 0 0 LOOP"),
            [(0, Some(Draw), 1), (0, Some(Draw), 0)],
            format!(
                "both seats forfeited (seat 0: species spec `{garbage}` is not three integers; \
                 seat 1: species spec `12 0 0 LOOP` has 0 energy)"
            ),
        ),
    ];
    for (first, second, expected, summary) in cases {
        let mut game = Petri::new(&PetriOptions::default()).unwrap();
        let outcome = play(
            &mut game,
            |query| {
                assert_eq!(query.phase, Phase::Setup, "a forfeited game asks no cell");
                match [first, second][query.seat] {
                    Some(reply) => Answer::Reply(reply.to_vec()),
                    None => Answer::NoReply,
                }
            },
            2,
        );
        assert_eq!(results(&outcome), expected, "{summary}");
        assert_eq!(outcome.summary, summary);
        assert_eq!(game.poll(), Step::Done(outcome), "the outcome is final");
    }
}

#[test]
fn species_replies_are_parsed_like_the_original_driver() {
    for reply in [
        &b"5 6 1"[..],
        b"5 6 1\n",
        b"5 6 1 \n",
        b"5 6 1\r\n",
        b"+5 6abc 1.9",
        b"\t5 6 1",
        b"6 6 -0",
        b"5 6 1 LOOP-NOT",
    ] {
        let mut game = Petri::new(&PetriOptions::default()).unwrap();
        game.poll();
        game.handle_answers(&[
            Answer::Reply(reply.to_vec()),
            Answer::Reply(b"4 8 0".to_vec()),
        ]);
        let Step::Ask(queries) = game.poll() else {
            panic!("{reply:?} forfeited")
        };
        assert_eq!(queries[0].phase, Phase::Play, "{reply:?} is one-shot");
        assert!(matches!(queries[0].input, Input::Stdin(_)));
        assert!(game.dish().is_some());
    }
}

#[test]
fn a_fourth_token_loop_opens_a_session() {
    let framing = |reply: &[u8]| {
        let mut game = Petri::new(&PetriOptions::default()).unwrap();
        game.poll();
        game.handle_answers(&[
            Answer::Reply(reply.to_vec()),
            Answer::Reply(b"4 8 0".to_vec()),
        ]);
        match game.poll() {
            Step::Ask(queries) if queries[0].phase == Phase::Setup => Framing::Loop,
            Step::Ask(_) => Framing::OneShot,
            Step::Done(outcome) => panic!("{}", outcome.summary),
        }
    };
    for reply in [
        &b"4 6 2 LOOP\n"[..],
        b"4 6 2 loop",
        b"4 6 2 Loop\r\n",
        b"4 6 2 LOOP x",
    ] {
        assert_eq!(framing(reply), Framing::Loop, "{reply:?}");
    }
    for reply in [
        &b"4 6 2"[..],
        b"4 6 2  LOOP",
        b"4 6 2 LOOPY",
        b"4 6 2\tLOOP",
    ] {
        assert_eq!(framing(reply), Framing::OneShot, "{reply:?}");
    }
}

#[test]
fn loop_seats_get_begin_on_their_session_then_newline_terminated_requests() {
    let mut game = Petri::new(&PetriOptions::default()).unwrap();
    game.poll();
    game.handle_answers(&[
        Answer::Reply(b"4 6 2 LOOP\n".to_vec()),
        Answer::Reply(b"5 6 1 LOOP".to_vec()),
    ]);
    let begin = |seat| Query {
        seat,
        input: Input::Session(b"BEGIN\n".to_vec()),
        phase: Phase::Setup,
    };
    assert_eq!(
        game.poll(),
        Step::Ask(vec![begin(0), begin(1)]),
        "both at once"
    );
    // Whatever the sessions reply, even nothing, is ignored and counts for nothing.
    game.handle_answers(&[Answer::NoReply, Answer::Reply(b"garbage".to_vec())]);
    let expected = [
        (
            0,
            &b"10 4\n..........\n.o........\n........x.\n..........\n\n1 1 4 6\n"[..],
        ),
        (
            1,
            b"10 4\n..........\n.x........\n........o.\n..........\n\n8 2 5 6\n",
        ),
    ];
    for (seat, request) in expected {
        let query = Query {
            seat,
            input: Input::Session(request.to_vec()),
            phase: Phase::Play,
        };
        assert_eq!(game.poll(), Step::Ask(vec![query]));
        game.handle_answers(&[Answer::Reply(b"REST".to_vec())]);
    }
    assert_eq!(game.session_farewell(), b"END\n");
}

#[test]
fn one_shot_and_loop_seats_mix() {
    let options = PetriOptions {
        turns: 3,
        ..PetriOptions::default()
    };
    let mut game = Petri::new(&options).unwrap();
    let mut seen = Vec::new();
    let outcome = play(
        &mut game,
        bot([b"5 6 1\n", b"4 6 2 LOOP\n"], |query| {
            match (&query.input, query.seat) {
                (Input::Stdin(request), 0) => assert!(!request.ends_with(b"\n")),
                (Input::Session(request), 1) => assert!(request.ends_with(b"8 2 4 6\n")),
                _ => panic!("wrong framing: {}", show_query(query)),
            }
            seen.push(query.seat);
            rest(query)
        }),
        20,
    );
    assert_eq!(seen, [0, 1, 0, 1, 0, 1]);
    assert_eq!(
        outcome.summary,
        "turn limit after 3 turns each: seat 0 has 1 cell, seat 1 has 1 cell"
    );
    assert_eq!(
        results(&outcome),
        [
            (0, Some(GameResult::Draw), 0),
            (0, Some(GameResult::Draw), 0)
        ]
    );
}

#[test]
fn the_turn_limit_counts_turns_per_side_and_equal_counts_draw() {
    for turns in [1, 2, 150] {
        let options = PetriOptions {
            turns,
            ..PetriOptions::default()
        };
        let mut game = Petri::new(&options).unwrap();
        let mut cell_requests = 0;
        let outcome = play(
            &mut game,
            bot([b"5 6 1", b"4 8 0"], |query| {
                cell_requests += 1;
                rest(query)
            }),
            1000,
        );
        assert_eq!(
            cell_requests,
            2 * turns,
            "one cell each, {turns} turns each"
        );
        assert_eq!(
            results(&outcome),
            [
                (0, Some(GameResult::Draw), 0),
                (0, Some(GameResult::Draw), 0)
            ]
        );
    }
}

#[test]
fn more_living_cells_at_the_turn_limit_win() {
    let options = PetriOptions {
        turns: 2,
        ..PetriOptions::default()
    };
    let mut game = Petri::new(&options).unwrap();
    let outcome = play(
        &mut game,
        bot([b"5 6 1", b"4 8 0"], |query| match query.seat {
            1 => Answer::Reply(b"DIVIDE N".to_vec()),
            _ => rest(query),
        }),
        20,
    );
    // Seat 1 divides in turn 1 (8 -> 3 and 3); in turn 2 neither cell has 5 energy.
    assert_eq!(
        outcome.summary,
        "turn limit after 2 turns each: seat 0 has 1 cell, seat 1 has 2 cells"
    );
    assert_eq!(
        results(&outcome),
        [
            (0, Some(GameResult::Loss), 0),
            (1, Some(GameResult::Win), 2)
        ]
    );
}

#[test]
fn invalid_replies_are_counted_and_no_reply_is_a_silent_rest() {
    let options = PetriOptions {
        turns: 4,
        ..PetriOptions::default()
    };
    let mut game = Petri::new(&options).unwrap();
    let replies: [&[u8]; 4] = [b"", b"\xff\xfe\n", b"MOVE  N", b"ATTACK N 2"];
    let mut turn = 0;
    let outcome = play(
        &mut game,
        bot([b"5 6 1", b"4 8 0"], |query| match query.seat {
            0 => Answer::NoReply,
            _ => {
                turn += 1;
                Answer::Reply(replies[turn - 1].to_vec())
            }
        }),
        20,
    );
    assert_eq!(
        results(&outcome),
        [
            (0, Some(GameResult::Draw), 0),
            (0, Some(GameResult::Draw), 4)
        ]
    );
}

#[test]
fn a_cell_killed_earlier_in_its_turn_gets_no_request() {
    let species = Species::new(5, 6, 1);
    let mut dish = Dish::from_picture(&["oo.", "...", "..x"], 2, RuleSet::Text, [species; 2]);
    dish.set(dish.at(1, 0), 2, 6);
    let mut game = Petri::from_dish(dish, [Framing::OneShot; 2]);
    let mut asked = Vec::new();
    let outcome = play(
        &mut game,
        |query| {
            let Input::Stdin(request) = &query.input else {
                panic!("one-shot seats")
            };
            let stats = String::from_utf8_lossy(request)
                .rsplit('\n')
                .next()
                .map(str::to_owned);
            asked.push(stats.expect("a stats line"));
            match query.seat {
                0 => Answer::Reply(b"ATTACK E 3".to_vec()),
                _ => Answer::Reply(b"EXPLODE".to_vec()),
            }
        },
        10,
    );
    // Turn 1: the first cell kills its friend, which is then skipped; seat 1 cannot
    // explode with 5 HP and rests. Turn 2: the first cell attacks a corpse and rests.
    assert_eq!(asked, ["0 0 5 6", "2 2 5 6", "0 0 5 3", "2 2 5 6"]);
    assert_eq!(
        results(&outcome),
        [
            (0, Some(GameResult::Draw), 1),
            (0, Some(GameResult::Draw), 2)
        ]
    );
}

#[test]
fn an_elimination_ends_the_game_in_the_middle_of_a_turn() {
    let species = Species::new(5, 6, 1);
    let mut dish = Dish::from_picture(&["ox.", "...", "o.."], 150, RuleSet::Text, [species; 2]);
    dish.set(dish.at(1, 0), 2, 6);
    let mut game = Petri::from_dish(dish, [Framing::OneShot; 2]);
    let mut requests = 0;
    let outcome = play(
        &mut game,
        |_| {
            requests += 1;
            Answer::Reply(b"attack e 2".to_vec())
        },
        10,
    );
    assert_eq!(requests, 1, "the second cell of seat 0 is never asked");
    assert_eq!(
        outcome.summary,
        "seat 1 eliminated during turn 1 of seat 0 (seat 0 has 2 cells left)"
    );
    assert_eq!(
        results(&outcome),
        [
            (1, Some(GameResult::Win), 0),
            (0, Some(GameResult::Loss), 0)
        ]
    );
}

#[test]
fn both_species_dying_in_one_explosion_is_a_draw() {
    for rules in [RuleSet::Text, RuleSet::PetriJs] {
        let species = Species::new(3, 8, 1);
        // Under petri.js the victim must be west, north-west, south-west or north.
        let mut dish = Dish::from_picture(&["xo", ".."], 150, rules, [species; 2]);
        dish.set(dish.at(0, 0), 2, 8);
        dish.set(dish.at(1, 0), 2, 6);
        let mut game = Petri::from_dish(dish, [Framing::OneShot; 2]);
        let outcome = play(&mut game, |_| Answer::Reply(b"EXPLODE now\n".to_vec()), 10);
        assert_eq!(
            outcome.summary, "both sides eliminated during turn 1 of seat 0",
            "{rules:?}"
        );
        assert_eq!(
            results(&outcome),
            [
                (0, Some(GameResult::Draw), 0),
                (0, Some(GameResult::Draw), 0)
            ]
        );
    }
}

#[test]
#[should_panic(expected = "without an outstanding Ask")]
fn answers_without_a_request_are_a_driver_bug() {
    let mut game = Petri::new(&PetriOptions::default()).unwrap();
    game.handle_answers(&[Answer::NoReply, Answer::NoReply]);
}

#[test]
#[should_panic(expected = "an Ask of 2 queries got 1 answers")]
fn a_missing_answer_is_a_driver_bug() {
    let mut game = Petri::new(&PetriOptions::default()).unwrap();
    game.poll();
    game.handle_answers(&[Answer::NoReply]);
}

fn random_species(rng: &mut Draws) -> Answer {
    match rng.below(12) {
        0 => Answer::NoReply,
        1 => Answer::Reply(rng.bytes(12)),
        2 => Answer::Reply(b"4 4 5".to_vec()),
        3 => Answer::Reply(b"0 6 6".to_vec()),
        _ => {
            let hp = 1 + rng.below(10);
            let energy = 1 + rng.below(11 - hp);
            let acidity = 12 - hp - energy;
            let suffix = rng.pick(&["", "\n", " LOOP", " loop\n", " LOOP\r\n"]);
            Answer::Reply(format!("{hp} {energy} {acidity}{suffix}").into_bytes())
        }
    }
}

fn random_action(rng: &mut Draws) -> Answer {
    match rng.below(40) {
        0 => Answer::NoReply,
        1 | 2 => Answer::Reply(rng.bytes(24)),
        3 => Answer::Reply(Vec::new()),
        4 if rng.below(20) == 0 => Answer::Reply(vec![b'9'; 1 << 16]),
        _ => {
            let command = rng.pick(&[
                "MOVE", "MOVE", "ATTACK", "ATTACK", "DIVIDE", "DIVIDE", "EAT", "REST", "EXPLODE",
                "explode", "move", "Attack", "SLEEP", "",
            ]);
            let direction = rng.pick(&[
                "N", "NE", "E", "SE", "S", "SW", "W", "NW", "n", "sw", "X", "", "N\r",
            ]);
            let strength = rng.pick(&["1", "2", "3", "0", "4", "2abc", "NaN", "-1", " 2", ""]);
            let newline = rng.pick(&["", "\n"]);
            let words = match rng.below(3) {
                0 => format!("{command}{newline}"),
                1 => format!("{command} {direction}{newline}"),
                _ => format!("{command} {direction} {strength}{newline}"),
            };
            Answer::Reply(words.into_bytes())
        }
    }
}

/// Checks a request's framing and size against the game it was made for.
fn check_query(query: &Query, options: &PetriOptions) {
    match (&query.input, query.phase) {
        (Input::Stdin(bytes), Phase::Setup) => assert_eq!(bytes, b"BEGIN"),
        (Input::Session(bytes), Phase::Setup) => assert_eq!(bytes, b"BEGIN\n"),
        (Input::Stdin(bytes) | Input::Session(bytes), Phase::Play) => {
            let text = std::str::from_utf8(bytes).expect("requests are ASCII");
            let framed = matches!(query.input, Input::Session(_));
            assert_eq!(text.ends_with('\n'), framed, "{text:?}");
            let lines: Vec<&str> = text.trim_end_matches('\n').split('\n').collect();
            let height = usize::from(options.height);
            assert_eq!(lines[0], format!("{} {}", options.width, options.height));
            assert_eq!(lines.len(), height + 3);
            assert!(
                lines[1..=height]
                    .iter()
                    .all(|row| row.len() == usize::from(options.width)
                        && row.bytes().all(|b| b"oxc.".contains(&b)))
            );
            assert_eq!(lines[height + 1], "");
            assert_eq!(lines[height + 2].split(' ').count(), 4);
        }
        (Input::Args(_), _) => panic!("petri never passes arguments"),
    }
}

#[test]
fn random_and_garbage_replies_never_break_the_rules() {
    let mut rng = Draws::new(0x9e37_79b9_7f4a_7c15);
    let mut endings = [0; 3];
    for _ in 0..4000 {
        let width = 3 + rng.below(10) as u16;
        let height = (if width == 3 {
            4 + rng.below(5)
        } else {
            3 + rng.below(6)
        }) as u16;
        let options = PetriOptions {
            width,
            height,
            turns: 1 + rng.below(30) as u32,
            rules: if rng.below(2) == 0 {
                RuleSet::Text
            } else {
                RuleSet::PetriJs
            },
        };
        let mut game = Petri::new(&options).unwrap();
        // Setup, sessions, then at most one request per square per player turn.
        let bound = 2 + 2 * options.turns as usize * usize::from(width) * usize::from(height);
        let mut replies = [0_u32; 2];
        let mut steps = 0;
        let mut turns_done = 0;
        let outcome = loop {
            steps += 1;
            assert!(
                steps <= bound + 1,
                "the game outlived its turn limit: {options:?}"
            );
            let queries = match game.poll() {
                Step::Done(outcome) => break outcome,
                Step::Ask(queries) => queries,
            };
            let answers: Vec<Answer> = queries
                .iter()
                .map(|query| {
                    check_query(query, &options);
                    match query.input {
                        Input::Stdin(ref bytes) if bytes == b"BEGIN" => random_species(&mut rng),
                        Input::Session(ref bytes) if bytes == b"BEGIN\n" => random_action(&mut rng),
                        _ => {
                            assert_eq!(queries.len(), 1, "cells are asked one at a time");
                            replies[query.seat] += 1;
                            random_action(&mut rng)
                        }
                    }
                })
                .collect();
            game.handle_answers(&answers);
            if let Some(dish) = game.dish() {
                if let Err(broken) = dish.check_invariants() {
                    panic!("{broken} in {options:?}");
                }
                let snapshot = game.snapshot().expect("a dish to draw");
                assert_eq!(snapshot.problems(), Vec::<String>::new());
                assert!(
                    (turns_done..=turns_done + 1).contains(&snapshot.turn),
                    "turns are counted one by one"
                );
                turns_done = snapshot.turn;
                assert_eq!(snapshot.scores, dish.living().map(|n| n as i64));
            }
        };
        let seats = &outcome.seats;
        assert_eq!(seats.len(), 2);
        match (seats[0].result, seats[1].result) {
            (Some(GameResult::Win), Some(GameResult::Loss)) => endings[0] += 1,
            (Some(GameResult::Loss), Some(GameResult::Win)) => endings[1] += 1,
            (Some(GameResult::Draw), Some(GameResult::Draw)) => endings[2] += 1,
            other => panic!("inconsistent results {other:?}"),
        }
        for (seat, outcome) in seats.iter().enumerate() {
            assert_eq!(
                outcome.score,
                i64::from(outcome.result == Some(GameResult::Win))
            );
            assert!(outcome.invalid_replies <= replies[seat] + 1, "{outcome:?}");
        }
        assert!(!outcome.summary.is_empty() && !outcome.summary.contains('\n'));
    }
    assert!(
        endings.iter().all(|&count| count > 0),
        "all endings occur: {endings:?}"
    );
}
