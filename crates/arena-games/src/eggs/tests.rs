//! Engine-level tests: the byte-exact run in `games/eggs/requests.txt`, the generator's
//! guarantees, and a randomized run that feeds the engine garbage and checks the rules'
//! invariants after every turn.

use crate::engine::testing::{VectorRecord as Record, vector_records as records};
use std::collections::BTreeSet;

use crate::engine::testing::play;
use crate::engine::{Answer, Game, Input, Step};

use super::board::{self, Board, Cell, Pos};
use super::game::Eggs;
use super::options::EggsOptions;
use super::protocol::parse_reply;
use super::rules::{Action, Direction, Hunt};
use crate::seeded;

const REQUESTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../games/eggs/requests.txt"
));

fn value<'a>(record: &'a Record, key: &str) -> &'a str {
    record
        .words
        .iter()
        .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("{key}= in {:?}", record.words))
}

/// Hands the pending replies to the engine as one turn (seats without one get no reply).
fn play_turn(game: &mut Eggs, pending: &mut Vec<(usize, Vec<u8>)>) {
    if pending.is_empty() {
        return;
    }
    let Step::Ask(queries) = game.poll() else {
        panic!("the run ended before its replies");
    };
    let answers: Vec<Answer> = queries
        .iter()
        .map(|query| {
            pending
                .iter()
                .find(|(seat, _)| *seat == query.seat)
                .map_or(Answer::NoReply, |(_, reply)| Answer::Reply(reply.clone()))
        })
        .collect();
    game.handle_answers(&answers);
    pending.clear();
}

#[test]
fn the_byte_exact_run_in_games_eggs_plays_as_written() {
    let mut board = None;
    let mut game = None;
    let mut pending = Vec::new();
    let mut checked = 0;
    for record in records(REQUESTS) {
        match record.words[0].as_str() {
            "board" => board = Some(Board::parse(record.text()).unwrap()),
            "players" => {
                let starts = record.words[1..]
                    .iter()
                    .map(|word| {
                        let (row, col) = word.split_once(',').unwrap();
                        Pos::new(row.parse().unwrap(), col.parse().unwrap())
                    })
                    .collect();
                let hunt = Hunt::new(board.take().unwrap(), starts, 7);
                game = Some(Eggs::from_hunt(hunt));
            }
            "request" => {
                let game = game.as_mut().unwrap();
                play_turn(game, &mut pending);
                let seat: usize = record.words[1].parse().unwrap();
                let Step::Ask(queries) = game.poll() else {
                    panic!("the run ended before request {:?}", record.words);
                };
                let expected = [record.payload.as_slice(), b"\n"].concat();
                assert_eq!(queries[seat].seat, seat);
                assert_eq!(
                    queries[seat].input,
                    Input::Stdin(expected),
                    "{:?}",
                    record.words
                );
                checked += 1;
            }
            "reply" => {
                let seat: usize = record.words[1].parse().unwrap();
                let mut bytes = record.payload.clone();
                if record.words.last().unwrap() == "+newline" {
                    bytes.push(b'\n');
                }
                let reply = parse_reply(&bytes);
                let digit: u64 = value(&record, "dir").parse().unwrap();
                assert_eq!(reply.mv.direction, Direction::from_digit(digit).unwrap());
                let action = match value(&record, "action") {
                    "A" => Action::Attack,
                    "C" => Action::Counter,
                    _ => Action::Nothing,
                };
                assert_eq!(reply.mv.action, action, "{:?}", record.words);
                assert_eq!(reply.invalid.is_some(), value(&record, "invalid") == "yes");
                pending.push((seat, bytes));
                checked += 1;
            }
            "scores" => {
                let game = game.as_mut().unwrap();
                play_turn(game, &mut pending);
                let expected: Vec<i64> = record.words[1..]
                    .iter()
                    .map(|w| w.parse().unwrap())
                    .collect();
                let Step::Done(outcome) = game.poll() else {
                    panic!("the run goes on after its last egg");
                };
                let scores: Vec<i64> = outcome.seats.iter().map(|s| s.score).collect();
                assert_eq!(scores, expected);
                let invalid: Vec<u32> = outcome.seats.iter().map(|s| s.invalid_replies).collect();
                assert_eq!(invalid, [0, 1]);
                checked += 1;
            }
            other => panic!("unknown record {other}"),
        }
    }
    assert_eq!(checked, 9, "every record of the file was checked");
}

#[test]
fn generated_boards_have_the_spec_dimensions_and_counts() {
    for (seed, n) in [(1, 7), (2, 7), (3, 8), (4, 12), (5, 20)] {
        let (board, starts) = board::generate(&mut seeded::rng(seed), n, n);
        assert_eq!((board.rows(), board.cols()), (3 * n, 3 * n));
        assert_eq!(board.eggs(), 4 * n, "seed {seed}");
        for i in 0..3 * n {
            for edge in [
                Pos::new(0, i),
                Pos::new(3 * n - 1, i),
                Pos::new(i, 0),
                Pos::new(i, 3 * n - 1),
            ] {
                assert_eq!(board.get(edge), Some(Cell::Wall));
            }
        }
        // At least some inner walls: 3n segments of length 2 or more cannot all vanish
        // into the border.
        let inner_walls = board.positions(Cell::Wall).len() - 4 * (3 * n - 1);
        assert!(inner_walls >= 2, "seed {seed}");
        assert_eq!(starts.len(), n);
        let distinct: BTreeSet<_> = starts.iter().collect();
        assert_eq!(distinct.len(), n, "players start on distinct squares");
        assert!(starts.iter().all(|&p| board.get(p) == Some(Cell::Floor)));
    }
}

