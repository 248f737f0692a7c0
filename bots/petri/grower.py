#!/usr/bin/env python3
"""Grower (LOOP mode, spec 5 7 0): an aggressive divider that floods the dish.

Whenever a cell has 5 energy and a free neighbour it divides, into the free square nearest
to the enemy, so the colony fills space toward the opponent as fast as it can. Only when it
cannot divide does a cell attack an adjacent enemy (the least protected one) or eat.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from petrilib import DIRS, serve  # noqa: E402

SPEC = "5 7 0"
EMAX = 7


def decide(w, h, rows, x, y, hp, en, request):
    def at(a, b):
        return rows[b][a] if 0 <= a < w and 0 <= b < h else "#"

    nb = [(d, x + dx, y + dy, at(x + dx, y + dy)) for d, dx, dy in DIRS]
    foes = [n for n in nb if n[3] == "x"]
    free = [n for n in nb if n[3] in ".c"]
    corpses = [n for n in free if n[3] == "c"]
    if en >= 5 and free:
        enemy = [(a, b) for b in range(h) for a in range(w) if rows[b][a] == "x"] or [(x, y)]
        d = min(free, key=lambda n: min(max(abs(n[1] - a), abs(n[2] - b)) for a, b in enemy))
        return "DIVIDE " + d[0]
    if foes and en >= 3:
        # the enemy with the fewest friends around it is the easiest to finish off
        t = min(foes, key=lambda n: sum(at(n[1] + dx, n[2] + dy) == "x" for _, dx, dy in DIRS))
        return "ATTACK %s 3" % t[0]
    if corpses and en < EMAX:
        return "EAT " + corpses[0][0]
    return "REST"


if __name__ == "__main__":
    serve(SPEC, decide)
