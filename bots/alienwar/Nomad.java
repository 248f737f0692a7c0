// AlienWar sample alien in Java, run through arena's Java host (games/alienwar.md): the
// original API, so it would also have run in the original controller. It walks the ray
// with the most prey and the fewest aliens, and fights only opponents that look weaker.
package alien;

import planet.Move;

public class Nomad extends Alien {
    // Shared by all instances of the species, as static fields were in the original.
    private static int movesMade = 0;

    public void setAbilityPoints(float[] abilities) {
        abilities[0] = 3.5f; // life: 30 HP
        abilities[1] = 4.5f; // strength: level 6 with the half-up rounding
        abilities[3] = 2f;   // vision: radius 2
    }

    public Move move(char[][] fields) {
        movesMade++;
        int r = getVisionFieldsCount();
        Move best = Move.values()[movesMade % 8];
        int bestScore = 0;
        for (Move m : Move.values()) {
            if (m == Move.STAY) {
                continue;
            }
            int score = 0;
            for (int i = 1; i <= r; i++) {
                char c = fields[r + i * m.getXOffset()][r + i * m.getYOffset()];
                if (c == 'A') {
                    score -= 3;
                } else if (c != ' ' && c != 'C') {
                    score += 2;
                }
            }
            if (score > bestScore) {
                best = m;
                bestScore = score;
            }
        }
        return best;
    }

    public boolean wantToFight(int[] enemyAbilities) {
        return enemyAbilities[1] < getStrengthLvl() && enemyAbilities[0] * 5 < getCurrentHp();
    }
}
