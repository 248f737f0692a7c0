"""Easter Egg Hunt sample bot "brawler": goes for visible eggs like greedy.py, but fights
for squares. Onto an egg it steps with N (which collects), elsewhere with A, so it wins
races for empty squares against bots that play N; boxed in, it stays and plays C. Where it sees no egg it heads away from the walls it sees, to reach open floor.

Memory: the turn number, for reproducible randomness. Input and output as in greedy.py."""

import os
import random
import sys

STEPS = {1: (-1, -1), 2: (-1, 0), 3: (-1, 1), 4: (0, 1), 5: (1, 1),
         6: (1, 0), 7: (1, -1), 8: (0, -1)}


def sign(x):
    return (x > 0) - (x < 0)


def main():
    lines = sys.stdin.read().split("\n")
    view = [line.ljust(5, "X")[:5] for line in (lines + [""] * 6)[:5]]
    memory = lines[5] if len(lines) > 5 else ""
    turn = int(memory) + 1 if memory.isdigit() else 1
    rng = random.Random("%s:%s:%d" % (os.environ.get("ARENA_SEED", "0"),
                                      os.environ.get("ARENA_SEAT", "0"), turn))
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
