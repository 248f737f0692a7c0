#!/usr/bin/env node
// A minimal Easter Egg Hunt bot (games/eggs.md).
//
// Every turn arena runs this file with six lines on stdin: the 5x5 square around the bot
// (top row first; `#` wall, `o` egg, `*` a player, the centre being you, ` ` floor, `X`
// outside the board) and the memory line this bot printed last turn. It prints up to three
// lines: a direction on the keypad around it (`9` stays), an action (`A` attack, `C`
// counter, `N` nothing) and the memory for the next turn.
//
//     1 2 3
//     8 . 4
//     7 6 5
//
// This bot takes an egg next to it, else walks in the direction it remembers, turning when
// a wall is ahead: legal always, clever never.
"use strict";
const fs = require("fs");

const STEPS = { 1: [-1, -1], 2: [-1, 0], 3: [-1, 1], 4: [0, 1],
  5: [1, 1], 6: [1, 0], 7: [1, -1], 8: [0, -1] };

// The direction and the memory for the next turn.
function decide(view, memory) {
  const ahead = (direction) => {
    const [row, col] = STEPS[direction];
    return view[2 + row][2 + col];
  };
  for (let direction = 1; direction <= 8; direction++) {
    if (ahead(direction) === "o") return [direction, memory];
  }
  const remembered = Number(memory);
  const heading = remembered >= 1 && remembered <= 8 ? remembered : 4;
  for (let turn = 0; turn < 8; turn++) {
    const direction = ((heading - 1 + turn) % 8) + 1;
    if (ahead(direction) === " ") return [direction, String(direction)];
  }
  return [9, String(heading)];
}

const lines = fs.readFileSync(0, "utf8").split("\n");
const view = [0, 1, 2, 3, 4].map((i) => ((lines[i] || "") + "     ").slice(0, 5));
const memory = (lines[5] || "").trim();
const [direction, next] = decide(view, memory);
process.stdout.write(`${direction}\nN\n${next}\n`);
