"""Cave Rangers sample bot "prospector": kills lions and centipedes next to it, otherwise
walks the shortest safe path to the nearest gold in view (also to a revealer while it has
none, to food when hurt, to water when poisoned), and wanders in a heading that changes
every few turns when it sees nothing worth having."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cavelib as cave  # noqa: E402


def choose(state):
    wanted = "G"
    if not state.revealer:
        wanted += "R"
    if state.health < 15:
        wanted += "F"
    if state.poison:
        wanted += "W"
    path = state.path(state.cells(wanted))
    if path:
        return cave.moves(path)
    steps = cave.safe_steps(state)
    if not steps:
        return []
    # A heading kept for six turns, so the wandering covers ground.
    heading = cave.rng(state, "heading-%d" % (state.turns // 6)).choice(
        [code for code, _ in cave.DIRS])
    code = heading if heading in steps else cave.rng(state, "prospector").choice(steps)
    return ["M" + code, "M" + code]


cave.play(choose)
