//! A minimal Cave Rangers bot (games/cave.md).
//!
//! Every turn arena runs this program in the bot's own folder with the input on stdin: the
//! status line `health,gold,turns,poison,pit,revealer,knife` (`True`/`False`), then the view
//! around the bot, one row per line, clipped at the cave's edges (`Y` is the bot). It prints
//! two actions on one line, each `M` (move), `A` (attack) or `H` (hold) and a direction
//! `NN NE EE SE SS SW WW NW`.
//!
//! This bot attacks a lion or centipede next to it, steps onto gold next to it, and otherwise
//! holds: legal always, clever never.

use std::io::Read;

const DIRS: [(&str, i64, i64); 8] = [
    ("NN", 0, -1),
    ("NE", 1, -1),
    ("EE", 1, 0),
    ("SE", 1, 1),
    ("SS", 0, 1),
    ("SW", -1, 1),
    ("WW", -1, 0),
    ("NW", -1, -1),
];

/// Two actions for the view `rows`.
fn decide(rows: &[&[u8]]) -> String {
    let Some((x0, y0)) = rows
        .iter()
        .enumerate()
        .find_map(|(y, row)| Some((row.iter().position(|&c| c == b'Y')?, y)))
    else {
        return "HNNHNN".into();
    };
    let around: Vec<(&str, u8)> = DIRS
        .iter()
        .filter_map(|&(code, dx, dy)| {
            let y = usize::try_from(y0 as i64 + dy).ok()?;
            let x = usize::try_from(x0 as i64 + dx).ok()?;
            Some((code, *rows.get(y)?.get(x)?))
        })
        .collect();
    if let Some((code, _)) = around.iter().find(|(_, c)| *c == b'L' || *c == b'C') {
        return format!("A{code}A{code}");
    }
    if let Some((code, _)) = around.iter().find(|(_, c)| *c == b'G') {
        return format!("M{code}HNN");
    }
    "HNNHNN".into()
}

fn main() {
    let mut input = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut input);
    let rows: Vec<&[u8]> = input
        .split(|&b| b == b'\n')
        .skip(1)
        .filter(|line| !line.is_empty())
        .collect();
    println!("{}", decide(&rows));
}
