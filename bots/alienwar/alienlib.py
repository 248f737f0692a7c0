"""Shared helpers of the AlienWar sample aliens: the directions and the host protocol loop
of games/alienwar.md (one process hosts every instance of a species).

A bot calls `serve(points, move, fight)`: `points` is the CREATE reply of one instance,
`move` and `fight` turn one instance's request line (split into fields) into its answer."""

import sys

# (name, dx, dy) of every move, x east, y south; in enum order (games/alienwar.md).
MOVES = [("NORTH", 0, -1), ("NORTHEAST", 1, -1), ("EAST", 1, 0), ("SOUTHEAST", 1, 1),
         ("SOUTH", 0, 1), ("SOUTHWEST", -1, 1), ("WEST", -1, 0), ("NORTHWEST", -1, -1),
         ("STAY", 0, 0)]


def seen(fields):
    """(symbol, dx, dy) of every cell of a MOVE request's view but the alien's own, row by
    row, with dx, dy relative to the alien."""
    r = int(fields[7])
    rows = fields[9].split("/")
    return [(c, x - r, y - r) for y, row in enumerate(rows) for x, c in enumerate(row)
            if (x, y) != (r, r)]


def serve(points, move, fight):
    """Answers the host's requests until END or the end of input."""
    read, write = sys.stdin.readline, sys.stdout.write
    while True:
        header = read().split()
        if not header or header[0] == "END":
            return
        word, count = header[0], int(header[1])
        if word == "CREATE":
            reply = [points] * count
        elif word == "MOVE":
            reply = [move(read().split()) for _ in range(count)]
        else:
            reply = [fight(read().split()) for _ in range(count)]
        write(" ".join(reply) + "\n")
        sys.stdout.flush()
