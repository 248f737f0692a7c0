//! Writes a synthetic journal of a large field, to measure `arena standings` on it (see
//! BENCHMARKS.md, "Ratings of large fields"). No bot runs: every game comes from the
//! tournament's own schedule (`arena::schedule::Schedule`: its index, its seats, its seed)
//! and its result is drawn from hidden strengths, so the journal is one a real run of that
//! tournament could have written, only with made-up results.
//!
//! ```sh
//! cargo run --release --example synthetic_journal -- petri 10000 200000 /tmp/petri.jsonl
//! cargo run --release --example synthetic_journal -- petri 10000 200000 /tmp/star.jsonl --first
//! cargo run --release --example synthetic_journal -- eggs 10000 20 /tmp/eggs.jsonl
//! ```
//!
//! - `petri BOTS GAMES OUT`: a head-to-head tournament of BOTS bots, one game per pair, of
//!   which about GAMES games (at most GAMES) spread over the whole schedule: each fixture is
//!   kept with the same chance, decided by its seed, so every bot plays about
//!   `2 * GAMES / BOTS` games against opponents all over the field. With `--first`, the
//!   first GAMES fixtures instead: the first few bots against everyone, as a run
//!   interrupted early would leave them.
//! - `eggs BOTS GAMES OUT`: a free-for-all (the Egg Hunt) of GAMES games, every bot in every
//!   game.

use std::path::PathBuf;
use std::process::ExitCode;

use arena::journal::{GameRecord, Header, JournalWriter, Record, SeatRecord};
use arena::schedule::{Fixture, Schedule, fixture_count};
use arena_games::Pairing;
use arena_games::engine::GameResult;
use rand_chacha::ChaCha12Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// The master seed of every synthetic tournament.
const MASTER_SEED: u64 = 16;

/// Hidden strengths are spread uniformly over this many Elo points around 0.
const STRENGTH_SPREAD: f64 = 800.0;

/// The share of head-to-head games drawn.
const DRAWS: f64 = 0.1;

/// What to write, from the command line.
struct Request {
    game: Game,
    bots: usize,
    games: u64,
    out: PathBuf,
    first: bool,
}

#[derive(Clone, Copy)]
enum Game {
    Petri,
    Eggs,
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1).collect()) {
        Ok(request) => match write(&request) {
            Ok(games) => {
                eprintln!("wrote {games} games to {}", request.out.display());
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("synthetic_journal: {error}");
                ExitCode::FAILURE
            }
        },
        Err(usage) => {
            eprintln!("{usage}\nusage: synthetic_journal petri|eggs BOTS GAMES OUT [--first]");
            ExitCode::from(2)
        }
    }
}

/// The request in `args` (without the program's name), or what is wrong with them.
fn parse(args: Vec<String>) -> Result<Request, String> {
    let first = args.iter().any(|arg| arg == "--first");
    let positional: Vec<&String> = args.iter().filter(|arg| *arg != "--first").collect();
    let [game, bots, games, out] = positional[..] else {
        return Err("four arguments expected".into());
    };
    let game = match game.as_str() {
        "petri" => Game::Petri,
        "eggs" => Game::Eggs,
        other => return Err(format!("unknown game `{other}`")),
    };
    let number = |text: &str| {
        text.parse::<u64>()
            .map_err(|_| format!("`{text}` is not a number"))
    };
    let bots = usize::try_from(number(bots)?).map_err(|_| "too many bots".to_owned())?;
    if bots < 2 {
        return Err("at least 2 bots".into());
    }
    Ok(Request {
        game,
        bots,
        games: number(games)?,
        out: PathBuf::from(out),
        first,
    })
}

