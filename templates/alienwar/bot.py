#!/usr/bin/env python3
"""A minimal Survival Game - AlienWar alien (games/alienwar.md).

arena keeps one process running for the whole game; it hosts every instance of the species.
Each request is a header line and one line per instance; the answer is one line with one
word per instance, in request order:

    CREATE <count> <side>     -> points per instance: life,strength,defense,vision,cleverness
    MOVE <k>, then k lines    -> NORTH NORTHEAST EAST SOUTHEAST SOUTH SOUTHWEST WEST NORTHWEST STAY
        <id> <hp> <life> <strength> <defense> <vision> <cleverness> <r> <blur> <view>
        (view: 2r+1 rows joined by '/', north first; '.' empty, 'A' alien, W C T E H prey)
    FIGHT <k>, then k lines   -> Y (fight) or N (peace)
        <id> <hp> <life> <strength> <defense> <vision> <cleverness> <r> <blur>
        <their life> <their strength> <their defense> <their vision>  (blurred upwards)
    END                       -> exit

This alien spends its 10 points evenly-ish, steps onto the first empty neighbouring cell,
and fights what looks weaker: legal always, clever never.
"""
import sys

POINTS = "3,3,2,1,1"
MOVES = (("NORTH", 0, -1), ("NORTHEAST", 1, -1), ("EAST", 1, 0), ("SOUTHEAST", 1, 1),
         ("SOUTH", 0, 1), ("SOUTHWEST", -1, 1), ("WEST", -1, 0), ("NORTHWEST", -1, -1))


def move(words):
    """The first step onto an empty cell of the view, else STAY."""
    r = int(words[7])
    rows = words[9].split("/")
    for name, dx, dy in MOVES:
        if rows[r + dy][r + dx] == ".":
            return name
    return "STAY"


def fight(words):
    """Fight when our strength beats the other's (blurred) strength."""
    return "Y" if int(words[3]) > int(words[10]) else "N"


def main():
    while True:
        header = sys.stdin.readline().split()
        if not header or header[0] == "END":
            return
        word, count = header[0], int(header[1])
        if word == "CREATE":
            reply = [POINTS] * count
        elif word == "MOVE":
            reply = [move(sys.stdin.readline().split()) for _ in range(count)]
        else:
            reply = [fight(sys.stdin.readline().split()) for _ in range(count)]
        print(" ".join(reply), flush=True)


if __name__ == "__main__":
    main()
