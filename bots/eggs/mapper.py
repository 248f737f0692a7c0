"""Easter Egg Hunt sample bot "mapper": remembers every square it has seen in its memory
line and walks the shortest known path to the nearest remembered egg, or, when it knows of
none, to the nearest unexplored square.

Memory: "TURN;ROW;COL;PREV_ROW;PREV_COL;TOP;LEFT;HEIGHT;WIDTH;GRID". Coordinates are
relative to the start square; GRID is the known rectangle row by row, run-length encoded
(a symbol, then its count if above 1), with `?` unknown, `#` wall, `o` egg, `.` floor.
A move can be bounced back, so each turn the bot checks which of its intended square and
its previous square fits the walls it sees now. Deterministic: it uses no randomness, so
ARENA_SEED changes nothing. Input and output as in greedy.py."""

import os
import sys
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eggslib import STEPS, read_input  # noqa: E402

MEMORY_LIMIT = 1024


def decode(grid):
    out, i = [], 0
    while i < len(grid):
        symbol, i = grid[i], i + 1
        start = i
        while i < len(grid) and grid[i].isdigit():
            i += 1
        out.append(symbol * (int(grid[start:i]) if i > start else 1))
    return "".join(out)


def encode(cells):
    out, i = [], 0
    while i < len(cells):
        j = i
        while j < len(cells) and cells[j] == cells[i]:
            j += 1
        out.append(cells[i] + (str(j - i) if j - i > 1 else ""))
        i = j
    return "".join(out)


def load(memory):
    """(turn, position, previous position, known squares) from the memory line."""
    parts = memory.split(";")
    try:
        turn, row, col, prow, pcol, top, left, height, width = map(int, parts[:9])
        cells = decode(parts[9])
        assert len(cells) == height * width
    except (ValueError, IndexError, AssertionError):
        return 0, (0, 0), (0, 0), {}
    known = {}
    for i, symbol in enumerate(cells):
        if symbol != "?":
            known[(top + i // width, left + i % width)] = symbol
    return turn, (row, col), (prow, pcol), known


def save(turn, pos, prev, known):
    rows = [r for r, _ in known]
    cols = [c for _, c in known]
    top, left = min(rows), min(cols)
    height, width = max(rows) - top + 1, max(cols) - left + 1
    cells = "".join(known.get((top + i // width, left + i % width), "?")
                    for i in range(height * width))
    return "%d;%d;%d;%d;%d;%d;%d;%d;%d;%s" % (
        turn, pos[0], pos[1], prev[0], prev[1], top, left, height, width, encode(cells))


def mismatches(view, pos, known):
    """How many squares of the view contradict the remembered walls if we stand at pos."""
    count = 0
    for r in range(5):
        for c in range(5):
            seen = view[r][c]
            if seen == "X":
                continue
            old = known.get((pos[0] + r - 2, pos[1] + c - 2))
            if old is not None and (old == "#") != (seen == "#"):
                count += 1
    return count


def main():
    view, memory = read_input()
    turn, intended, prev, known = load(memory)
    # Bounced back? Stand where the walls fit best; on a tie trust the intended move.
    pos = intended
    if mismatches(view, prev, known) < mismatches(view, intended, known):
        pos = prev
    players = set()
    for r in range(5):
        for c in range(5):
            seen = view[r][c]
            square = (pos[0] + r - 2, pos[1] + c - 2)
            if seen == "X":
                continue
            if seen == "*":
                known[square] = "."
                if (r, c) != (2, 2):
                    players.add(square)
            else:
                known[square] = "." if seen == " " else seen
    digit, target = plan(pos, known, players)
    action = "N" if known.get(target) == "o" else "A"
    memory = save(turn + 1, target, pos, known)
    if len(memory) > MEMORY_LIMIT:
        # Too much to remember: start a fresh map from here rather than lose the tail.
        memory = save(turn + 1, (0, 0), (0, 0), {(0, 0): "."})
    print("%d\n%s\n%s" % (digit, action, memory))


def plan(pos, known, players):
    """The first step of a shortest path to the nearest known egg, else to the nearest
    unknown square; (9, pos) if there is nowhere to go."""
    for goal in ("o", "?"):
        first = {}
        queue = deque([pos])
        seen = {pos}
        while queue:
            square = queue.popleft()
            for digit in sorted(STEPS):
                dr, dc = STEPS[digit]
                nxt = (square[0] + dr, square[1] + dc)
                if nxt in seen:
                    continue
                symbol = known.get(nxt, "?")
                if symbol == "#" or (square == pos and nxt in players):
                    continue
                seen.add(nxt)
                first[nxt] = first.get(square, (digit, nxt))
                if symbol == goal:
                    return first[nxt]
                if symbol != "?":
                    queue.append(nxt)
    return 9, pos


main()
