//! Engine-level tests: the byte-exact vectors in `games/slime/`, the end conditions, an
//! eliminated player's turns, the parsing modes over a whole game, and a randomized run that
//! feeds the engine garbage and checks the rules' invariants after every turn.

use crate::engine::testing::play;
use crate::engine::testing::vector_records as records;
use crate::engine::{Answer, Game, Input, Outcome, Phase, Query, Step};
use crate::seeded::Draws;

use super::game::Slime;
use super::options::{Parsing, SlimeOptions};
use super::protocol::{ParseError, encode_request, parse_reply};
use super::rules::{Board, IllegalMove, MoveKind, mark};

const MOVES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../games/slime/moves.txt"
));

fn board_of(payload: &[u8]) -> Board {
    let text = std::str::from_utf8(payload).unwrap();
    Board::from_rows(&text.lines().collect::<Vec<_>>())
}

/// What the rules make of `reply` by `seat` on `board`, named as in the vector files.
fn classify(board: &Board, seat: usize, reply: &[u8], parsing: Parsing) -> String {
    let raw = match parse_reply(reply, parsing) {
        Ok(raw) => raw,
        Err(ParseError::NoOutput) => return "pass:no-output".into(),
        Err(ParseError::NotFourIntegers) => return "pass:not-four-integers".into(),
        Err(ParseError::Unterminated) => return "pass:unterminated".into(),
    };
    match board.validate(seat, raw) {
        Ok(mv) => match mv.kind {
            MoveKind::Spread => "spread",
            MoveKind::Jump => "jump",
            MoveKind::Merge => "merge",
        }
        .into(),
        Err(why) => match why {
            IllegalMove::OffBoard => "pass:off-board",
            IllegalMove::NotOwnSource => "pass:not-own-source",
            IllegalMove::EnemyTarget => "pass:enemy-target",
            IllegalMove::BadDistance => "pass:bad-distance",
            IllegalMove::LongMerge => "pass:long-merge",
        }
        .into(),
    }
}

fn options(parsing: Parsing, max_turns: u32) -> SlimeOptions {
    SlimeOptions {
        parsing,
        max_turns,
        ..SlimeOptions::default()
    }
}

/// The argument of the only query of `step`, after checking it is one play-phase request
/// to `seat`.
fn argument(step: Step, seat: usize) -> String {
    let Step::Ask(queries) = step else {
        panic!("expected a request, got {step:?}")
    };
    let [
        Query {
            seat: asked,
            input: Input::Args(args),
            phase: Phase::Play,
        },
    ] = &queries[..]
    else {
        panic!("expected one argv request, got {queries:?}")
    };
    assert_eq!(*asked, seat);
    let [arg] = &args[..] else {
        panic!("expected one argument, got {args:?}")
    };
    arg.clone()
}

/// Every record of `games/slime/moves.txt`: the request bytes, what each reply is, and the
/// board after it, played through the engine from a game where that seat is to move.
#[test]
fn the_move_vectors_play_as_written() {
    let mut board = None;
    let mut pending: Option<(usize, Parsing, Vec<u8>)> = None;
    let mut checked = 0;
    for record in records(MOVES) {
        let seat_word = |word: &str| word.parse::<usize>().unwrap() - 1;
        match record.words[0].as_str() {
            "board" => board = Some(board_of(&record.payload)),
            "request" => {
                let board = board.clone().expect("a board comes first");
                let seat = seat_word(&record.words[1]);
                assert_eq!(encode_request(&board, seat).as_bytes(), record.payload);
            }
            "reply" => {
                let parsing = match record.words[2].as_str() {
                    "strict" => Parsing::Strict,
                    "lenient" => Parsing::Lenient,
                    other => panic!("unknown parsing {other}"),
                };
                pending = Some((seat_word(&record.words[1]), parsing, record.payload));
            }
            "after" => {
                let before = board.clone().expect("a board comes first");
                let (seat, parsing, reply) = pending.take().expect("a reply comes first");
                let what = classify(&before, seat, &reply, parsing);
                assert_eq!(
                    what,
                    record.words[1],
                    "reply {:?}",
                    String::from_utf8_lossy(&reply)
                );
                let mut game =
                    Slime::from_board(before.clone(), seat as u32, &options(parsing, 2000));
                assert_eq!(argument(game.poll(), seat), encode_request(&before, seat));
                game.handle_answers(&[Answer::Reply(reply)]);
                assert_eq!(*game.board(), board_of(&record.payload), "after {what}");
                checked += 1;
            }
            other => panic!("unknown record {other}"),
        }
    }
    assert_eq!(checked, 24, "every vector was played");
}

/// Plays `game` with `bot`, which gets the seat and the argument, and returns the outcome
/// and the seats in the order they were asked.
fn play_args(
    game: &mut Slime,
    mut bot: impl FnMut(usize, &str) -> Answer,
) -> (Outcome, Vec<usize>) {
    let mut asked = Vec::new();
    let outcome = play(
        game,
        |query| {
            let Input::Args(args) = &query.input else {
                panic!("slime passes the board as an argument")
            };
            asked.push(query.seat);
            bot(query.seat, &args[0])
        },
        100_000,
    );
    (outcome, asked)
}

