"""What the Egg Hunt sample bots share: the keypad steps, reading the view and the memory
line from stdin, and a random generator seeded for reproducible runs."""
import os
import random
import sys

# Keypad digit -> (d_row, d_col).
STEPS = {1: (-1, -1), 2: (-1, 0), 3: (-1, 1), 4: (0, 1), 5: (1, 1),
         6: (1, 0), 7: (1, -1), 8: (0, -1)}


def read_input():
    """The five 5-character view lines (short ones padded with walls) and the memory line."""
    lines = sys.stdin.read().split("\n")
    view = [line.ljust(5, "X")[:5] for line in (lines + [""] * 6)[:5]]
    memory = lines[5] if len(lines) > 5 else ""
    return view, memory


def turn_rng(turn):
    """A generator seeded from ARENA_SEED, ARENA_SEAT and the turn number."""
    return random.Random("%s:%s:%d" % (os.environ.get("ARENA_SEED", "0"),
                                       os.environ.get("ARENA_SEAT", "0"), turn))
