//! Engine-level tests: the byte-exact inputs in `games/cave/inputs.txt`, every creature, item
//! and terrain effect, the turn order, the blocked diagonal example, the revealer's noisy
//! ring, the generator, and a randomized game fed garbage whose invariants are checked
//! after every answer.

use std::collections::BTreeSet;

use crate::engine::testing::{play, vector_records};
use crate::engine::{Answer, Game, Input, Step};
use crate::seeded;
use crate::seeded::Draws;

use super::game::Cave;
use super::generate::{generate, side};
use super::options::{CaveOptions, Confusion, Density, Order};
use super::protocol::{direction_of_code, encode_input, parse_reply};
use super::rules::Action;
use super::view::window;
use super::world::{Creature, Ground, Item, Killer, Kind, Nina, Pos, Robot, World};
use crate::compass::Compass;

const INPUTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../games/cave/inputs.txt"
));
const REPLIES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../games/cave/replies.txt"
));

/// Nina's spot when a picture has no `N`: off the cave, never jumping.
const NO_NINA: Nina = Nina {
    pos: Pos::new(usize::MAX, usize::MAX),
    stay: u32::MAX,
};

/// A cave drawn as text (see the header of `games/cave/inputs.txt`): creatures are created
/// in reading order, digits are bots by seat.
fn world(picture: &str) -> World {
    let rows: Vec<&str> = picture
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let side = rows.len();
    let mut world = World::bare(side, Pos::new(0, 0), &[]);
    world.nina = NO_NINA;
    let mut seats = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), side, "a cave is square: {row:?}");
        for (x, symbol) in row.bytes().enumerate() {
            let pos = Pos::new(x, y);
            let ground = match symbol {
                b'}' => Ground::Boulder,
                b'P' => Ground::Pit,
                b'G' => Ground::Item(Item::Gold),
                b'F' => Ground::Item(Item::Food),
                b'W' => Ground::Item(Item::Water),
                b'K' => Ground::Item(Item::Knife),
                b'R' => Ground::Item(Item::Revealer),
                _ => Ground::Bare,
            };
            world.set_ground(pos, ground);
            let kind = match symbol {
                b'C' => Some(Kind::Centipede),
                b'B' => Some(Kind::Bats),
                b'L' => Some(Kind::Lion),
                _ => None,
            };
            if let Some(kind) = kind {
                world.creatures.push(Creature { kind, pos });
            }
            match symbol {
                b'N' => world.nina = Nina { pos, stay: 3 },
                b'0'..=b'9' => seats.push((symbol - b'0', pos)),
                b'-' | b'}' | b'P' | b'G' | b'F' | b'W' | b'K' | b'R' | b'C' | b'B' | b'L' => {}
                other => panic!("unknown symbol {:?}", char::from(other)),
            }
        }
    }
    seats.sort();
    world.robots = seats.into_iter().map(|(_, pos)| Robot::new(pos)).collect();
    world
}

/// An empty cave of `side` x `side` bare cells.
fn open_cave(side: usize) -> World {
    world(&format!("{}\n", "-".repeat(side)).repeat(side))
}

fn rng() -> rand_chacha::ChaCha12Rng {
    seeded::rng(1)
}

fn pos(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

/// Plays `actions` for `seat` without confusion.
fn act(world: &mut World, seat: usize, actions: [Action; 2]) {
    world.act(seat, actions, Confusion::TwoMoves, &mut rng());
}

fn moves(first: Compass, second: Compass) -> [Action; 2] {
    [Action::Move(first), Action::Move(second)]
}

fn value<'a>(words: &'a [String], key: &str) -> Option<&'a str> {
    words
        .iter()
        .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
}

fn xy(text: &str) -> Pos {
    let mut parts = text.split(',').map(|n| n.parse::<usize>().unwrap());
    Pos::new(parts.next().unwrap(), parts.next().unwrap())
}

