// A minimal Survival Game - AlienWar alien in Java (games/alienwar.md, "Java aliens"): the
// original challenge's API, so it also runs in the original controller. arena compiles it
// with its Java host, which creates one object per instance and calls these three methods.
//
//   setAbilityPoints  up to 10 points: life, strength, defense, vision, cleverness
//   move              the view fields[x][y], this instance at the centre; ' ' empty,
//                     'A' alien, W C T E H prey; answer one of planet.Move's nine moves
//   wantToFight       the other party's blurred life, strength, defense and vision levels
//
// The getters (getCurrentHp, getStrengthLvl, getVisionFieldsCount, ...) report this
// instance's state. Static fields are shared by every instance of the species.
//
// This alien spends its 10 points evenly-ish, steps onto the first empty neighbouring cell,
// and fights what looks weaker: legal always, clever never. Rename the class and its file
// together to make it yours.
package alien;

import planet.Move;

public class MyAlien extends Alien {
    @Override
    public void setAbilityPoints(float[] abilities) {
        abilities[0] = 3; // life
        abilities[1] = 3; // strength
        abilities[2] = 2; // defense
        abilities[3] = 1; // vision
        abilities[4] = 1; // cleverness
    }

    @Override
    public Move move(char[][] fields) {
        int r = getVisionFieldsCount();
        for (Move move : Move.values()) {
            if (move != Move.STAY
                    && fields[r + move.getXOffset()][r + move.getYOffset()] == ' ') {
                return move;
            }
        }
        return Move.STAY;
    }

    @Override
    public boolean wantToFight(int[] enemyAbilities) {
        return getStrengthLvl() > enemyAbilities[1];
    }
}
