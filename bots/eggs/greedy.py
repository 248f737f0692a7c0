"""Easter Egg Hunt sample bot "greedy": walks to the nearest egg it can see, and wanders
at random (away from walls) when it sees none. Memory: the turn number, so its random
choices are reproducible from ARENA_SEED and ARENA_SEAT.

Input on stdin: five 5-character view lines and the memory line. Output: a direction
digit (keypad, 9 = stay), an action (A/C/N) and the memory line."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eggslib import STEPS, read_input, turn_rng  # noqa: E402



def main():
    view, memory = read_input()
    turn = int(memory) + 1 if memory.isdigit() else 1
    rng = turn_rng(turn)
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