#[test]
fn the_byte_exact_inputs_in_games_cave_are_what_bots_read() {
    let mut cave = None;
    let mut checked = 0;
    for record in vector_records(INPUTS) {
        let words = &record.words;
        match words[0].as_str() {
            "cave" => {
                let mut drawn = world(record.text());
                if let Some(at) = value(words, "nina") {
                    drawn.nina = Nina {
                        pos: xy(at),
                        stay: 3,
                    };
                }
                if let Some(at) = value(words, "bats") {
                    drawn.creatures.push(Creature {
                        kind: Kind::Bats,
                        pos: xy(at),
                    });
                }
                if let Some(spec) = value(words, "ground") {
                    let (at, symbol) = spec.rsplit_once(',').unwrap();
                    let item = match symbol {
                        "G" => Item::Gold,
                        other => panic!("ground item {other}"),
                    };
                    drawn.set_ground(xy(at), Ground::Item(item));
                }
                cave = Some(drawn);
            }
            "input" => {
                let mut world = cave.clone().expect("a cave before its inputs");
                let seat: usize = value(words, "seat").unwrap().parse().unwrap();
                let robot = &mut world.robots[seat];
                let number = |key| value(words, key).map(|v| v.parse::<u32>().unwrap());
                robot.health = number("health").map_or(20, i64::from);
                robot.gold = number("gold").unwrap_or(0);
                robot.turns = number("turns").unwrap_or(0);
                robot.poison = number("poison").unwrap_or(0);
                robot.pit = number("pit").unwrap_or(0);
                robot.revealer = value(words, "revealer") == Some("True");
                robot.knife = value(words, "knife") == Some("True");
                let noise = number("noise").unwrap_or(25);
                let mut rng = seeded::rng(number("seed").map_or(0, u64::from));
                let rows = window(&world, seat, noise, &mut rng);
                let bytes = encode_input(&world.robots[seat], &rows);
                assert_eq!(String::from_utf8_lossy(&bytes), record.text(), "{words:?}");
                checked += 1;
            }
            "note" => {}
            other => panic!("unknown record {other}"),
        }
    }
    assert_eq!(checked, 10, "every input record was checked");
}

#[test]
fn the_window_is_clipped_at_every_edge_and_corner() {
    let world = world(
        "0---1
         -----
         --2--
         -----
         3---4",
    );
    let size = |seat| {
        let rows = window(&world, seat, 25, &mut rng());
        (rows[0].len(), rows.len())
    };
    // The four corners see 3x3, the centre 5x5.
    assert_eq!([0, 1, 3, 4].map(size), [(3, 3); 4]);
    assert_eq!(size(2), (5, 5));
    let rows = window(&world, 4, 25, &mut rng());
    assert_eq!(rows, [b"@--".to_vec(), b"---".to_vec(), b"--Y".to_vec()]);
}

#[test]
fn the_revealer_ring_is_noisy_with_the_seeded_rate_and_the_core_exact() {
    let mut world = open_cave(11);
    world.robots = vec![Robot::new(pos(5, 5))];
    world.robots[0].revealer = true;
    let mut rng = seeded::rng(7);
    let (mut fakes, mut outer) = (0, 0);
    for _ in 0..400 {
        let rows = window(&world, 0, 25, &mut rng);
        assert_eq!((rows.len(), rows[0].len()), (11, 11));
        for (y, row) in rows.iter().enumerate() {
            for (x, &symbol) in row.iter().enumerate() {
                let here = pos(x, y);
                assert_ne!(symbol == b'Y', here != pos(5, 5), "only the bot is Y");
                if here.distance(pos(5, 5)) <= 2 {
                    assert!(symbol == b'-' || here == pos(5, 5), "the core is exact");
                } else {
                    outer += 1;
                    fakes += usize::from(symbol != b'-');
                }
            }
        }
    }
    // 96 ring cells x 400 inputs, 1/4 fake: 9600 expected, sd about 42.
    assert_eq!(outer, 96 * 400);
    assert!((9300..9900).contains(&fakes), "{fakes} fakes");
    // The same seed gives the same views; no noise and full noise behave as named.
    let view = |noise, seed| window(&world, 0, noise, &mut seeded::rng(seed));
    assert_eq!(view(25, 3), view(25, 3));
    assert!(view(0, 3).iter().flatten().all(|&s| s == b'-' || s == b'Y'));
    let full = view(100, 3);
    let wrong = full
        .iter()
        .flatten()
        .filter(|&&s| s != b'-' && s != b'Y')
        .count();
    assert_eq!(wrong, 96);
}

#[test]
fn the_challenges_blocked_diagonal_example_moves_one_south() {
    // A bot on the West edge with a boulder directly North: `MNW` does nothing (diagonal
    // off the cave, North a boulder, West off the cave); `MSW` moves it one South.
    let mut cave = world(
        "}----
         0----
         -----
         -----
         -----",
    );
    act(&mut cave, 0, moves(Compass::NW, Compass::SW));
    assert_eq!(cave.robots[0].pos, pos(0, 2));
}

