#!/usr/bin/env node
// A minimal Battle for the Petri Dish bot (games/petri.md), in LOOP mode.
//
// Setup: arena runs this file with `BEGIN` on stdin (no newline, then end of input); the bot
// prints its species `HP ENERGY ACIDITY` (adding up to 12) and `LOOP`, so arena then keeps
// one process running for the whole game. That process gets `BEGIN` (its answer is
// ignored), then one request per cell:
//
//     W H
//     W characters per row, H rows: o yours, x enemy, c corpse, . empty
//     (a blank line)
//     X Y HP ENERGY
//
// and answers with one action line, e.g. `DIVIDE SE`, `ATTACK N 2`, `EAT W`, `REST`.
// `END` ends the game. This bot attacks a neighbouring enemy, else divides into a free
// square when it has the energy, else rests: legal always, clever never.
"use strict";
const readline = require("readline");

const SPECIES = "4 6 2";
const DIRECTIONS = [["N", 0, -1], ["NE", 1, -1], ["E", 1, 0], ["SE", 1, 1],
  ["S", 0, 1], ["SW", -1, 1], ["W", -1, 0], ["NW", -1, -1]];
const DIVIDE_COST = 5;

// One legal action for the cell at (x, y).
function decide(width, height, rows, x, y, hp, energy) {
  const square = (a, b) => (a >= 0 && a < width && b >= 0 && b < height ? rows[b][a] : "#");
  const around = DIRECTIONS.map(([name, dx, dy]) => [name, square(x + dx, y + dy)]);
  const enemies = around.filter(([, what]) => what === "x").map(([name]) => name);
  const free = around.filter(([, what]) => what === "." || what === "c").map(([name]) => name);
  if (enemies.length > 0 && energy >= 1) return `ATTACK ${enemies[0]} ${Math.min(3, energy)}`;
  if (free.length > 0 && energy >= DIVIDE_COST) return `DIVIDE ${free[0]}`;
  return "REST";
}

async function main() {
  const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    return done ? null : value;
  };
  for (let line = await next(); line !== null; line = await next()) {
    const words = line.trim().split(/\s+/);
    if (words.length === 1 && words[0] === "BEGIN") {
      process.stdout.write(`${SPECIES} LOOP\n`);
    } else if (words.length === 1 && words[0] === "END") {
      return;
    } else if (words.length === 2) {
      const [width, height] = words.map(Number);
      const rows = [];
      for (let i = 0; i < height; i++) rows.push((await next()).trim());
      await next(); // the blank line
      const [x, y, hp, energy] = (await next()).trim().split(/\s+/).map(Number);
      process.stdout.write(decide(width, height, rows, x, y, hp, energy) + "\n");
    }
  }
}

main();
