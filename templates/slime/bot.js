#!/usr/bin/env node
// A minimal Slime bot (games/slime.md).
//
// Every turn arena runs this file with one argument: `<seat>,<row0>,...,<rowN-1>`, the seat
// 1 to 4 and the board's rows (`.` empty, `1` to `4` the players' cells). It prints one line
// `from_row from_col to_row to_col` and a newline: a spread (to an empty cell next to one of
// yours), a jump (to an empty cell two away; the source is vacated) or a merge.
//
// This bot spreads if it can, else jumps, else merges: it passes only when no move is legal,
// and it is never clever.
"use strict";

// A legal move as [fromRow, fromCol, toRow, toCol], or null.
function decide(seat, rows) {
  const own = [];
  rows.forEach((row, r) => [...row].forEach((cell, c) => cell === seat && own.push([r, c])));
  // A spread or a jump lands on an empty cell; a merge, the only move left to a player walled
  // in by others, lands on one of its own cells next to the source.
  for (const [reach, target] of [[1, "."], [2, "."], [1, seat]]) {
    for (const [r, c] of own) {
      for (let tr = r - reach; tr <= r + reach; tr++) {
        for (let tc = c - reach; tc <= c + reach; tc++) {
          const inside = tr >= 0 && tr < rows.length && tc >= 0 && tc < rows[0].length;
          const distance = Math.max(Math.abs(tr - r), Math.abs(tc - c));
          if (inside && distance === reach && rows[tr][tc] === target) return [r, c, tr, tc];
        }
      }
    }
  }
  return null;
}

const [seat, ...rows] = process.argv[2].split(",");
const move = decide(seat, rows);
if (move) process.stdout.write(move.join(" ") + "\n"); // with no legal move, nothing passes
