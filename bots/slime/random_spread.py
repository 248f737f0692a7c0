"""Slime sample bot: random spreader, the original's stock strategy.

Plays a random legal spread; with none, a random legal jump; with neither, a random legal
merge; only with no legal move at all (when any reply is a pass) "0 0 0 0". The random generator is seeded from ARENA_SEED and the board, so the bot is
reproducible. Input: argv[1] = "<seat>,<row0>,...". Output: "fr fc tr tc" and a newline.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slimelib import reach, read_state  # noqa: E402


def main():
    me, board, rng = read_state()
    spreads, jumps, merges = [], [], []
    for r, c, tr, tc, far in reach(board, me):
        if board[tr][tc] == "." and not far:
            spreads.append((r, c, tr, tc))
        elif board[tr][tc] == ".":
            jumps.append((r, c, tr, tc))
        elif board[tr][tc] == me and not far:
            merges.append((r, c, tr, tc))
    choices = spreads or jumps or merges
    print("%d %d %d %d" % rng.choice(choices) if choices else "0 0 0 0")


main()