#[test]
fn a_free_diagonal_is_taken_straight_and_a_blocked_one_falls_back() {
    // Boulders N and E do not stop a free NE diagonal: no corner cutting.
    let mut cave = world(
        "-----
         -----
         --}--
         --0}-
         -----",
    );
    act(&mut cave, 0, [Action::Move(Compass::NE), Action::Hold]);
    assert_eq!(cave.robots[0].pos, pos(3, 2));
    // Blocked diagonal: vertical first, then horizontal, else stay.
    let mut cave = world(
        "-----
         ---}-
         --0--
         -----
         -----",
    );
    act(&mut cave, 0, [Action::Move(Compass::NE), Action::Hold]);
    assert_eq!(cave.robots[0].pos, pos(2, 1), "vertical component");
    let mut cave = world(
        "-----
         --}L-
         --0--
         -----
         -----",
    );
    act(&mut cave, 0, [Action::Move(Compass::NE), Action::Hold]);
    assert_eq!(cave.robots[0].pos, pos(3, 2), "horizontal component");
    let mut cave = world(
        "-----
         --}L-
         --01-
         -----
         -----",
    );
    act(&mut cave, 0, [Action::Move(Compass::NE), Action::Hold]);
    assert_eq!(cave.robots[0].pos, pos(2, 2), "nothing enterable");
    // Orthogonal moves never slide.
    act(&mut cave, 0, moves(Compass::N, Compass::E));
    assert_eq!(cave.robots[0].pos, pos(2, 2));
}

#[test]
fn bots_are_blocked_by_edges_boulders_bots_lions_and_centipedes_only() {
    let mut cave = world(
        "-B-
         C0L
         }1N",
    );
    for dir in [Compass::W, Compass::E, Compass::SW, Compass::S] {
        act(&mut cave, 0, [Action::Move(dir), Action::Hold]);
        assert_eq!(cave.robots[0].pos, pos(1, 1), "{dir:?}");
    }
    // Bats and Nina do not block.
    act(&mut cave, 0, [Action::Move(Compass::N), Action::Hold]);
    assert_eq!(cave.robots[0].pos, pos(1, 0));
    act(&mut cave, 0, moves(Compass::N, Compass::N));
    assert_eq!(cave.robots[0].pos, pos(1, 0), "the North edge");
    let mut cave = world(
        "---
         -0N
         ---",
    );
    act(&mut cave, 0, [Action::Move(Compass::E), Action::Hold]);
    assert_eq!(cave.robots[0].pos, pos(2, 1));
}

#[test]
fn items_are_taken_on_entry_and_used_up() {
    let mut cave = world(
        "GFWKRR-
         0------
         -------
         -------
         -------
         -------
         -------",
    );
    cave.robots[0].poison = 0;
    act(&mut cave, 0, moves(Compass::N, Compass::E));
    let robot = cave.robots[0];
    assert_eq!((robot.gold, robot.health), (1, 25), "gold +1, food +5");
    assert_eq!(cave.ground(pos(0, 0)), Ground::Bare);
    assert_eq!(cave.ground(pos(1, 0)), Ground::Bare);
    // Water is used up even without poison (games/cave.md, "Moves"); with poison it cures it.
    act(&mut cave, 0, [Action::Move(Compass::E), Action::Hold]);
    assert_eq!(cave.ground(pos(2, 0)), Ground::Bare);
    assert_eq!(cave.robots[0].poison, 0);
    act(&mut cave, 0, moves(Compass::E, Compass::E));
    let robot = cave.robots[0];
    assert!(robot.knife && robot.revealer);
    // A second revealer is consumed with no further effect.
    act(&mut cave, 0, [Action::Move(Compass::E), Action::Hold]);
    assert_eq!(cave.ground(pos(5, 0)), Ground::Bare);
    assert!(cave.robots[0].revealer);
    assert_eq!(
        window(&cave, 0, 0, &mut rng()).len(),
        6,
        "11 rows clipped to 6"
    );
    let mut poisoned = world(
        "0W-
         ---
         ---",
    );
    poisoned.robots[0].poison = 3;
    act(&mut poisoned, 0, [Action::Move(Compass::E), Action::Hold]);
    assert_eq!(
        (poisoned.robots[0].poison, poisoned.robots[0].health),
        (0, 20),
        "water cures, gives no health"
    );
}

