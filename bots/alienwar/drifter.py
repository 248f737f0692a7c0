"""AlienWar sample alien: the drifter.

Puts its points into defense and life, drifts at random (seeded by ARENA_SEED and
ARENA_SEAT, so games are reproducible), and never starts a fight. Shows that a bot may keep
state per instance: each instance keeps its heading for a few rounds.
Protocol: games/alienwar.md (one process hosts every instance).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import alienlib as alien  # noqa: E402

HEADINGS = [name for name, _, _ in alien.MOVES]
RNG = random.Random(f"{os.environ.get('ARENA_SEED', '0')}/{os.environ.get('ARENA_SEAT', '0')}")
# Instance number -> (heading, rounds left on it).
headings = {}


def move(fields):
    instance = fields[0]
    heading, left = headings.get(instance, ("STAY", 0))
    if left == 0:
        heading, left = RNG.choice(HEADINGS), RNG.randint(2, 6)
    headings[instance] = (heading, left - 1)
    return heading


def fight(fields):
    return "N"


alien.serve("5,0,5,0,0", move, fight)
