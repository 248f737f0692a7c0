#!/usr/bin/env python3
"""Grower (LOOP mode, spec 5 7 0): an aggressive divider that floods the dish.

Whenever a cell has 5 energy and a free neighbour it divides, into the free square nearest
to the enemy, so the colony fills space toward the opponent as fast as it can. Only when it
cannot divide does a cell attack an adjacent enemy (the least protected one) or eat.
"""
import sys

SPEC = "5 7 0"
EMAX = 7
DIRS = (("N", 0, -1), ("NE", 1, -1), ("E", 1, 0), ("SE", 1, 1),
        ("S", 0, 1), ("SW", -1, 1), ("W", -1, 0), ("NW", -1, -1))


def decide(w, h, rows, x, y, hp, en):
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


def act(req):
    """Answer one cell request (the text of the request); REST on anything odd."""
    try:
        lines = req.replace("\r", "").split("\n")
        w, h = map(int, lines[0].split())
        rows = lines[1:1 + h]
        x, y, hp, en = map(int, lines[h + 2].split())
        if len(rows) != h or lines[h + 1] or any(len(r) != w for r in rows) \
                or not (0 <= x < w and 0 <= y < h) or rows[y][x] != "o":
            return "REST"
        return decide(w, h, rows, x, y, hp, en)
    except Exception:
        return "REST"


def main():
    """One-shot: one request, then EOF. LOOP: BEGIN, requests, END (or EOF)."""
    read = sys.stdin.buffer.readline
    answered = junk = False
    while True:
        line = read()
        if not line:
            break
        text = line.decode("latin-1").strip()
        t = text.split()
        if text == "END":
            return
        if text == "BEGIN":
            reply, junk = SPEC + " LOOP", False
        elif len(t) == 2 and t[0].isdecimal() and t[1].isdecimal() and len(t[1]) < 5:
            parts = [line]
            for _ in range(int(t[1]) + 2):  # H rows, the blank line, the stats line
                more = read()
                if not more:
                    break
                parts.append(more)
            reply, junk = act(b"".join(parts).decode("latin-1")), False
        elif junk or not text:  # blank lines, and the rest of a garbled request
            continue
        else:  # a garbled request: one REST, then skip lines until the next header
            reply, junk = "REST", True
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
        answered = True
    if not answered:
        sys.stdout.write("REST\n")


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
