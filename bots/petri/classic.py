#!/usr/bin/env python3
"""Classic (one-shot mode, spec 6 6 0): a fresh process answers each request and exits.

A cell attacks an adjacent enemy with full strength, otherwise eats an adjacent corpse,
otherwise divides toward the nearest enemy when it has the energy, otherwise rests.
"""
import sys

SPEC = "6 6 0"
DIRS = (("N", 0, -1), ("NE", 1, -1), ("E", 1, 0), ("SE", 1, 1),
        ("S", 0, 1), ("SW", -1, 1), ("W", -1, 0), ("NW", -1, -1))


def act(req):
    """Answer one cell request (the text of the request); REST on anything odd."""
    try:
        lines = req.replace("\r", "").split("\n")
        w, h = map(int, lines[0].split())
        rows = lines[1:1 + h]
        x, y, hp, en = map(int, lines[h + 2].split())
        if len(rows) != h or any(len(r) != w for r in rows) \
                or not (0 <= x < w and 0 <= y < h) or rows[y][x] != "o":
            return "REST"
    except Exception:
        return "REST"

    def at(a, b):
        return rows[b][a] if 0 <= a < w and 0 <= b < h else "#"

    nb = [(d, x + dx, y + dy, at(x + dx, y + dy)) for d, dx, dy in DIRS]
    for d, _, _, c in nb:
        if c == "x" and en >= 3:
            return "ATTACK %s 3" % d
    for d, _, _, c in nb:
        if c == "c" and en < 6:
            return "EAT " + d
    free = [n for n in nb if n[3] == "."]
    if en >= 5 and free:
        enemy = [(a, b) for b in range(h) for a in range(w) if rows[b][a] == "x"] or [(x, y)]
        d = min(free, key=lambda n: min(max(abs(n[1] - a), abs(n[2] - b)) for a, b in enemy))
        return "DIVIDE " + d[0]
    return "REST"


def main():
    req = sys.stdin.buffer.read().decode("latin-1")
    print(SPEC if req.strip() == "BEGIN" else act(req), flush=True)


if __name__ == "__main__":
    main()