#[test]
fn bot_attacks_deal_five_ten_with_a_knife_and_kill_any_creature() {
    let mut cave = world(
        "-L-
         -0-
         -1-",
    );
    act(
        &mut cave,
        0,
        [Action::Attack(Compass::S), Action::Attack(Compass::N)],
    );
    assert_eq!(cave.robots[1].health, 15);
    assert!(cave.creatures.is_empty(), "one hit kills a lion");
    cave.robots[0].knife = true;
    act(
        &mut cave,
        0,
        [Action::Attack(Compass::S), Action::Attack(Compass::S)],
    );
    assert!(!cave.robots[1].alive(), "15 - 10 - 10");
    assert_eq!(cave.robots[1].death, Some((0, Killer::Bot(0))));
    assert_eq!(cave.robot_at(pos(1, 2)), None, "a dead bot frees its cell");
    // Attacks on boulders, items, Nina, empty ground or off the cave do nothing.
    let mut cave = world(
        "}GN
         -0-
         ---",
    );
    let before = cave.clone();
    for dir in [Compass::NW, Compass::N, Compass::NE, Compass::S] {
        act(&mut cave, 0, [Action::Attack(dir), Action::Hold]);
    }
    assert_eq!(cave, before);
}

#[test]
fn an_attack_on_bats_sharing_a_bots_cell_kills_the_bats_and_hurts_the_bot() {
    let mut cave = world(
        "---
         01-
         ---",
    );
    cave.creatures.push(Creature {
        kind: Kind::Bats,
        pos: pos(1, 1),
    });
    act(&mut cave, 0, [Action::Attack(Compass::E), Action::Hold]);
    assert!(cave.creatures.is_empty());
    assert_eq!(cave.robots[1].health, 15);
}

#[test]
fn lions_hit_every_adjacent_bot_for_ten_and_deaths_wait_for_all_attacks() {
    let mut cave = world(
        "0-----
         -L1---
         ------
         ---3--
         ------
         ------",
    );
    cave.robots[0].health = 10;
    cave.creature_attacks();
    let health: Vec<i64> = cave.robots.iter().map(|r| r.health).collect();
    assert_eq!(
        health,
        [0, 10, 20],
        "diagonal and orthogonal neighbours, not distance 2"
    );
    assert_eq!(
        cave.robots[0].death,
        Some((0, Killer::Creature(Kind::Lion)))
    );
    assert!(cave.robots[1].alive());
}

#[test]
fn centipedes_bite_for_one_and_poison_for_three_turns_of_two() {
    let mut cave = world(
        "0C-
         ---
         ---",
    );
    cave.creature_attacks();
    assert_eq!((cave.robots[0].health, cave.robots[0].poison), (19, 3));
    cave.robots[0].poison = 1;
    cave.creature_attacks();
    assert_eq!(
        cave.robots[0].poison, 3,
        "a new bite resets to 3, never adds"
    );
    assert_eq!(cave.robots[0].health, 18);
    cave.creatures.clear();
    let mut health = Vec::new();
    for _ in 0..4 {
        cave.poison();
        health.push((cave.robots[0].health, cave.robots[0].poison));
    }
    assert_eq!(health, [(16, 2), (14, 1), (12, 0), (12, 0)]);
    cave.robots[0].health = 2;
    cave.robots[0].poison = 2;
    cave.poison();
    assert_eq!(cave.robots[0].death, Some((0, Killer::Poison)));
}

#[test]
fn creatures_wander_one_step_and_never_onto_boulders_pits_or_each_other() {
    // A lion walled in by boulders, a pit, a bot and a centipede never moves, nor does the
    // centipede, which only a bot could let out.
    let mut cave = world(
        "}}}}}
         }PL0}
         }}C}}
         }}}}}
         }}}}}",
    );
    let mut rng = rng();
    for _ in 0..50 {
        cave.move_creatures(&mut rng);
        let at: Vec<Pos> = cave.creatures.iter().map(|c| c.pos).collect();
        assert_eq!(at, [pos(2, 1), pos(2, 2)], "both are stuck");
    }
    // Bats whose only way out is onto a bot get there.
    let mut cave = world(
        "}}}}
         }B0}
         }}}}
         }}}}",
    );
    let mut bats_on_bot = false;
    for _ in 0..50 {
        cave.move_creatures(&mut rng);
        let bats = cave.creatures[0].pos;
        assert!(bats == pos(1, 1) || bats == pos(2, 1), "{bats:?}");
        bats_on_bot |= bats == pos(2, 1);
    }
    assert!(bats_on_bot, "bats may enter a bot's cell");
    // An open lion takes single steps in all 8 directions over time.
    let mut cave = open_cave(21);
    cave.creatures.push(Creature {
        kind: Kind::Lion,
        pos: pos(10, 10),
    });
    let mut steps = BTreeSet::new();
    for _ in 0..200 {
        let before = cave.creatures[0].pos;
        cave.move_creatures(&mut rng);
        let after = cave.creatures[0].pos;
        assert!(before.distance(after) <= 1);
        steps.insert((
            after.x as isize - before.x as isize,
            after.y as isize - before.y as isize,
        ));
    }
    assert!(steps.len() >= 8, "{steps:?}");
}

