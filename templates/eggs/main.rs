//! A minimal Easter Egg Hunt bot (games/eggs.md).
//!
//! Every turn arena runs the program with six lines on stdin: the 5x5 square around the bot
//! (top row first; `#` wall, `o` egg, `*` a player, the centre being you, ` ` floor, `X`
//! outside the board) and the memory line this bot printed last turn. It prints up to three
//! lines: a direction on the keypad around it (`9` stays), an action (`A` attack, `C`
//! counter, `N` nothing) and the memory for the next turn.
//!
//! ```text
//! 1 2 3
//! 8 . 4
//! 7 6 5
//! ```
//!
//! This bot takes an egg next to it, else walks in the direction it remembers, turning when
//! a wall is ahead: legal always, clever never.

use std::io::{self, Read};

/// Keypad direction to (row, column) step.
const STEPS: [(u32, i32, i32); 8] = [
    (1, -1, -1),
    (2, -1, 0),
    (3, -1, 1),
    (4, 0, 1),
    (5, 1, 1),
    (6, 1, 0),
    (7, 1, -1),
    (8, 0, -1),
];

/// The direction and the memory for the next turn.
fn decide(view: &[Vec<u8>], memory: &str) -> (u32, String) {
    let ahead = |direction: u32| {
        let (_, row, col) = STEPS[direction as usize - 1];
        view[(2 + row) as usize][(2 + col) as usize]
    };
    if let Some(&(direction, _, _)) = STEPS.iter().find(|(d, _, _)| ahead(*d) == b'o') {
        return (direction, memory.to_string());
    }
    let heading = memory.parse().ok().filter(|d| (1..=8).contains(d)).unwrap_or(4);
    for turn in 0..8 {
        let direction = (heading - 1 + turn) % 8 + 1;
        if ahead(direction) == b' ' {
            return (direction, direction.to_string());
        }
    }
    (9, heading.to_string())
}

fn main() {
    let mut input = String::new();
    let _ = io::stdin().read_to_string(&mut input);
    let lines: Vec<&str> = input.split('\n').collect();
    let view: Vec<Vec<u8>> = (0..5)
        .map(|i| {
            let mut row = lines.get(i).unwrap_or(&"").as_bytes().to_vec();
            row.resize(5, b' ');
            row
        })
        .collect();
    let memory = lines.get(5).map_or("", |line| line.trim());
    let (direction, next) = decide(&view, memory);
    println!("{direction}\nN\n{next}");
}
