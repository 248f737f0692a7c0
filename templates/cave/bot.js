#!/usr/bin/env node
// A minimal Cave Rangers bot (games/cave.md).
//
// Every turn arena runs this file in the bot's own folder with the input on stdin: the status
// line `health,gold,turns,poison,pit,revealer,knife` (`True`/`False`), then the view around
// the bot, one row per line, clipped at the cave's edges (`Y` is the bot). It prints two
// actions on one line, each `M` (move), `A` (attack) or `H` (hold) and a direction
// `NN NE EE SE SS SW WW NW`.
//
// This bot attacks a lion or centipede next to it, steps onto gold next to it, and otherwise
// holds: legal always, clever never.
"use strict";

const DIRS = {NN: [0, -1], NE: [1, -1], EE: [1, 0], SE: [1, 1],
              SS: [0, 1], SW: [-1, 1], WW: [-1, 0], NW: [-1, -1]};

function decide(rows) {
  const y0 = rows.findIndex((row) => row.includes("Y"));
  const x0 = rows[y0].indexOf("Y");
  const around = [];
  for (const [code, [dx, dy]] of Object.entries(DIRS)) {
    const row = rows[y0 + dy];
    const symbol = row === undefined ? undefined : row[x0 + dx];
    if (symbol !== undefined) around.push([code, symbol]);
  }
  const biter = around.find(([, symbol]) => symbol === "L" || symbol === "C");
  if (biter) return "A" + biter[0] + "A" + biter[0];
  const gold = around.find(([, symbol]) => symbol === "G");
  if (gold) return "M" + gold[0] + "HNN";
  return "HNNHNN";
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const rows = input.split("\n").slice(1).filter((line) => line.length > 0);
  process.stdout.write(decide(rows) + "\n");
});
