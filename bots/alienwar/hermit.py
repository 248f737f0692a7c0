"""AlienWar sample alien: the hermit.

Uses the rounding trick (life 4.5 + strength 5.5 = 10 points, levels 6 and 7, 35 HP), steps
to the neighbouring cell with the fewest aliens around it, and fights only what looks
weaker than itself. Protocol: games/alienwar.md (one process hosts every instance).
"""
import sys

MOVES = [("NORTH", 0, -1), ("NORTHEAST", 1, -1), ("EAST", 1, 0), ("SOUTHEAST", 1, 1),
         ("SOUTH", 0, 1), ("SOUTHWEST", -1, 1), ("WEST", -1, 0), ("NORTHWEST", -1, -1),
         ("STAY", 0, 0)]


def move(fields):
    r = int(fields[7])
    rows = fields[9].split("/")
    aliens = [(x - r, y - r) for y, row in enumerate(rows) for x, c in enumerate(row)
              if c == "A" and (x, y) != (r, r)]
    best, best_crowd = "STAY", None
    for name, dx, dy in MOVES:
        crowd = sum(1 for ax, ay in aliens if max(abs(ax - dx), abs(ay - dy)) <= 1)
        if best_crowd is None or crowd < best_crowd:
            best, best_crowd = name, crowd
    return best


def fight(fields):
    hp, strength = int(fields[1]), int(fields[3])
    life, enemy_strength = int(fields[9]), int(fields[10])
    # The enemy's values are blurred upwards, so this errs on the side of caution.
    return "Y" if enemy_strength < strength and 5 * life + 5 < hp else "N"


def main():
    read, write = sys.stdin.readline, sys.stdout.write
    while True:
        header = read().split()
        if not header or header[0] == "END":
            return
        word, count = header[0], int(header[1])
        if word == "CREATE":
            reply = ["4.5,5.5,0,0,0"] * count
        elif word == "MOVE":
            reply = [move(read().split()) for _ in range(count)]
        else:
            reply = [fight(read().split()) for _ in range(count)]
        write(" ".join(reply) + "\n")
        sys.stdout.flush()


main()
