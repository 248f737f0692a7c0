#!/usr/bin/env python3
"""A minimal Battle for the Petri Dish bot (games/petri.md), in LOOP mode.

Setup: arena runs this file with `BEGIN` on stdin (no newline, then end of input); the bot
prints its species `HP ENERGY ACIDITY` (adding up to 12) and `LOOP`, so arena then keeps one
process running for the whole game. That process gets `BEGIN` (its answer is ignored), then
one request per cell:

    W H
    W characters per row, H rows: o yours, x enemy, c corpse, . empty
    (a blank line)
    X Y HP ENERGY

and answers with one action line, e.g. `DIVIDE SE`, `ATTACK N 2`, `EAT W`, `REST`.
`END` ends the game. This bot attacks a neighbouring enemy, else divides into a free
square when it has the energy, else rests: legal always, clever never.
"""
import sys

SPECIES = "4 6 2"
DIRECTIONS = (("N", 0, -1), ("NE", 1, -1), ("E", 1, 0), ("SE", 1, 1),
              ("S", 0, 1), ("SW", -1, 1), ("W", -1, 0), ("NW", -1, -1))
DIVIDE_COST = 5


def decide(width, height, rows, x, y, hp, energy):
    """One legal action for the cell at (x, y)."""
    def square(a, b):
        return rows[b][a] if 0 <= a < width and 0 <= b < height else "#"

    around = [(name, square(x + dx, y + dy)) for name, dx, dy in DIRECTIONS]
    enemies = [name for name, what in around if what == "x"]
    free = [name for name, what in around if what in ".c"]
    if enemies and energy >= 1:
        return "ATTACK %s %d" % (enemies[0], min(3, energy))
    if free and energy >= DIVIDE_COST:
        return "DIVIDE " + free[0]
    return "REST"


def main():
    for line in sys.stdin:
        words = line.split()
        if words == ["BEGIN"]:
            print(SPECIES + " LOOP", flush=True)
        elif words == ["END"]:
            return
        elif len(words) == 2:
            width, height = int(words[0]), int(words[1])
            rows = [sys.stdin.readline().strip() for _ in range(height)]
            sys.stdin.readline()  # the blank line
            x, y, hp, energy = map(int, sys.stdin.readline().split())
            print(decide(width, height, rows, x, y, hp, energy), flush=True)


if __name__ == "__main__":
    main()