#[test]
fn bats_confuse_the_bot_they_share_a_cell_with_into_two_random_moves() {
    let mut cave = open_cave(5);
    cave.robots = vec![Robot::new(pos(2, 2))];
    cave.creatures.push(Creature {
        kind: Kind::Bats,
        pos: pos(2, 2),
    });
    cave.confuse();
    assert!(cave.robots[0].confused);
    let mut rng = rng();
    let mut clone = cave.clone();
    clone.act(0, Action::HOLDS, Confusion::TwoMoves, &mut rng);
    let moved = clone.robots[0].pos;
    assert_eq!(
        moved.distance(pos(2, 2)),
        2,
        "two steps one way, from the centre"
    );
    assert!(moved.x % 2 == 0 && moved.y % 2 == 0, "{moved:?}");
    let mut clone = cave.clone();
    clone.act(0, Action::HOLDS, Confusion::OneMove, &mut rng);
    assert_eq!(clone.robots[0].pos.distance(pos(2, 2)), 1);
    // The bots' own output is discarded: an attack on the bats does not happen.
    let mut clone = cave.clone();
    clone.act(
        0,
        [Action::Attack(Compass::N); 2],
        Confusion::TwoMoves,
        &mut rng,
    );
    assert_eq!(clone.creatures.len(), 1);
    // Moving onto bats confuses only from the next step 2c.
    let mut cave = world(
        "---
         0B-
         ---",
    );
    act(&mut cave, 0, [Action::Move(Compass::E), Action::Hold]);
    assert!(!cave.robots[0].confused);
    cave.confuse();
    assert!(cave.robots[0].confused);
}

#[test]
fn a_pit_holds_a_bot_for_three_turns_but_lets_it_attack() {
    let mut cave = world(
        "-----
         -0P--
         ---L-
         -----
         -----",
    );
    let mut rng = rng();
    cave.turn = 1;
    act(&mut cave, 0, moves(Compass::E, Compass::E));
    assert_eq!(
        cave.robots[0].pos,
        pos(2, 1),
        "the second move is ignored after the fall"
    );
    assert_eq!(cave.robots[0].pit, 3);
    cave.end_turn();
    assert_eq!(
        cave.robots[0].pit, 3,
        "no countdown in the turn of the fall"
    );
    let mut seen = Vec::new();
    for _ in 0..3 {
        cave.robots[0].fell = false;
        seen.push(cave.robots[0].pit);
        act(&mut cave, 0, moves(Compass::W, Compass::W));
        assert_eq!(cave.robots[0].pos, pos(2, 1), "stuck");
        cave.end_turn();
    }
    assert_eq!(seen, [3, 2, 1]);
    assert_eq!(cave.robots[0].pit, 0);
    // Attacks work from a pit; a confused bot in a pit does not move either.
    let mut stuck = cave.clone();
    stuck.robots[0].pit = 2;
    stuck.act(
        0,
        [Action::Attack(Compass::SE), Action::Hold],
        Confusion::TwoMoves,
        &mut rng,
    );
    assert!(stuck.creatures.is_empty());
    stuck.robots[0].confused = true;
    stuck.act(0, Action::HOLDS, Confusion::TwoMoves, &mut rng);
    assert_eq!(stuck.robots[0].pos, pos(2, 1));
    // Free on the fourth turn; leaving and coming back is another fall.
    act(&mut cave, 0, moves(Compass::W, Compass::E));
    assert_eq!((cave.robots[0].pos, cave.robots[0].pit), (pos(2, 1), 3));
}

#[test]
fn nina_heals_ten_each_turn_and_jumps_to_an_empty_cell_every_three_turns() {
    let mut cave = world(
        "-----
         -0N--
         -----
         -----
         -----",
    );
    let mut rng = rng();
    let mut spots = Vec::new();
    for _ in 0..9 {
        cave.move_nina(&mut rng);
        spots.push(cave.nina.pos);
    }
    assert!(
        spots[..3].iter().all(|&p| p == pos(2, 1)),
        "the first spot is a full stay"
    );
    assert!(spots[3..6].iter().all(|&p| p == spots[3]));
    assert!(spots[6..].iter().all(|&p| p == spots[6]));
    assert_ne!(spots[3], spots[2]);
    for &spot in &spots {
        assert_eq!(cave.ground(spot), Ground::Bare);
        assert_ne!(spot, cave.robots[0].pos);
    }
    cave.nina.pos = cave.robots[0].pos;
    cave.end_turn();
    cave.end_turn();
    assert_eq!(cave.robots[0].health, 40);
    assert_eq!(cave.robots[0].turns, 2);
}

