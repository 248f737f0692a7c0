#!/usr/bin/env python3
"""A minimal Easter Egg Hunt bot (games/eggs.md).

Every turn arena runs this file with six lines on stdin: the 5x5 square around the bot (top
row first; `#` wall, `o` egg, `*` a player, the centre being you, ` ` floor, `X` outside the
board) and the memory line this bot printed last turn. It prints up to three lines: a
direction on the keypad around it (`9` stays), an action (`A` attack, `C` counter, `N`
nothing) and the memory for the next turn.

    1 2 3
    8 . 4
    7 6 5

This bot takes an egg next to it, else walks in the direction it remembers, turning when a
wall is ahead: legal always, clever never.
"""
import sys

STEPS = {1: (-1, -1), 2: (-1, 0), 3: (-1, 1), 4: (0, 1),
         5: (1, 1), 6: (1, 0), 7: (1, -1), 8: (0, -1)}


def decide(view, memory):
    """The direction and the memory for the next turn."""
    def ahead(direction):
        row, col = STEPS[direction]
        return view[2 + row][2 + col]

    for direction in STEPS:
        if ahead(direction) == "o":
            return direction, memory
    heading = int(memory) if memory.isdigit() and int(memory) in STEPS else 4
    for turn in range(8):
        direction = (heading - 1 + turn) % 8 + 1
        if ahead(direction) == " ":
            return direction, str(direction)
    return 9, str(heading)


def main():
    lines = sys.stdin.read().split("\n")
    view = [(line + "     ")[:5] for line in (lines + [""] * 6)[:5]]
    memory = lines[5].strip() if len(lines) > 5 else ""
    direction, memory = decide(view, memory)
    print(direction)
    print("N")
    print(memory)


if __name__ == "__main__":
    main()
