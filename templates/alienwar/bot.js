#!/usr/bin/env node
// A minimal Survival Game - AlienWar alien (games/alienwar.md).
//
// arena keeps one process running for the whole game; it hosts every instance of the
// species. Each request is a header line and one line per instance; the answer is one line
// with one word per instance, in request order:
//
//   CREATE <count> <side>     -> points per instance: life,strength,defense,vision,cleverness
//   MOVE <k>, then k lines    -> NORTH NORTHEAST EAST SOUTHEAST SOUTH SOUTHWEST WEST NORTHWEST STAY
//       <id> <hp> <life> <strength> <defense> <vision> <cleverness> <r> <blur> <view>
//       (view: 2r+1 rows joined by '/', north first; '.' empty, 'A' alien, W C T E H prey)
//   FIGHT <k>, then k lines   -> Y (fight) or N (peace)
//       <id> <hp> <life> <strength> <defense> <vision> <cleverness> <r> <blur>
//       <their life> <their strength> <their defense> <their vision>  (blurred upwards)
//   END                       -> exit
//
// This alien spends its 10 points evenly-ish, steps onto the first empty neighbouring cell,
// and fights what looks weaker: legal always, clever never.
"use strict";
const readline = require("readline");

const POINTS = "3,3,2,1,1";
const MOVES = [["NORTH", 0, -1], ["NORTHEAST", 1, -1], ["EAST", 1, 0], ["SOUTHEAST", 1, 1],
  ["SOUTH", 0, 1], ["SOUTHWEST", -1, 1], ["WEST", -1, 0], ["NORTHWEST", -1, -1]];

// The first step onto an empty cell of the view, else STAY.
function move(words) {
  const r = Number(words[7]);
  const rows = words[9].split("/");
  const free = MOVES.find(([, dx, dy]) => rows[r + dy][r + dx] === ".");
  return free ? free[0] : "STAY";
}

// Fight when our strength beats the other's (blurred) strength.
function fight(words) {
  return Number(words[3]) > Number(words[10]) ? "Y" : "N";
}

let request = null; // { word, count, lines }
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  if (request === null) {
    if (words[0] === "END") {
      process.exit(0);
    }
    request = { word: words[0], count: Number(words[1]), lines: [] };
  } else {
    request.lines.push(words);
  }
  if (request.word === "CREATE") {
    process.stdout.write(Array(request.count).fill(POINTS).join(" ") + "\n");
    request = null;
  } else if (request.lines.length === request.count) {
    const answer = request.word === "MOVE" ? move : fight;
    process.stdout.write(request.lines.map(answer).join(" ") + "\n");
    request = null;
  }
});