#[test]
fn a_turn_runs_poison_creatures_bats_nina_bots_then_the_end_of_turn() {
    // Seat 0 is poisoned to death in step 1, before the lion (which cannot move: boulders
    // and the pit all round) hits seat 1 in step 2b; seat 1 then acts and steps onto Nina's
    // cell and is healed at the end of the turn.
    let mut cave = world(
        "}}}}}}
         }0}}}}
         }}L}1N
         }}P}}-
         }}}}}-
         }}}}}-",
    );
    cave.robots[0].health = 2;
    cave.robots[0].poison = 1;
    cave.robots[1].health = 15;
    cave.nina.stay = 2;
    let options = CaveOptions::default();
    let mut game = Cave::from_world(options, cave, rng());
    let Step::Ask(queries) = game.poll() else {
        panic!("seat 1 is asked");
    };
    let world = game.world();
    assert_eq!(world.robots[0].death, Some((1, Killer::Poison)));
    assert_eq!(world.robots[1].health, 15, "the lion is not next to seat 1");
    assert_eq!(queries.len(), 1);
    assert_eq!(queries[0].seat, 1);
    let Input::Stdin(bytes) = &queries[0].input else {
        panic!("stdin input");
    };
    assert!(bytes.starts_with(b"15,0,0,0,0,False,False\n"));
    game.handle_answers(&[Answer::Reply(b"MEEHNN\n".to_vec())]);
    // Only one bot is left alive, so the game ends after this turn (games/cave.md, "A turn").
    let Step::Done(outcome) = game.poll() else {
        panic!("the game is over");
    };
    let scores: Vec<i64> = outcome.seats.iter().map(|s| s.score).collect();
    assert_eq!(scores, [0, 1], "seat 0 died in turn 1, seat 1 survived it");
    assert_eq!(outcome.seats[1].stats["turns"], 1);
    assert_eq!(outcome.seats[0].stats["died"], 1);
    assert!(
        outcome
            .summary
            .starts_with("last bot standing after 1 turns: 1 of 2 bots alive"),
        "{}",
        outcome.summary
    );
    assert!(outcome.summary.ends_with("died: seat 0 in turn 1 (poison)"));
}

#[test]
fn nina_heals_at_the_end_of_the_turn_in_which_the_bot_arrives() {
    let cave = world(
        "0N---
         -----
         -----
         -----
         ----1",
    );
    let mut game = Cave::from_world(CaveOptions::default(), cave, rng());
    let mut turn = 0;
    let outcome = loop {
        match game.poll() {
            Step::Done(outcome) => break outcome,
            Step::Ask(queries) => {
                let answers: Vec<Answer> = queries
                    .iter()
                    .map(|q| {
                        // Seat 0 steps onto Nina in turn 1, then holds.
                        let reply: &[u8] = if q.seat == 0 && turn < 2 {
                            b"MEEHNN"
                        } else {
                            b"HNNHNN"
                        };
                        turn += usize::from(q.seat == 0);
                        Answer::Reply(reply.to_vec())
                    })
                    .collect();
                game.handle_answers(&answers);
                if turn == 1 {
                    let world = game.world();
                    assert_eq!(world.robots[0].pos, world.nina.pos);
                }
            }
        }
    };
    assert_eq!(outcome.seats[1].score, 50, "seat 1 held for 50 turns");
}

#[test]
fn invalid_and_missing_replies_hold_and_only_invalid_ones_are_counted() {
    let cave = world(
        "0G---
         -----
         -----
         -----
         ----1",
    );
    let options = CaveOptions {
        max_turns: 3,
        ..CaveOptions::default()
    };
    let mut game = Cave::from_world(options, cave, rng());
    let outcome = play(
        &mut game,
        |query| match query.seat {
            0 => Answer::Reply(b"MSNMSN\n".to_vec()),
            _ => Answer::NoReply,
        },
        100,
    );
    assert_eq!(outcome.seats[0].invalid_replies, 3);
    assert_eq!(outcome.seats[1].invalid_replies, 0);
    assert_eq!(outcome.seats[0].stats["gold"], 0);
    assert_eq!(outcome.seats[0].score, 3);
}