fn reply(text: &str) -> Answer {
    Answer::Reply(text.as_bytes().to_vec())
}

fn scores(outcome: &Outcome) -> Vec<i64> {
    outcome.seats.iter().map(|seat| seat.score).collect()
}

fn invalid(outcome: &Outcome) -> Vec<u32> {
    outcome
        .seats
        .iter()
        .map(|seat| seat.invalid_replies)
        .collect()
}

#[test]
fn the_turn_cap_counts_every_turn_and_passes_score_the_start() {
    let mut game = Slime::new(&options(Parsing::Strict, 10)).unwrap();
    let (outcome, asked) = play_args(&mut game, |_, _| reply("0 0 0 0\n"));
    assert_eq!(asked, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
    assert_eq!(scores(&outcome), [1, 1, 1, 1]);
    assert_eq!(invalid(&outcome), [3, 3, 2, 2]);
    assert_eq!(
        outcome.summary,
        "turn cap of 10 reached with 60 empty cells; cells 1-1-1-1"
    );
    assert!(outcome.seats.iter().all(|seat| seat.result.is_none()));
}

#[test]
fn no_reply_is_a_pass_the_engine_does_not_count() {
    let mut game = Slime::new(&options(Parsing::Strict, 8)).unwrap();
    let (outcome, asked) = play_args(&mut game, |_, _| Answer::NoReply);
    assert_eq!(asked.len(), 8);
    assert_eq!(invalid(&outcome), [0; 4]);
    assert_eq!(scores(&outcome), [1, 1, 1, 1]);
}

#[test]
fn a_two_by_two_board_starts_full_and_ends_before_any_turn() {
    let options = SlimeOptions {
        size: 2,
        ..SlimeOptions::default()
    };
    let mut game = Slime::new(&options).unwrap();
    let Step::Done(outcome) = game.poll() else {
        panic!("a full board ends the game")
    };
    assert_eq!(scores(&outcome), [1, 1, 1, 1]);
    assert_eq!(outcome.summary, "board full after 0 turns; cells 1-1-1-1");
}

/// The board-full check runs before every turn, so the game can end mid-round
/// (games/slime.md, "Rules").
#[test]
fn filling_the_last_cell_ends_the_game_in_the_middle_of_a_round() {
    let board = Board::from_rows(&["112", "1.2", "334"]);
    // Seat 1 (player 2) is to move: turn 5.
    let mut game = Slime::from_board(board, 5, &SlimeOptions::default());
    let (outcome, asked) = play_args(&mut game, |seat, arg| {
        assert_eq!(arg, "2,112,1.2,334");
        assert_eq!(seat, 1);
        reply("0 2 1 1\n")
    });
    assert_eq!(asked, [1]);
    assert_eq!(scores(&outcome), [0, 9, 0, 0]);
    assert_eq!(outcome.summary, "board full after 6 turns; cells 0-9-0-0");
}

/// games/slime.md, "Rules": a player without slime is still asked, with its seat and the board, and
/// its turns count towards the cap. Whatever it answers is the pass it must play, so no reply of it
/// counts as invalid.
#[test]
fn an_eliminated_player_is_still_asked_and_its_turns_count() {
    let board = Board::from_rows(&["1...", "....", "....", "3..4"]);
    let mut game = Slime::from_board(board, 0, &options(Parsing::Strict, 8));
    let mut arguments = Vec::new();
    let (outcome, asked) = play_args(&mut game, |seat, arg| {
        arguments.push(arg.to_owned());
        // Player 2 has no cell to move from; everyone else passes too.
        if seat == 1 {
            reply("0 3 0 2\n")
        } else {
            Answer::NoReply
        }
    });
    assert_eq!(asked, [0, 1, 2, 3, 0, 1, 2, 3]);
    assert_eq!(arguments[1], "2,1...,....,....,3..4");
    assert_eq!(scores(&outcome), [1, 0, 1, 1]);
    assert_eq!(invalid(&outcome), [0, 0, 0, 0]);
}

/// A player with cells but no legal move (no empty cell within 2, no own cell beside one)
/// can only pass too; a player with a move that sends a bad one is counted.
#[test]
fn only_a_player_with_a_legal_move_can_send_an_invalid_one() {
    let board = Board::from_rows(&["1222.", "22222", "22222", "22233", "22244"]);
    assert!(!board.has_move(0));
    assert!(board.has_move(1) && board.has_move(2) && board.has_move(3));
    let mut game = Slime::from_board(board, 0, &options(Parsing::Strict, 4));
    let (outcome, asked) = play_args(&mut game, |_, _| reply("0 0 1 1\n"));
    assert_eq!(asked, [0, 1, 2, 3]);
    // Player 1 cannot move; players 2 to 4 could, and (0, 0) is not theirs.
    assert_eq!(invalid(&outcome), [0, 1, 1, 1]);
}

/// games/slime.md, "Protocol": a bot that prints a legal move without a newline (DeathSlime) always
/// passes under strict parsing and plays under lenient parsing.
#[test]
fn a_bot_without_newlines_passes_only_under_strict_parsing() {
    let spread_right = |seat: usize, arg: &str| {
        // Spread from the first own cell to the first empty neighbour, without a newline.
        let rows: Vec<&str> = arg.split(',').skip(1).collect();
        let own = mark(seat);
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.bytes().enumerate() {
                if cell != own {
                    continue;
                }
                for (tr, tc) in [
                    (r + 1, c),
                    (r, c + 1),
                    (r.wrapping_sub(1), c),
                    (r, c.wrapping_sub(1)),
                ] {
                    if rows.get(tr).and_then(|row| row.as_bytes().get(tc)) == Some(&b'.') {
                        return reply(&format!("{r} {c} {tr} {tc}"));
                    }
                }
            }
        }
        reply("0 0 0 0")
    };
    let mut strict = Slime::new(&options(Parsing::Strict, 40)).unwrap();
    let (outcome, _) = play_args(&mut strict, spread_right);
    assert_eq!(scores(&outcome), [1, 1, 1, 1]);
    assert_eq!(invalid(&outcome), [10; 4]);
    let mut lenient = Slime::new(&options(Parsing::Lenient, 40)).unwrap();
    let (outcome, _) = play_args(&mut lenient, spread_right);
    assert!(scores(&outcome).iter().sum::<i64>() > 4, "{outcome:?}");
}

