"""Cave Rangers sample bot "hermit": survives first. It kills lions and centipedes next to
it, drinks when poisoned, goes to Nurse Nina when hurt, steps away from anything that bites
or any bot within two cells, takes gold only when it is at most two steps away, and
otherwise stays where it is."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cavelib as cave  # noqa: E402


def threats(state):
    """Cells within two of the bot holding a biter or another bot."""
    mx, my = state.me
    return [(x, y) for (x, y) in state.cells("CL@")
            if max(abs(x - mx), abs(y - my)) <= 2]


def flee(state, danger):
    """The safe step that ends farthest from the nearest threat, if any."""
    best = None
    for code in cave.safe_steps(state):
        dx, dy = dict(cave.DIRS)[code]
        cell = (state.me[0] + dx, state.me[1] + dy)
        gap = min(max(abs(cell[0] - x), abs(cell[1] - y)) for x, y in danger)
        if best is None or gap > best[0]:
            best = (gap, code)
    return best[1] if best else None


def choose(state):
    goals = []
    if state.poison:
        goals = state.cells("W")
    if not goals and state.health < 30:
        goals = state.cells("N")
    path = state.path(goals) if goals else None
    if path:
        return cave.moves(path)
    danger = threats(state)
    if danger:
        code = flee(state, danger)
        if code:
            return ["M" + code]
    path = state.path(state.cells("G"))
    if path and len(path) <= 2:
        return cave.moves(path)
    return []


cave.play(choose)