#[test]
fn sequential_order_asks_one_bot_at_a_time_and_snapshot_all_at_once() {
    let cave = world(
        "0----
         -----
         --1--
         -----
         ----2",
    );
    for (order, asked) in [(Order::Sequential, 1), (Order::Snapshot, 3)] {
        let options = CaveOptions {
            order,
            ..CaveOptions::default()
        };
        let mut game = Cave::from_world(options, cave.clone(), rng());
        let Step::Ask(queries) = game.poll() else {
            panic!("bots are asked");
        };
        assert_eq!(queries.len(), asked, "{order:?}");
        // Polling again before answering gives the same inputs (noise drawn once).
        assert_eq!(game.poll(), Step::Ask(queries.clone()));
        let seats: BTreeSet<usize> = queries.iter().map(|q| q.seat).collect();
        assert_eq!(seats.len(), asked);
    }
}

#[test]
fn a_one_bot_game_runs_until_its_bot_dies_or_the_turn_limit() {
    let cave = world(
        "0--
         ---
         ---",
    );
    let mut game = Cave::from_world(CaveOptions::default(), cave.clone(), rng());
    let outcome = play(&mut game, |_| Answer::Reply(b"HNNHNN".to_vec()), 1000);
    assert_eq!(outcome.seats[0].score, 50);
    let mut doomed = cave;
    doomed.robots[0].health = 4;
    doomed.robots[0].poison = 3;
    let mut game = Cave::from_world(CaveOptions::default(), doomed, rng());
    let outcome = play(&mut game, |_| Answer::Reply(b"HNNHNN".to_vec()), 1000);
    assert_eq!(outcome.seats[0].score, 1, "died in turn 2 of poison");
    assert!(
        outcome
            .summary
            .starts_with("no bot left after 2 turns: 0 of 1 bots alive"),
        "{}",
        outcome.summary
    );
}

#[test]
fn the_generator_places_the_spec_counts_on_empty_cells() {
    let density = Density::default();
    for bots in [1, 2, 6] {
        let cave = generate(&density, bots, &mut seeded::rng(bots as u64));
        assert_eq!(cave.side, side(bots));
        let count = |ground: Ground| cave.ground.iter().filter(|&&g| g == ground).count();
        let expected = |bp| Density::count(cave.side, bp);
        assert_eq!(count(Ground::Boulder), expected(density.boulder));
        assert_eq!(count(Ground::Pit), expected(density.pit));
        assert_eq!(count(Ground::Item(Item::Gold)), expected(density.gold));
        assert_eq!(count(Ground::Item(Item::Food)), expected(density.food));
        assert_eq!(count(Ground::Item(Item::Water)), expected(density.water));
        assert_eq!(count(Ground::Item(Item::Knife)), expected(density.knife));
        assert_eq!(
            count(Ground::Item(Item::Revealer)),
            expected(density.revealer)
        );
        let kinds = |kind| cave.creatures.iter().filter(|c| c.kind == kind).count();
        assert_eq!(kinds(Kind::Centipede), expected(density.centipede));
        assert_eq!(kinds(Kind::Bats), expected(density.bats));
        assert_eq!(kinds(Kind::Lion), expected(density.lion));
        // Creation order: centipedes, then bats, then lions.
        let order: Vec<Kind> = cave.creatures.iter().map(|c| c.kind).collect();
        assert!(order.is_sorted_by_key(|k| match k {
            Kind::Centipede => 0,
            Kind::Bats => 1,
            Kind::Lion => 2,
        }));
        // Creatures, Nina and bots on bare ground, no two on one cell.
        let mut taken = BTreeSet::new();
        let placed = cave
            .creatures
            .iter()
            .map(|c| c.pos)
            .chain([cave.nina.pos])
            .chain(cave.robots.iter().map(|r| r.pos));
        for pos in placed {
            assert_eq!(cave.ground(pos), Ground::Bare);
            assert!(taken.insert(pos), "{pos:?} twice");
        }
        assert_eq!(cave.robots.len(), bots);
        assert_eq!(cave.nina.stay, 3);
    }
    let again = |seed| generate(&density, 3, &mut seeded::rng(seed));
    assert_eq!(again(5), again(5));
    assert_ne!(again(5), again(6));
}

