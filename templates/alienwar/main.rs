//! A minimal Survival Game - AlienWar alien (games/alienwar.md).
//!
//! arena keeps one process running for the whole game; it hosts every instance of the
//! species. Each request is a header line and one line per instance; the answer is one line
//! with one word per instance, in request order:
//!
//! ```text
//! CREATE <count> <side>     -> points per instance: life,strength,defense,vision,cleverness
//! MOVE <k>, then k lines    -> NORTH NORTHEAST EAST SOUTHEAST SOUTH SOUTHWEST WEST NORTHWEST STAY
//!     <id> <hp> <life> <strength> <defense> <vision> <cleverness> <r> <blur> <view>
//!     (view: 2r+1 rows joined by '/', north first; '.' empty, 'A' alien, W C T E H prey)
//! FIGHT <k>, then k lines   -> Y (fight) or N (peace)
//!     <id> <hp> <life> <strength> <defense> <vision> <cleverness> <r> <blur>
//!     <their life> <their strength> <their defense> <their vision>  (blurred upwards)
//! END                       -> exit
//! ```
//!
//! This alien spends its 10 points evenly-ish, steps onto the first empty neighbouring cell,
//! and fights what looks weaker: legal always, clever never.

use std::io::{self, BufRead, Write};

const POINTS: &str = "3,3,2,1,1";
const MOVES: [(&str, i64, i64); 8] = [
    ("NORTH", 0, -1),
    ("NORTHEAST", 1, -1),
    ("EAST", 1, 0),
    ("SOUTHEAST", 1, 1),
    ("SOUTH", 0, 1),
    ("SOUTHWEST", -1, 1),
    ("WEST", -1, 0),
    ("NORTHWEST", -1, -1),
];

/// The word `index` of a line as a number (0 if missing or unreadable).
fn number(words: &[&str], index: usize) -> i64 {
    words.get(index).and_then(|w| w.parse().ok()).unwrap_or(0)
}

/// The first step onto an empty cell of the view, else STAY.
fn step(words: &[&str]) -> &'static str {
    let r = number(words, 7);
    let rows: Vec<&[u8]> = words.get(9).map_or(Vec::new(), |view| {
        view.split('/').map(str::as_bytes).collect()
    });
    let cell = |dx: i64, dy: i64| {
        let row = usize::try_from(r + dy).ok().and_then(|y| rows.get(y));
        row.and_then(|row| usize::try_from(r + dx).ok().and_then(|x| row.get(x)))
            .copied()
    };
    MOVES
        .iter()
        .find(|(_, dx, dy)| cell(*dx, *dy) == Some(b'.'))
        .map_or("STAY", |(name, _, _)| name)
}

/// Fight when our strength beats the other's (blurred) strength.
fn fight(words: &[&str]) -> &'static str {
    if number(words, 3) > number(words, 10) {
        "Y"
    } else {
        "N"
    }
}

fn main() {
    let stdin = io::stdin();
    let mut input = stdin.lock().lines().map_while(Result::ok);
    let mut out = io::stdout().lock();
    while let Some(header) = input.next() {
        let header: Vec<&str> = header.split_whitespace().collect();
        let (word, count) = match header.as_slice() {
            [word, count, ..] => (*word, count.parse::<usize>().unwrap_or(0)),
            _ => return,
        };
        let reply: Vec<&str> = match word {
            "CREATE" => vec![POINTS; count],
            "MOVE" | "FIGHT" => (0..count)
                .map(|_| {
                    let line = input.next().unwrap_or_default();
                    let words: Vec<&str> = line.split_whitespace().collect();
                    if word == "MOVE" {
                        step(&words)
                    } else {
                        fight(&words)
                    }
                })
                .collect(),
            _ => return,
        };
        if writeln!(out, "{}", reply.join(" ")).is_err() || out.flush().is_err() {
            return;
        }
    }
}
