"""Easter Egg Hunt sample bot "brawler": goes for visible eggs like greedy.py, but fights
for squares. Onto an egg it steps with N (which collects), elsewhere with A, so it wins
races for empty squares against bots that play N; boxed in, it stays and plays C. Where it sees no egg it heads away from the walls it sees, to reach open floor.

Memory: the turn number, for reproducible randomness. Input and output as in greedy.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eggslib import STEPS, read_input, turn_rng  # noqa: E402



def sign(x):
    return (x > 0) - (x < 0)


def main():
    view, memory = read_input()
    turn = int(memory) + 1 if memory.isdigit() else 1
    rng = turn_rng(turn)
    cells = [(r - 2, c - 2, view[r][c]) for r in range(5) for c in range(5)]
    eggs = sorted((max(abs(r), abs(c)), r, c) for r, c, s in cells if s == "o")
    for _, r, c in eggs:
        step = (sign(r), sign(c))
        digit = next(k for k, v in STEPS.items() if v == step)
        target = view[2 + step[0]][2 + step[1]]
        if target == "o":
            print("%d\nN\n%d" % (digit, turn))
            return
        if target == " ":
            print("%d\nA\n%d" % (digit, turn))
            return
    # Away from walls: score each free step by the blocked cells around its target.
    free = [k for k, (dr, dc) in STEPS.items() if view[2 + dr][2 + dc] == " "]
    if not free:
        print("9\nC\n%d" % turn)
        return

    def openness(digit):
        dr, dc = STEPS[digit]
        return sum(view[2 + dr + a][2 + dc + b] not in "#X"
                   for a in (-1, 0, 1) for b in (-1, 0, 1)
                   if 0 <= 2 + dr + a < 5 and 0 <= 2 + dc + b < 5)

    best = max(openness(d) for d in free)
    digit = rng.choice([d for d in free if openness(d) == best])
    print("%d\nA\n%d" % (digit, turn))


main()
