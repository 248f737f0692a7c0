//! A minimal Battle for the Petri Dish bot (games/petri.md), in LOOP mode.
//!
//! Setup: arena runs the program with `BEGIN` on stdin (no newline, then end of input); the
//! bot prints its species `HP ENERGY ACIDITY` (adding up to 12) and `LOOP`, so arena then
//! keeps one process running for the whole game. That process gets `BEGIN` (its answer is
//! ignored), then one request per cell:
//!
//! ```text
//! W H
//! W characters per row, H rows: o yours, x enemy, c corpse, . empty
//! (a blank line)
//! X Y HP ENERGY
//! ```
//!
//! and answers with one action line, e.g. `DIVIDE SE`, `ATTACK N 2`, `EAT W`, `REST`.
//! `END` ends the game. This bot attacks a neighbouring enemy, else divides into a free
//! square when it has the energy, else rests: legal always, clever never.

use std::io::{self, BufRead, Write};

const SPECIES: &str = "4 6 2";
const DIRECTIONS: [(&str, i64, i64); 8] = [
    ("N", 0, -1),
    ("NE", 1, -1),
    ("E", 1, 0),
    ("SE", 1, 1),
    ("S", 0, 1),
    ("SW", -1, 1),
    ("W", -1, 0),
    ("NW", -1, -1),
];
const DIVIDE_COST: i64 = 5;

/// One legal action for the cell at (x, y).
fn decide(rows: &[Vec<u8>], x: i64, y: i64, energy: i64) -> String {
    let square = |a: i64, b: i64| {
        let row = usize::try_from(b).ok().and_then(|b| rows.get(b));
        let cell = row.and_then(|row| usize::try_from(a).ok().and_then(|a| row.get(a)));
        cell.copied().unwrap_or(b'#')
    };
    let around = DIRECTIONS.map(|(name, dx, dy)| (name, square(x + dx, y + dy)));
    if let Some((enemy, _)) = around.iter().find(|(_, what)| *what == b'x') {
        if energy >= 1 {
            return format!("ATTACK {enemy} {}", energy.min(3));
        }
    }
    if let Some((free, _)) = around.iter().find(|(_, what)| matches!(what, b'.' | b'c')) {
        if energy >= DIVIDE_COST {
            return format!("DIVIDE {free}");
        }
    }
    "REST".to_string()
}

fn numbers(line: &str) -> Vec<i64> {
    line.split_whitespace().filter_map(|w| w.parse().ok()).collect()
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    let mut out = io::stdout();
    while let Some(line) = lines.next() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words.as_slice() {
            ["BEGIN"] => format!("{SPECIES} LOOP"),
            ["END"] => return,
            [_, height] => {
                let height: usize = height.parse().unwrap_or(0);
                let rows: Vec<Vec<u8>> = (&mut lines)
                    .take(height)
                    .map(|row| row.trim().as_bytes().to_vec())
                    .collect();
                lines.next(); // the blank line
                let stats = numbers(&lines.next().unwrap_or_default());
                match stats.as_slice() {
                    [x, y, _hp, energy] => decide(&rows, *x, *y, *energy),
                    _ => "REST".to_string(),
                }
            }
            _ => continue,
        };
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
}
