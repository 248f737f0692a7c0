//! Engine-only speed (BENCHMARKS.md, figure c): whole games per second for each game, played
//! in-process by scripted players (no processes, no runtime), at growing board sizes or
//! numbers of players. This is the runner's own cost per game, everything but the bots.
//!
//! Adding a game is one function: a `#[divan::bench]` that builds the game's options for a
//! size and calls [`play`] with a scripted player (a function from a query to an answer).
//!
//! Run with `cargo bench --bench engines`.

use arena::engine::{Answer, Game, Input, Query, Step};
use arena::games::{GameOptions, eggs, petri, slime};
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
    player: fn(&Query, &mut Rng) -> Answer,
) {
    let mut seed = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut game = options.new_game(seed, seats);
        loop {
            match game.poll() {
                Step::Done(outcome) => break black_box(outcome),
                Step::Ask(queries) => {
                    let answers = queries
                        .iter()
                        .map(|query| player(query, &mut rng))
                        .collect();
                    game.handle_answers(answers);
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

/// A balanced species, then random actions in random directions (illegal ones rest).
fn petri_player(query: &Query, rng: &mut Rng) -> Answer {
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
fn slime_player(query: &Query, rng: &mut Rng) -> Answer {
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
fn eggs_player(_query: &Query, rng: &mut Rng) -> Answer {
    let reply = format!(
        "{}\n{}\nturn {}\n",
        rng.below(10),
        rng.pick(&["A", "C", "N"]),
        rng.below(100)
    );
    Answer::Reply(reply.into_bytes())
}

/// Marsaglia's xorshift64: the scripted players' randomness, seeded per game.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}