#[test]
#[should_panic(expected = "an Ask of 1 queries got 2 answers")]
fn two_answers_to_one_request_are_a_driver_bug() {
    let mut game = Slime::new(&SlimeOptions::default()).unwrap();
    game.poll();
    game.handle_answers(&[Answer::NoReply, Answer::NoReply]);
}

fn random_reply(rng: &mut Draws, size: usize) -> Answer {
    let coordinate = |rng: &mut Draws| rng.below(size + 4) as i64 - 2;
    match rng.below(10) {
        0 => Answer::NoReply,
        1 => Answer::Reply(rng.bytes(200)),
        2 => reply(rng.pick(&["", "\n", "0 0 0 0\n", "-1 -1 -1 -1\n", "9999999999 1 2 3\n"])),
        _ => {
            let numbers: Vec<String> = (0..4).map(|_| coordinate(rng).to_string()).collect();
            let end = rng.pick(&["\n", "", " x\n", "\n1 2 3 4\n"]);
            reply(&format!("{}{end}", numbers.join(" ")))
        }
    }
}

/// Random legal-looking moves and garbage: the engine never panics, every cell is empty or
/// owned, the game ends by a full board or the cap, and the scores are the owned cells.
#[test]
fn random_and_garbage_replies_never_break_the_rules() {
    let mut rng = Draws::new(0x5eed_511e);
    for round in 0..2000 {
        let size = 2 + rng.below(7);
        let max_turns = 1 + rng.below(400) as u32;
        let parsing = if round % 2 == 0 {
            Parsing::Strict
        } else {
            Parsing::Lenient
        };
        let options = SlimeOptions {
            size: size as u16,
            max_turns,
            parsing,
            rotate_seats: false,
        };
        let mut game = Slime::new(&options).unwrap();
        let mut turns = 0;
        let outcome = loop {
            match game.poll() {
                Step::Done(outcome) => break outcome,
                Step::Ask(queries) => {
                    assert_eq!(queries.len(), 1);
                    assert_eq!(queries[0].seat, turns % 4);
                    turns += 1;
                    game.handle_answers(&[random_reply(&mut rng, size)]);
                    let board = game.board();
                    let owned: usize = (0..4).map(|seat| board.count(seat)).sum();
                    assert_eq!(owned + board.empty_cells(), size * size);
                    let snapshot = game.snapshot().expect("slime always has a board");
                    assert_eq!(snapshot.problems(), Vec::<String>::new());
                    assert_eq!(snapshot.turn as usize, turns);
                    let counts: Vec<i64> = (0..4).map(|seat| board.count(seat) as i64).collect();
                    assert_eq!(snapshot.scores, counts);
                    assert_eq!(snapshot.events.len(), 1, "the move or the pass");
                }
            }
        };
        assert!(turns <= max_turns as usize);
        assert!(
            turns == max_turns as usize || game.board().is_full(),
            "{outcome:?}"
        );
        let board = game.board();
        for (seat, result) in outcome.seats.iter().enumerate() {
            assert_eq!(result.score, board.count(seat) as i64);
        }
        let invalid: u32 = invalid(&outcome).iter().sum();
        assert!(invalid as usize <= turns);
    }
}
