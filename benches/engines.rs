//! Engine-only speed (BENCHMARKS.md, figure c): whole games per second for each game, played
//! in-process by scripted players (no processes, no runtime), at growing board sizes or
//! numbers of players. This is the runner's own cost per game, everything but the bots.
//!
//! Adding a game is one function: a `#[divan::bench]` that builds the game's options for a
//! size and calls [`play`] with a scripted player (a function from a query to an answer).
//!
//! Run with `cargo bench --bench engines`.

use arena_games::engine::{Answer, Game, Input, Query, Step};
use arena_games::seeded::Draws;
use arena_games::{GameOptions, alienwar, cave, eggs, petri, slime};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// Plays one whole game per iteration with `seats` copies of `player`, each game with the
/// next seed, and counts games, so divan reports games per second.
fn play(
    bencher: Bencher,
    options: GameOptions,
    seats: usize,
    player: fn(&Query, &mut Draws) -> Answer,
) {
    let mut seed = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        let mut rng = Draws::new(seed);
        let mut game = options
            .new_game(seed, seats)
            .expect("the benchmarks' options are valid");
        loop {
            match game.poll() {
                Step::Done(outcome) => break black_box(outcome),
                Step::Ask(queries) => {
                    let answers: Vec<Answer> = queries
                        .iter()
                        .map(|query| player(query, &mut rng))
                        .collect();
                    game.handle_answers(&answers);
                }
            }
        }
    });
}

/// Petri on a dish `scale` times the default 10x4 in each direction, two players.
#[divan::bench(args = [1, 2, 4])]
fn petri(bencher: Bencher, scale: u16) {
    let options = petri::PetriOptions {
        width: 10 * scale,
        height: 4 * scale,
        ..petri::PetriOptions::default()
    };
    play(bencher, GameOptions::Petri(options), 2, petri_player);
}

/// Slime on a `size`x`size` board (8 is the default), four players.
#[divan::bench(args = [8, 16, 32])]
fn slime(bencher: Bencher, size: u16) {
    let options = slime::SlimeOptions {
        size,
        ..slime::SlimeOptions::default()
    };
    play(bencher, GameOptions::Slime(options), 4, slime_player);
}

/// The Egg Hunt with `players` players; the generated board grows with them.
#[divan::bench(args = [7, 14, 28])]
fn eggs(bencher: Bencher, players: usize) {
    play(
        bencher,
        GameOptions::Eggs(eggs::EggsOptions::default()),
        players,
        eggs_player,
    );
}

/// Cave Rangers with `bots` bots; the cave's side grows with them (30 + 10 per bot).
#[divan::bench(args = [2, 4, 8])]
fn cave(bencher: Bencher, bots: usize) {
    play(
        bencher,
        GameOptions::Cave(cave::CaveOptions::default()),
        bots,
        cave_player,
    );
}

/// AlienWar (default 1000 rounds, 100 instances per species) with `species` species besides
/// the built-in prey; the planet grows with them.
#[divan::bench(args = [1, 2, 4], sample_count = 10)]
fn alienwar_species(bencher: Bencher, species: usize) {
    let options = alienwar::AlienWarOptions::default();
    play(
        bencher,
        GameOptions::AlienWar(options),
        species,
        alien_player,
    );
}

/// AlienWar with two species of `instances` instances each (100 is the default).
#[divan::bench(args = [25, 100, 400], sample_count = 10)]
fn alienwar_instances(bencher: Bencher, instances: u32) {
    let options = alienwar::AlienWarOptions {
        instances,
        ..alienwar::AlienWarOptions::default()
    };
    play(bencher, GameOptions::AlienWar(options), 2, alien_player);
}

