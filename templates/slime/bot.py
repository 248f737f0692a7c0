#!/usr/bin/env python3
"""A minimal Slime bot (games/slime.md).

Every turn arena runs this file with one argument: `<seat>,<row0>,...,<rowN-1>`, the seat 1
to 4 and the board's rows (`.` empty, `1` to `4` the players' cells). It prints one line
`from_row from_col to_row to_col` and a newline: a spread (to an empty cell next to one of
yours), a jump (to an empty cell two away; the source is vacated) or a merge.

This bot spreads if it can, else jumps, else merges: it passes only when no move is
legal, and it is never clever.
"""
import sys


def decide(seat, rows):
    """A legal move as (from_row, from_col, to_row, to_col), or None."""
    size_r, size_c = len(rows), len(rows[0])
    own = [(r, c) for r in range(size_r) for c in range(size_c) if rows[r][c] == seat]
    # A spread or a jump lands on an empty cell; a merge, the only move left to a player
    # walled in by others, lands on one of its own cells next to the source.
    for reach, target in ((1, "."), (2, "."), (1, seat)):
        for r, c in own:
            for tr in range(r - reach, r + reach + 1):
                for tc in range(c - reach, c + reach + 1):
                    inside = 0 <= tr < size_r and 0 <= tc < size_c
                    distance = max(abs(tr - r), abs(tc - c))
                    if inside and distance == reach and rows[tr][tc] == target:
                        return r, c, tr, tc
    return None


def main():
    seat, *rows = sys.argv[1].split(",")
    move = decide(seat, rows)
    if move:  # with no legal move, printing nothing passes
        print("%d %d %d %d" % move)


if __name__ == "__main__":
    main()
