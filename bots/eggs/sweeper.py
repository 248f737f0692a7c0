"""Easter Egg Hunt sample bot "sweeper": keeps a heading in its memory and walks straight
until a wall or a player blocks it, then turns clockwise by a random amount (seeded from
ARENA_SEED, ARENA_SEAT and the turn). It grabs an egg next to it with N.

Memory: "TURN HEADING". Input and output as in greedy.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eggslib import STEPS, read_input, turn_rng  # noqa: E402



def main():
    view, memory = read_input()
    words = memory.split()
    turn = int(words[0]) + 1 if words and words[0].isdigit() else 1
    heading = int(words[1]) if len(words) > 1 and words[1] in "12345678" else 0
    rng = turn_rng(turn)
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
