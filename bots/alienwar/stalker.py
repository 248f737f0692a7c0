"""AlienWar sample alien: the stalker.

Spends two points on vision (radius 2) and the rest on strength and life, walks towards the
nearest prey it sees (a kill pays a fifth of the victim's levels), keeps away from aliens
otherwise, and fights anything whose blurred strength is below its own.
Protocol: games/alienwar.md (one process hosts every instance).
"""
import sys

MOVES = {(0, -1): "NORTH", (1, -1): "NORTHEAST", (1, 0): "EAST", (1, 1): "SOUTHEAST",
         (0, 1): "SOUTH", (-1, 1): "SOUTHWEST", (-1, 0): "WEST", (-1, -1): "NORTHWEST",
         (0, 0): "STAY"}
# Whales are slow and rich but have 60 HP; Cows hit hard. Lower is preferred.
PREY_COST = {"H": 0, "T": 1, "E": 1, "W": 2, "C": 3}


def sign(v):
    return (v > 0) - (v < 0)


def move(fields):
    r = int(fields[7])
    rows = fields[9].split("/")
    prey, aliens = [], []
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if (x, y) == (r, r):
                continue
            if c in PREY_COST:
                prey.append((max(abs(x - r), abs(y - r)) + PREY_COST[c], x - r, y - r))
            elif c == "A":
                aliens.append((x - r, y - r))
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


def main():
    read, write = sys.stdin.readline, sys.stdout.write
    while True:
        header = read().split()
        if not header or header[0] == "END":
            return
        word, count = header[0], int(header[1])
        if word == "CREATE":
            reply = ["3,5,0,2,0"] * count
        elif word == "MOVE":
            reply = [move(read().split()) for _ in range(count)]
        else:
            reply = [fight(read().split()) for _ in range(count)]
        write(" ".join(reply) + "\n")
        sys.stdout.flush()


main()