#[test]
fn every_egg_is_reachable_from_every_start() {
    for seed in 0..40 {
        let (board, starts) = board::generate(&mut seeded::rng(seed), 7, 7);
        for start in starts {
            let reach = board.component(start);
            for egg in board.positions(Cell::Egg) {
                assert!(
                    reach[egg.row * board.cols() + egg.col],
                    "seed {seed}: {egg:?}"
                );
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_board_and_another_seed_another() {
    let first = board::generate(&mut seeded::rng(42), 7, 7);
    assert_eq!(board::generate(&mut seeded::rng(42), 7, 7), first);
    assert_ne!(board::generate(&mut seeded::rng(43), 7, 7), first);
}

#[test]
fn sized_as_seven_a_small_field_gets_a_seven_player_board() {
    let options = EggsOptions {
        size_as_seven: true,
        ..EggsOptions::default()
    };
    let game = Eggs::new(&options, 9, 3).unwrap();
    let hunt = game.hunt().unwrap();
    assert_eq!(hunt.board().rows(), 21);
    assert_eq!(hunt.board().eggs(), 28);
    assert_eq!(hunt.positions().len(), 3);
}

#[test]
fn a_fixed_map_is_kept_and_players_start_on_its_free_squares() {
    let map = Board::parse("#######\n#o   o#\n#  #  #\n#######\n").unwrap();
    let options = EggsOptions {
        map: Some("m.txt".into()),
        fixed_map: Some(map.clone().into()),
        ..EggsOptions::default()
    };
    for seed in 0..10 {
        let game = Eggs::new(&options, seed, 4).unwrap();
        let hunt = game.hunt().unwrap();
        assert_eq!(hunt.board(), &map);
        let distinct: BTreeSet<_> = hunt.positions().iter().collect();
        assert_eq!(distinct.len(), 4);
        assert!(
            hunt.positions()
                .iter()
                .all(|&p| map.get(p) == Some(Cell::Floor))
        );
    }
}

#[test]
fn generated_board_text_round_trips_through_the_map_format() {
    let (board, _) = board::generate(&mut seeded::rng(7), 7, 7);
    assert_eq!(Board::parse(&board.render()).unwrap(), board);
}

/// A tiny deterministic generator for the garbage test (not the engine's RNG).
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn garbage_replies_never_panic_and_eggs_never_come_back() {
    let pieces: [&[u8]; 12] = [
        b"4",
        b"9\nA",
        b"1\nC\nmem",
        b"\n\n\n",
        b"0",
        b"7\nN\r\n",
        b"\xff\xfe",
        b"5\nZ",
        b"6\nA\nx",
        b"  3  \n C ",
        b"-1",
        b"8\nN\n",
    ];
    for seed in 0..1000 {
        let mut game = Eggs::new(&EggsOptions::default(), seed, 7).unwrap();
        let mut state = seed + 0x9e37_79b9;
        let mut eggs = game.hunt().unwrap().board().eggs();
        let mut total = 0;
        let mut turns = 0;
        loop {
            match game.poll() {
                Step::Done(outcome) => {
                    let collected: i64 = outcome.seats.iter().map(|s| s.score).sum();
                    assert!(collected + eggs as i64 <= 28, "scores come from eggs");
                    assert!(turns <= 175, "the run ends within 25n turns");
                    break;
                }
                Step::Ask(queries) => {
                    assert_eq!(queries.len(), 7, "everyone is asked in one batch");
                    let answers: Vec<Answer> = queries
                        .iter()
                        .map(|_| match next(&mut state) % 13 {
                            12 => Answer::NoReply,
                            i => Answer::Reply(pieces[i as usize].to_vec()),
                        })
                        .collect();
                    game.handle_answers(&answers);
                    turns += 1;
                    let hunt = game.hunt().unwrap();
                    let now = hunt.board().eggs();
                    assert!(now <= eggs, "egg count never increases");
                    let gone = eggs - now;
                    eggs = now;
                    let snapshot = game.snapshot().expect("a run in play has a board");
                    assert_eq!(snapshot.problems(), Vec::<String>::new());
                    assert_eq!(snapshot.turn, turns);
                    let scores: Vec<i64> = hunt.scores().iter().map(|&s| i64::from(s)).collect();
                    assert_eq!(snapshot.scores, scores);
                    let collected: i64 = scores.iter().sum::<i64>() - total;
                    total += collected;
                    let said = |suffix: &str| snapshot.events.iter().any(|e| e.ends_with(suffix));
                    let collectors = snapshot.events.iter().filter(|e| e.ends_with("an egg"));
                    assert_eq!(
                        collectors.count() as i64,
                        collected,
                        "{:?}",
                        snapshot.events
                    );
                    assert_eq!(
                        said("destroyed"),
                        gone as i64 > collected,
                        "{:?}",
                        snapshot.events
                    );
                    let players = snapshot.cells.chars().filter(char::is_ascii_uppercase);
                    assert_eq!(players.count(), 7, "every player drawn");
                    let squares: BTreeSet<_> = hunt.positions().iter().collect();
                    assert_eq!(squares.len(), 7, "nobody shares a square after a turn");
                    assert!(
                        hunt.positions()
                            .iter()
                            .all(|&p| hunt.board().get(p) == Some(Cell::Floor)),
                        "nobody stands on a wall or an egg after a turn"
                    );
                }
            }
        }
    }
}

#[test]
fn a_bot_that_never_answers_ends_the_run_at_the_turn_limit() {
    let mut game = Eggs::new(&EggsOptions::default(), 3, 7).unwrap();
    let outcome = play(&mut game, |_| Answer::NoReply, 200);
    assert!(
        outcome.summary.starts_with("turn limit after 175 turns"),
        "{}",
        outcome.summary
    );
    assert!(
        outcome
            .seats
            .iter()
            .all(|s| s.score == 0 && s.invalid_replies == 0)
    );
}
