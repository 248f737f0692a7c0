"""AlienWar sample alien: the drifter.

Puts its points into defense and life, drifts at random (seeded by ARENA_SEED and
ARENA_SEAT, so games are reproducible), and never starts a fight. Shows that a bot may keep
state per instance: each instance keeps its heading for a few rounds.
Protocol: games/alienwar.md (one process hosts every instance).
"""
import os
import random
import sys

MOVES = ["NORTH", "NORTHEAST", "EAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "WEST",
         "NORTHWEST", "STAY"]


def main():
    rng = random.Random(f"{os.environ.get('ARENA_SEED', '0')}/{os.environ.get('ARENA_SEAT', '0')}")
    headings = {}
    read, write = sys.stdin.readline, sys.stdout.write
    while True:
        header = read().split()
        if not header or header[0] == "END":
            return
        word, count = header[0], int(header[1])
        if word == "CREATE":
            reply = ["5,0,5,0,0"] * count
        elif word == "MOVE":
            reply = []
            for _ in range(count):
                instance = read().split()[0]
                heading, left = headings.get(instance, ("STAY", 0))
                if left == 0:
                    heading, left = rng.choice(MOVES), rng.randint(2, 6)
                headings[instance] = (heading, left - 1)
                reply.append(heading)
        else:
            reply = []
            for _ in range(count):
                read()
                reply.append("N")
        write(" ".join(reply) + "\n")
        sys.stdout.flush()


main()
