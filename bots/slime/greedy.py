"""Slime sample bot: one-ply greedy.

Scores every legal spread, jump and merge by how much it changes the cell difference
between this slime and the others (own cells gained plus enemy cells converted) and plays
the best, preferring spreads on ties (they keep the source cell), then a seeded random pick.
Input: argv[1] = "<seat>,<row0>,...". Output: "fr fc tr tc" and a newline.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slimelib import block, reach, read_state  # noqa: E402


def moves(board, me):
    """Every legal move as (kind, fr, fc, tr, tc, own gain, enemy loss)."""
    n, m = len(board), len(board[0])
    for r, c, tr, tc, far in reach(board, me):
        target = board[tr][tc]
        if target == ".":
            enemies = sum(1 for rr, cc in block(n, m, tr, tc)
                          if board[rr][cc] not in (".", me))
            gain = (0 if far else 1) + enemies
            yield ("jump" if far else "spread", r, c, tr, tc, gain, enemies)
        elif target == me and not far:
            empty = sum(1 for rr, cc in block(n, m, tr, tc) if board[rr][cc] == ".")
            yield ("merge", r, c, tr, tc, empty - 1, 0)


def main():
    me, board, rng = read_state()
    best, best_key = None, None
    for move in moves(board, me):
        kind, gain, loss = move[0], move[5], move[6]
        key = (gain + loss, kind == "spread", rng.random())
        if best_key is None or key > best_key:
            best, best_key = move, key
    if best is None:
        print("0 0 0 0")
    else:
        print("%d %d %d %d" % best[1:5])


main()