/// Writes the journal of `request`; returns the number of games written.
fn write(request: &Request) -> Result<u64, Box<dyn std::error::Error>> {
    let (pairing, per_pairing) = match request.game {
        Game::Petri => (Pairing::HeadToHead, 1),
        Game::Eggs => (Pairing::FreeForAll, u32::try_from(request.games)?),
    };
    let names: Vec<String> = (0..request.bots).map(|i| format!("bot{i:05}")).collect();
    let game = match request.game {
        Game::Petri => "petri",
        Game::Eggs => "eggs",
    };
    let total_games = fixture_count(pairing, request.bots, per_pairing);
    let header = Header::new(
        game,
        MASTER_SEED,
        per_pairing,
        names.clone(),
        total_games,
        "synthetic".into(),
    );
    // Keep the fixtures whose seed is a multiple of `every`: a pseudo-random sample of
    // about one in `every`.
    let every = match request.game {
        Game::Petri if !request.first => header.total_games.div_ceil(request.games.max(1)),
        _ => 1,
    };
    let strengths = strengths(request.bots);
    let mut writer = JournalWriter::create(&request.out, header)?;
    let mut written = 0;
    let chosen = Schedule::new(pairing, &names, per_pairing, MASTER_SEED)
        .fixtures()
        .filter(|fixture| fixture.seed % every == 0)
        .take(usize::try_from(request.games)?);
    for fixture in chosen {
        let seats = match request.game {
            Game::Petri => duel(&fixture, &strengths),
            Game::Eggs => hunt(&fixture, &strengths),
        };
        let seats = fixture
            .seats
            .iter()
            .zip(seats)
            .map(|(&bot, (score, result))| seat(&names[bot], score, result))
            .collect();
        writer.append(&Record::Game(GameRecord {
            index: fixture.index,
            seed: fixture.seed,
            summary: "synthetic".into(),
            duration_ms: 0,
            seats,
        }))?;
        written += 1;
    }
    Ok(written)
}

/// Each bot's hidden Elo strength, uniform over [`STRENGTH_SPREAD`].
fn strengths(bots: usize) -> Vec<f64> {
    let mut rng = ChaCha12Rng::seed_from_u64(MASTER_SEED);
    (0..bots)
        .map(|_| (uniform(&mut rng) - 0.5) * STRENGTH_SPREAD)
        .collect()
}

/// A uniform number in [0, 1) from 53 random bits.
fn uniform(rng: &mut ChaCha12Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A head-to-head game's seats (score, result), drawn from the game's seed: the first seat
/// wins with the Elo model's probability, scaled down to leave room for [`DRAWS`].
fn duel(fixture: &Fixture, strengths: &[f64]) -> Vec<(i64, Option<GameResult>)> {
    let [a, b] = fixture.seats[..] else {
        unreachable!("head-to-head fixtures have two seats");
    };
    let expected = 1.0 / (1.0 + 10f64.powf((strengths[b] - strengths[a]) / 400.0));
    let draw = uniform(&mut ChaCha12Rng::seed_from_u64(fixture.seed));
    let (first, second) = if draw < expected * (1.0 - DRAWS) {
        (GameResult::Win, GameResult::Loss)
    } else if draw < expected * (1.0 - DRAWS) + DRAWS {
        (GameResult::Draw, GameResult::Draw)
    } else {
        (GameResult::Loss, GameResult::Win)
    };
    [first, second]
        .map(|result| (i64::from(result == GameResult::Win), Some(result)))
        .into()
}

/// A free-for-all game's seats: eggs found, about 10 plus a bot's strength in units of 100
/// Elo, plus noise of up to ±5, never below 0.
fn hunt(fixture: &Fixture, strengths: &[f64]) -> Vec<(i64, Option<GameResult>)> {
    let mut rng = ChaCha12Rng::seed_from_u64(fixture.seed);
    fixture
        .seats
        .iter()
        .map(|&bot| {
            let eggs = 10.0 + strengths[bot] / 100.0 + (uniform(&mut rng) - 0.5) * 10.0;
            ((eggs.round() as i64).max(0), None)
        })
        .collect()
}

/// One seat's record: `bot` scored `score`, after a plausible number of requests.
fn seat(bot: &str, score: i64, result: Option<GameResult>) -> SeatRecord {
    SeatRecord {
        bot: bot.to_owned(),
        score,
        result,
        requests: 100,
        timeouts: 0,
        crashes: 0,
        invalid_replies: 0,
        invalid_reasons: Default::default(),
        built_in: false,
        stats: Default::default(),
        digest: None,
    }
}