/// A random game of bots answering anything: the rules' invariants hold after every answer.
#[test]
fn random_replies_never_break_the_cave() {
    let mut fuzz = Draws::new(0x5eed_cafe_f00d_d00d);
    for round in 0..40 {
        let seats = 1 + fuzz.below(6);
        let options = CaveOptions {
            density: Density {
                lion: 100,
                centipede: 100,
                bats: 200,
                pit: 300,
                ..Density::default()
            },
            order: if round % 2 == 0 {
                Order::Sequential
            } else {
                Order::Snapshot
            },
            confusion: [
                Confusion::TwoMoves,
                Confusion::OneMove,
                Confusion::TwoDirections,
            ][round % 3],
            ..CaveOptions::default()
        };
        let mut game = Cave::new(&options, round as u64, seats).unwrap();
        let mut steps = 0;
        let outcome = loop {
            steps += 1;
            assert!(steps < 2000, "the game ends");
            match game.poll() {
                Step::Done(outcome) => break outcome,
                Step::Ask(queries) => {
                    let answers: Vec<Answer> = queries
                        .iter()
                        .map(|_| match fuzz.below(4) {
                            0 => Answer::NoReply,
                            1 => Answer::Reply(fuzz.bytes(10)),
                            _ => {
                                let letter = fuzz.pick(&["M", "A", "H", "M"]);
                                let dir =
                                    fuzz.pick(&["NN", "NE", "EE", "SE", "SS", "SW", "WW", "NW"]);
                                let second = fuzz.pick(&["MNN", "ASS", "HWW", "MSE"]);
                                Answer::Reply(format!("{letter}{dir}{second}\n").into_bytes())
                            }
                        })
                        .collect();
                    game.handle_answers(&answers);
                    check_invariants(game.world());
                }
            }
        };
        assert_eq!(outcome.seats.len(), seats);
        for seat in &outcome.seats {
            let (gold, turns) = (seat.stats["gold"], seat.stats["turns"]);
            assert_eq!(seat.score, gold + turns);
            assert!(turns <= 50);
        }
    }
}

fn check_invariants(world: &World) {
    let mut bots = BTreeSet::new();
    for robot in world.robots.iter().filter(|r| r.alive()) {
        assert!(robot.health > 0);
        assert!(robot.pos.x < world.side && robot.pos.y < world.side);
        assert_ne!(world.ground(robot.pos), Ground::Boulder);
        assert!(bots.insert(robot.pos), "two bots on one cell");
        assert!(robot.poison <= 3 && robot.pit <= 3);
    }
    let mut creatures = BTreeSet::new();
    for creature in &world.creatures {
        assert!(matches!(
            world.ground(creature.pos),
            Ground::Bare | Ground::Item(_)
        ));
        assert!(creatures.insert(creature.pos), "two creatures on one cell");
        if creature.kind.blocks_bots() {
            assert!(
                !bots.contains(&creature.pos),
                "a lion or centipede on a bot"
            );
        }
    }
}

#[test]
fn the_replies_in_games_cave_are_read_as_written() {
    let action = |text: &str| {
        let dir = direction_of_code(&text.as_bytes()[1..]).unwrap();
        match &text[..1] {
            "M" => Action::Move(dir),
            "A" => Action::Attack(dir),
            _ => Action::Hold,
        }
    };
    let mut checked = 0;
    for record in vector_records(REPLIES) {
        assert_eq!(record.words[0], "reply");
        let expected = match record.words[1].as_str() {
            "invalid" => None,
            pair => {
                let (first, second) = pair.split_once(',').unwrap();
                Some([action(first), action(second)])
            }
        };
        assert_eq!(
            parse_reply(&record.payload).ok(),
            expected,
            "{:?}",
            record.text()
        );
        checked += 1;
    }
    assert_eq!(checked, 12);
}

#[test]
fn snapshots_show_the_cave_with_bots_by_seat_once_a_turn_is_over() {
    let cave = world(
        "0G-
         -L}
         -N1",
    );
    let mut game = Cave::from_world(CaveOptions::default(), cave, rng());
    let first = game.snapshot().unwrap();
    assert_eq!(first.turn, 0);
    // Bot 2 is `D`: `B` and `C` are the cave's bats and centipedes.
    assert_eq!(first.cells, "AG--L}-ND");
    assert_eq!(first.problems(), Vec::<String>::new());
    assert_eq!(first.scores, [0, 0]);
    let mut answered = 0;
    while answered < 2 {
        let Step::Ask(queries) = game.poll() else {
            panic!("two bots act in turn 1");
        };
        assert_eq!(game.snapshot().unwrap().turn, 0, "turn 1 is not over yet");
        answered += queries.len();
        game.handle_answers(&vec![Answer::Reply(b"HNNHNN".to_vec()); queries.len()]);
    }
    let after = game.snapshot().unwrap();
    assert_eq!(after.turn, 1);
    assert_eq!(after.scores, [1, 1], "one turn survived each");
    assert_eq!(
        after
            .cells
            .chars()
            .filter(|&c| c == 'A' || c == 'D')
            .count(),
        2
    );
}
