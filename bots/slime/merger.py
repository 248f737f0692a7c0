"""Slime sample bot: territory builder.

Grows into open space instead of fighting: merges when a merge fills at least three empty
cells, otherwise spreads to the empty cell with the most empty neighbours (room to merge
into later), otherwise jumps there, otherwise makes the merge that fills the most; ties
broken by a seeded random pick. Only with no legal move at all (when any reply is a pass)
it answers "0 0 0 0".
Input: argv[1] = "<seat>,<row0>,...". Output: "fr fc tr tc" and a newline.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slimelib import reach, read_state  # noqa: E402


def main():
    me, board, rng = read_state()
    n, m = len(board), len(board[0])

    def empties(r, c):
        return sum(1 for rr in range(max(0, r - 1), min(n, r + 2))
                   for cc in range(max(0, c - 1), min(m, c + 2)) if board[rr][cc] == ".")

    best, best_key = None, None
    for r, c, tr, tc, far in reach(board, me):
        if board[tr][tc] == me and not far:
            gained = empties(tr, tc) - 1
            key = (2, gained) if gained >= 3 else (-1, gained)
        elif board[tr][tc] == ".":
            key = (0 if far else 1, empties(tr, tc))
        else:
            key = None
        if key is not None:
            key = key + (rng.random(),)
            if best_key is None or key > best_key:
                best, best_key = (r, c, tr, tc), key
    print("%d %d %d %d" % best if best else "0 0 0 0")


main()
