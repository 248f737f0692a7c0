"""Cave Rangers sample bot "hunter": kills lions and centipedes next to it, fetches a knife,
then hunts other bots (two knife attacks on an adjacent bot, or a step and an attack), and
collects gold in between."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cavelib as cave  # noqa: E402


def main():
    state = cave.read_state()
    attacks = cave.kill_biters(state)
    if attacks:
        cave.answer(attacks)
        return
    bots = state.near("@")
    if bots and state.knife:
        cave.answer(["A" + bots[0], "A" + bots[0]])
        return
    if not state.knife:
        path = state.path(state.cells("K"))
        if path:
            cave.answer(cave.moves(path))
            return
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
                cave.answer(["M" + path[0], "A" + target[0] if target else cave.HOLD])
            else:
                cave.answer(cave.moves(path))
            return
    path = state.path(state.cells("G"))
    if path:
        cave.answer(cave.moves(path))
        return
    steps = cave.safe_steps(state)
    if steps:
        code = cave.rng(state, "hunter").choice(steps)
        cave.answer(["M" + code])
    else:
        cave.answer([])


main()
