"""What the Slime sample bots share: reading the state from the command line, a random
generator seeded from ARENA_SEED and the state, and the geometry of moves."""
import os
import random
import sys

# Every (d_row, d_col) a move can reach: spreads and merges 1 away, jumps 2 away.
OFFSETS = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if (dr, dc) != (0, 0)]


def read_state():
    """This slime's digit, the board as lists of cells, and the seeded generator."""
    parts = sys.argv[1].split(",")
    rng = random.Random("%s:%s" % (os.environ.get("ARENA_SEED", "0"), sys.argv[1]))
    return parts[0], [list(row) for row in parts[1:]], rng


def block(n, m, r, c):
    """The cells of the 3x3 block around (r, c) that lie on the n x m board."""
    for rr in range(r - 1, r + 2):
        for cc in range(c - 1, c + 2):
            if 0 <= rr < n and 0 <= cc < m:
                yield rr, cc


def reach(board, me):
    """Every (fr, fc, tr, tc, far) from a cell of `me` to a cell on the board 1 or 2 away
    (`far` for 2), sources in row-major order, targets in OFFSETS order."""
    n, m = len(board), len(board[0])
    for r in range(n):
        for c in range(m):
            if board[r][c] != me:
                continue
            for dr, dc in OFFSETS:
                tr, tc = r + dr, c + dc
                if 0 <= tr < n and 0 <= tc < m:
                    yield r, c, tr, tc, max(abs(dr), abs(dc)) == 2
