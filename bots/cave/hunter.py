"""Cave Rangers sample bot "hunter": kills lions and centipedes next to it, fetches a knife,
then hunts other bots (two knife attacks on an adjacent bot, or a step and an attack), and
collects gold in between."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cavelib as cave  # noqa: E402


def choose(state):
    bots = state.near("@")
    if bots and state.knife:
        return ["A" + bots[0], "A" + bots[0]]
    if not state.knife:
        path = state.path(state.cells("K"))
        if path:
            return cave.moves(path)
    if state.knife:
        # Free cells next to a bot: step there, then strike.
        beside = set()
        for x, y in state.cells("@"):
            for code, (dx, dy) in cave.DIRS:
                if state.at((x + dx, y + dy)) in ("-", "G", "F", "W", "R", "K", "N"):
                    beside.add((x + dx, y + dy))
        path = state.path(beside)
        if path:
            if len(path) == 1:
                dx, dy = dict(cave.DIRS)[path[0]]
                there = (state.me[0] + dx, state.me[1] + dy)
                target = state.near("@", there)
                return ["M" + path[0], "A" + target[0] if target else cave.HOLD]
            return cave.moves(path)
    path = state.path(state.cells("G"))
    if path:
        return cave.moves(path)
    steps = cave.safe_steps(state)
    if steps:
        return ["M" + cave.rng(state, "hunter").choice(steps)]
    return []


cave.play(choose)
