"""Easter Egg Hunt sample bot "greedy": walks to the nearest egg it can see, and wanders
at random (away from walls) when it sees none. Memory: the turn number, so its random
choices are reproducible from ARENA_SEED and ARENA_SEAT.

Input on stdin: five 5-character view lines and the memory line. Output: a direction
digit (keypad, 9 = stay), an action (A/C/N) and the memory line."""

import os
import random
import sys

# Keypad digit -> (d_row, d_col).
STEPS = {1: (-1, -1), 2: (-1, 0), 3: (-1, 1), 4: (0, 1), 5: (1, 1),
         6: (1, 0), 7: (1, -1), 8: (0, -1)}


def main():
    lines = sys.stdin.read().split("\n")
    view = [line.ljust(5, "X")[:5] for line in (lines + [""] * 6)[:5]]
    memory = lines[5] if len(lines) > 5 else ""
    turn = int(memory) + 1 if memory.isdigit() else 1
    rng = random.Random("%s:%s:%d" % (os.environ.get("ARENA_SEED", "0"),
                                      os.environ.get("ARENA_SEAT", "0"), turn))
    eggs = [(r - 2, c - 2) for r in range(5) for c in range(5) if view[r][c] == "o"]
    if eggs:
        # Chebyshev distance is the number of moves, since diagonals are allowed.
        d_row, d_col = min(eggs, key=lambda e: (max(abs(e[0]), abs(e[1])), e))
        step = (max(-1, min(1, d_row)), max(-1, min(1, d_col)))
        digit = next(k for k, v in STEPS.items() if v == step)
        if view[2 + step[0]][2 + step[1]] in " o":
            print("%d\nN\n%d" % (digit, turn))
            return
    free = [k for k, (dr, dc) in STEPS.items() if view[2 + dr][2 + dc] == " "]
    digit = rng.choice(free) if free else 9
    print("%d\nN\n%d" % (digit, turn))


main()