/// A balanced species, then random actions in random directions (illegal ones rest).
fn petri_player(query: &Query, rng: &mut Draws) -> Answer {
    const ACTIONS: &[&str] = &["MOVE", "DIVIDE", "DIVIDE", "ATTACK", "EAT", "REST"];
    const DIRECTIONS: &[&str] = &["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
    let reply = match query.input {
        Input::Stdin(ref request) if request.starts_with(b"BEGIN") => "4 4 4\n".to_owned(),
        _ => format!(
            "{} {} {}\n",
            rng.pick(ACTIONS),
            rng.pick(DIRECTIONS),
            1 + rng.below(3)
        ),
    };
    Answer::Reply(reply.into_bytes())
}

/// Spreads or jumps from a random own cell to a random empty cell within reach; passes if
/// a few tries find none.
fn slime_player(query: &Query, rng: &mut Draws) -> Answer {
    let Input::Args(args) = &query.input else {
        return Answer::NoReply;
    };
    let mut fields = args[0].split(',');
    let me = fields.next().unwrap_or("1").as_bytes()[0];
    let rows: Vec<&[u8]> = fields.map(str::as_bytes).collect();
    let size = rows.len();
    for _ in 0..16 {
        let (row, col) = (rng.below(size), rng.below(size));
        if rows[row][col] != me {
            continue;
        }
        let to_row = (row + rng.below(5)).checked_sub(2);
        let to_col = (col + rng.below(5)).checked_sub(2);
        if let (Some(r), Some(c)) = (to_row, to_col) {
            if r < size && c < size && rows[r][c] == b'.' {
                return Answer::Reply(format!("{row} {col} {r} {c}\n").into_bytes());
            }
        }
    }
    Answer::Reply(b"0 0 0 0\n".to_vec())
}

/// A random direction (or staying), a random action, and a short memory line.
fn eggs_player(_query: &Query, rng: &mut Draws) -> Answer {
    let reply = format!(
        "{}\n{}\nturn {}\n",
        rng.below(10),
        rng.pick(&["A", "C", "N"]),
        rng.below(100)
    );
    Answer::Reply(reply.into_bytes())
}

/// Two random actions, mostly moves, in random directions.
fn cave_player(_query: &Query, rng: &mut Draws) -> Answer {
    const ACTIONS: &[&str] = &["M", "M", "M", "A", "H"];
    const DIRECTIONS: &[&str] = &["NN", "NE", "EE", "SE", "SS", "SW", "WW", "NW"];
    let reply = format!(
        "{}{}{}{}\n",
        rng.pick(ACTIONS),
        rng.pick(DIRECTIONS),
        rng.pick(ACTIONS),
        rng.pick(DIRECTIONS)
    );
    Answer::Reply(reply.into_bytes())
}

/// Answers an AlienWar request (`CREATE <count> <side>`, `MOVE <k>` or `FIGHT <k>`, read
/// from its header line) with one legal word per instance: a 10-point allocation, a random
/// move, a random choice to fight.
fn alien_player(query: &Query, rng: &mut Draws) -> Answer {
    const POINTS: &[&str] = &["2,2,2,2,2", "3.5,6.5,0,0,0", "4,3,3,0,0", "1,2,2,3,2"];
    const MOVES: &[&str] = &[
        "NORTH",
        "NORTHEAST",
        "EAST",
        "SOUTHEAST",
        "SOUTH",
        "SOUTHWEST",
        "WEST",
        "NORTHWEST",
        "STAY",
    ];
    let Input::Session(request) = &query.input else {
        return Answer::NoReply;
    };
    let header = request.split(|&b| b == b'\n').next().unwrap_or_default();
    let header = String::from_utf8_lossy(header);
    let mut fields = header.split(' ');
    let words: &[&str] = match fields.next() {
        Some("CREATE") => POINTS,
        Some("MOVE") => MOVES,
        _ => &["Y", "N"],
    };
    let count: usize = fields.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let mut reply = String::new();
    for _ in 0..count {
        reply.push_str(rng.pick(words));
        reply.push(' ');
    }
    reply.push('\n');
    Answer::Reply(reply.into_bytes())
}
