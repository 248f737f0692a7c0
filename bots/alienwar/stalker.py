"""AlienWar sample alien: the stalker.

Spends two points on vision (radius 2) and the rest on strength and life, walks towards the
nearest prey it sees (a kill pays a fifth of the victim's levels), keeps away from aliens
otherwise, and fights anything whose blurred strength is below its own.
Protocol: games/alienwar.md (one process hosts every instance).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import alienlib as alien  # noqa: E402

MOVES = {(dx, dy): name for name, dx, dy in alien.MOVES}
# Whales are slow and rich but have 60 HP; Cows hit hard. Lower is preferred.
PREY_COST = {"H": 0, "T": 1, "E": 1, "W": 2, "C": 3}


def sign(v):
    return (v > 0) - (v < 0)


def move(fields):
    prey, aliens = [], []
    for c, dx, dy in alien.seen(fields):
        if c in PREY_COST:
            prey.append((max(abs(dx), abs(dy)) + PREY_COST[c], dx, dy))
        elif c == "A":
            aliens.append((dx, dy))
    if prey:
        _, dx, dy = min(prey)
        return MOVES[(sign(dx), sign(dy))]
    if aliens:
        ax = sum(a[0] for a in aliens)
        ay = sum(a[1] for a in aliens)
        return MOVES[(-sign(ax), -sign(ay))]
    return "SOUTHEAST"


def fight(fields):
    strength = int(fields[3])
    return "Y" if int(fields[10]) < strength else "N"


alien.serve("3,5,0,2,0", move, fight)
