"""Cave Rangers sample bot "scout": walks straight lines across the cave, turning when the
way ahead is blocked, dangerous or the cave's edge; picks up gold, revealers and food on the
way and kills lions and centipedes next to it.

It keeps its heading between turns in `scout.txt` in its current directory, the private
folder arena gives each bot (at most 1 KB; the file holds a few bytes). A new game starts
with the turn counter at 0, so the heading is chosen afresh then."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cavelib as cave  # noqa: E402

MEMORY = "scout.txt"


def recall(state):
    """The stored heading, unless this is a new game."""
    if state.turns == 0:
        return None
    try:
        with open(MEMORY) as memory:
            heading = memory.read().strip()
    except OSError:
        return None
    return heading if heading in dict(cave.DIRS) else None


def choose(state):
    path = state.path(state.cells("GRF" if state.health < 20 else "GR"))
    if path and len(path) <= 3:
        return cave.moves(path)
    steps = cave.safe_steps(state)
    heading = recall(state)
    if heading not in steps:
        rng = cave.rng(state, "scout")
        heading = rng.choice(steps) if steps else None
    if heading is None:
        return []
    with open(MEMORY, "w") as memory:
        memory.write(heading + "\n")
    return ["M" + heading, "M" + heading]


cave.play(choose)
