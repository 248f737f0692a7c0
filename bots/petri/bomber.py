#!/usr/bin/env python3
"""Bomber (LOOP mode, spec 4 6 2): holds a tight front and turns wounded cells into bombs.

A cell worn down to 3 HP or less explodes (HP + 2 acid damage to all eight neighbours) when
it touches at least two enemies and more enemies than friends; otherwise it plugs free
squares next to the enemy (divide at the front, move up from behind), attacks the adjacent
enemy most exposed to our cells, eats corpses and divides toward the enemy.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from petrilib import DIRS, serve  # noqa: E402

SPEC = "4 6 2"
EMAX = 6


def decide(w, h, rows, x, y, hp, en, request):
    def at(a, b):
        return rows[b][a] if 0 <= a < w and 0 <= b < h else "#"

    def count(a, b, ch):
        return sum(at(a + dx, b + dy) == ch for _, dx, dy in DIRS)

    nb = [(d, x + dx, y + dy, at(x + dx, y + dy)) for d, dx, dy in DIRS]
    foes = [n for n in nb if n[3] == "x"]
    friends = sum(n[3] == "o" for n in nb)
    free = [n for n in nb if n[3] in ".c"]
    corpses = [n for n in free if n[3] == "c"]
    if hp <= 3 and en > hp and len(foes) >= 2 and len(foes) > friends:
        return "EXPLODE"
    holes = [n for n in free if count(n[1], n[2], "x")]
    if holes and en >= (5 if foes else 1):
        d = max(holes, key=lambda n: count(n[1], n[2], "o"))[0]
        return ("DIVIDE " if foes else "MOVE ") + d
    if foes:
        t = max(foes, key=lambda n: count(n[1], n[2], "o"))[0]
        if en >= 3:
            return "ATTACK %s 3" % t
        if corpses:
            return "EAT " + corpses[0][0]
        return "REST"
    if en >= 5 and free:
        enemy = [(a, b) for b in range(h) for a in range(w) if rows[b][a] == "x"] or [(x, y)]
        d = min(free, key=lambda n: min(max(abs(n[1] - a), abs(n[2] - b)) for a, b in enemy))
        return "DIVIDE " + d[0]
    if corpses and en < EMAX:
        return "EAT " + corpses[0][0]
    return "REST"


if __name__ == "__main__":
    serve(SPEC, decide)
