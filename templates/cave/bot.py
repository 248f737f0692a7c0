#!/usr/bin/env python3
"""A minimal Cave Rangers bot (games/cave.md).

Every turn arena runs this file in the bot's own folder with the input on stdin: the status
line `health,gold,turns,poison,pit,revealer,knife` (`True`/`False`), then the view around the
bot, one row per line, clipped at the cave's edges (`Y` is the bot). It prints two actions on
one line, each `M` (move), `A` (attack) or `H` (hold) and a direction `NN NE EE SE SS SW WW NW`.

This bot attacks a lion or centipede next to it, steps onto gold next to it, and otherwise
holds: legal always, clever never.
"""
import sys

DIRS = {"NN": (0, -1), "NE": (1, -1), "EE": (1, 0), "SE": (1, 1),
        "SS": (0, 1), "SW": (-1, 1), "WW": (-1, 0), "NW": (-1, -1)}


def decide(rows):
    """Two actions for the view `rows`."""
    me = next((row.index("Y"), y) for y, row in enumerate(rows) if "Y" in row)
    around = {}
    for code, (dx, dy) in DIRS.items():
        x, y = me[0] + dx, me[1] + dy
        if 0 <= y < len(rows) and 0 <= x < len(rows[y]):
            around[code] = rows[y][x]
    for code, symbol in around.items():
        if symbol in "LC":
            return "A" + code + "A" + code
    for code, symbol in around.items():
        if symbol == "G":
            return "M" + code + "HNN"
    return "HNNHNN"


def main():
    lines = sys.stdin.read().split("\n")
    rows = [line for line in lines[1:] if line]
    print(decide(rows))


if __name__ == "__main__":
    main()
