"""Easter Egg Hunt sample bot "sweeper": keeps a heading in its memory and walks straight
until a wall or a player blocks it, then turns clockwise by a random amount (seeded from
ARENA_SEED, ARENA_SEAT and the turn). It grabs an egg next to it with N.

Memory: "TURN HEADING". Input and output as in greedy.py."""

import os
import random
import sys

STEPS = {1: (-1, -1), 2: (-1, 0), 3: (-1, 1), 4: (0, 1), 5: (1, 1),
         6: (1, 0), 7: (1, -1), 8: (0, -1)}


def main():
    lines = sys.stdin.read().split("\n")
    view = [line.ljust(5, "X")[:5] for line in (lines + [""] * 6)[:5]]
    words = (lines[5] if len(lines) > 5 else "").split()
    turn = int(words[0]) + 1 if words and words[0].isdigit() else 1
    heading = int(words[1]) if len(words) > 1 and words[1] in "12345678" else 0
    rng = random.Random("%s:%s:%d" % (os.environ.get("ARENA_SEED", "0"),
                                      os.environ.get("ARENA_SEAT", "0"), turn))
    for digit, (dr, dc) in STEPS.items():
        if view[2 + dr][2 + dc] == "o":
            print("%d\nN\n%d %d" % (digit, turn, heading or digit))
            return
    if heading == 0:
        heading = rng.randint(1, 8)
    for _ in range(8):
        dr, dc = STEPS[heading]
        if view[2 + dr][2 + dc] == " ":
            print("%d\nN\n%d %d" % (heading, turn, heading))
            return
        heading = (heading - 1 + rng.randint(1, 3)) % 8 + 1
    print("9\nN\n%d %d" % (turn, heading))


main()
