//! A minimal Slime bot (games/slime.md).
//!
//! Every turn arena runs the program with one argument: `<seat>,<row0>,...,<rowN-1>`, the
//! seat 1 to 4 and the board's rows (`.` empty, `1` to `4` the players' cells). It prints
//! one line `from_row from_col to_row to_col` and a newline: a spread (to an empty cell next
//! to one of yours), a jump (to an empty cell two away; the source is vacated) or a merge.
//!
//! This bot spreads if it can, else jumps, else merges: it passes only when no move is
//! legal, and it is never clever.

/// A legal move as (from_row, from_col, to_row, to_col), if there is one.
fn decide(seat: u8, rows: &[&[u8]]) -> Option<(i64, i64, i64, i64)> {
    let cell = |r: i64, c: i64| {
        let row = usize::try_from(r).ok().and_then(|r| rows.get(r))?;
        usize::try_from(c).ok().and_then(|c| row.get(c)).copied()
    };
    let (height, width) = (rows.len() as i64, rows.first().map_or(0, |row| row.len()) as i64);
    // A spread or a jump lands on an empty cell; a merge, the only move left to a player
    // walled in by others, lands on one of its own cells next to the source.
    for (reach, target) in [(1, b'.'), (2, b'.'), (1, seat)] {
        for r in 0..height {
            for c in (0..width).filter(|&c| cell(r, c) == Some(seat)) {
                for tr in r - reach..=r + reach {
                    for tc in c - reach..=c + reach {
                        let distance = (tr - r).abs().max((tc - c).abs());
                        if distance == reach && cell(tr, tc) == Some(target) {
                            return Some((r, c, tr, tc));
                        }
                    }
                }
            }
        }
    }
    None
}

fn main() {
    let state = std::env::args().nth(1).unwrap_or_default();
    let mut parts = state.split(',');
    let seat = parts.next().and_then(|s| s.bytes().next()).unwrap_or(b'1');
    let rows: Vec<&[u8]> = parts.map(str::as_bytes).collect();
    // With no legal move, printing nothing passes.
    if let Some((fr, fc, tr, tc)) = decide(seat, &rows) {
        println!("{fr} {fc} {tr} {tc}");
    }
}
