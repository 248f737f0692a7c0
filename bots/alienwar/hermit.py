"""AlienWar sample alien: the hermit.

Uses the rounding trick (life 4.5 + strength 5.5 = 10 points, levels 6 and 7, 35 HP), steps
to the neighbouring cell with the fewest aliens around it, and fights only what looks
weaker than itself. Protocol: games/alienwar.md (one process hosts every instance).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import alienlib as alien  # noqa: E402


def move(fields):
    aliens = [(dx, dy) for c, dx, dy in alien.seen(fields) if c == "A"]
    best, best_crowd = "STAY", None
    for name, dx, dy in alien.MOVES:
        crowd = sum(1 for ax, ay in aliens if max(abs(ax - dx), abs(ay - dy)) <= 1)
        if best_crowd is None or crowd < best_crowd:
            best, best_crowd = name, crowd
    return best


def fight(fields):
    hp, strength = int(fields[1]), int(fields[3])
    life, enemy_strength = int(fields[9]), int(fields[10])
    # The enemy's values are blurred upwards, so this errs on the side of caution.
    return "Y" if enemy_strength < strength and 5 * life + 5 < hp else "N"


alien.serve("4.5,5.5,0,0,0", move, fight)
