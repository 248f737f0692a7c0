"""Slime sample bot: random spreader, the original's stock strategy.

Plays a random legal spread; with none, a random legal jump; with neither, passes with
"0 0 0 0". The random generator is seeded from ARENA_SEED and the board, so the bot is
reproducible. Input: argv[1] = "<seat>,<row0>,...". Output: "fr fc tr tc" and a newline.
"""
import os
import random
import sys


def main():
    parts = sys.argv[1].split(",")
    me, board = parts[0], parts[1:]
    n, m = len(board), len(board[0])
    rng = random.Random("%s:%s" % (os.environ.get("ARENA_SEED", "0"), sys.argv[1]))
    spreads, jumps = [], []
    for r in range(n):
        for c in range(m):
            if board[r][c] != me:
                continue
            for tr in range(max(0, r - 2), min(n, r + 3)):
                for tc in range(max(0, c - 2), min(m, c + 3)):
                    if board[tr][tc] != ".":
                        continue
                    if max(abs(tr - r), abs(tc - c)) == 1:
                        spreads.append((r, c, tr, tc))
                    else:
                        jumps.append((r, c, tr, tc))
    choices = spreads or jumps
    print("%d %d %d %d" % rng.choice(choices) if choices else "0 0 0 0")


main()
