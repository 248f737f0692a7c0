"""Slime sample bot: two-ply search, the strongest of the samples.

Takes the eight best moves by the greedy measure (own cells gained plus enemy cells
converted), plays each on a copy of the board, and lets every opponent answer with its own
greedy best move on that board. A candidate is worth its greedy value minus the most cells
of ours any single opponent reply would convert; ties go to spreads, then to a seeded random
pick. Input: argv[1] = "<seat>,<row0>,...". Output: "fr fc tr tc" and a newline.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slimelib import block, reach, read_state  # noqa: E402

CANDIDATES = 8


def moves(board, me, victim=None):
    """Legal moves of `me` as (value, kind, fr, fc, tr, tc); with `victim`, the value is the
    number of the victim's cells the move converts, else own gain plus enemies converted."""
    n, m = len(board), len(board[0])
    for r, c, tr, tc, far in reach(board, me):
        target = board[tr][tc]
        if target == ".":
            around = [board[rr][cc] for rr, cc in block(n, m, tr, tc)]
            if victim is not None:
                value = around.count(victim)
            else:
                enemies = sum(1 for cell in around if cell not in (".", me))
                value = (0 if far else 1) + 2 * enemies
            yield (value, "jump" if far else "spread", r, c, tr, tc)
        elif target == me and not far and victim is None:
            empty = sum(1 for rr, cc in block(n, m, tr, tc) if board[rr][cc] == ".")
            yield (empty - 1, "merge", r, c, tr, tc)


def play(board, me, move):
    _, kind, r, c, tr, tc = move
    n, m = len(board), len(board[0])
    after = [row[:] for row in board]
    for rr, cc in block(n, m, tr, tc):
        if kind == "merge":
            if after[rr][cc] == ".":
                after[rr][cc] = me
        elif after[rr][cc] != "." or (rr, cc) == (tr, tc):
            after[rr][cc] = me
    if kind != "spread":
        after[r][c] = "."
    return after


def main():
    me, board, rng = read_state()
    ranked = sorted(moves(board, me), key=lambda mv: (mv[0], mv[1] == "spread", rng.random()),
                    reverse=True)[:CANDIDATES]
    opponents = [p for p in "1234" if p != me and any(p in row for row in board)]
    best, best_key = None, None
    for move in ranked:
        after = play(board, me, move)
        threat = max([0] + [mv[0] for p in opponents for mv in moves(after, p, victim=me)])
        key = (move[0] - 2 * threat, move[1] == "spread", rng.random())
        if best_key is None or key > best_key:
            best, best_key = move, key
    print("%d %d %d %d" % best[2:] if best else "0 0 0 0")


main()
