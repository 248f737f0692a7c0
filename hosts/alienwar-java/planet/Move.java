// arena's AlienWar host: the original API's Move enum (games/alienwar.md). The order of the
// constants is the original's: bots iterate Move.values().
package planet;

import java.util.Random;

public enum Move {
    NORTH(0, -1),
    NORTHEAST(1, -1),
    EAST(1, 0),
    SOUTHEAST(1, 1),
    SOUTH(0, 1),
    SOUTHWEST(-1, 1),
    WEST(-1, 0),
    NORTHWEST(-1, -1),
    STAY(0, 0);

    /** Shared by every caller of getRandom in this process; the host seeds it from ARENA_SEED. */
    public static Random random = new Random();

    private final int xOffset;
    private final int yOffset;

    Move(int xOffset, int yOffset) {
        this.xOffset = xOffset;
        this.yOffset = yOffset;
    }

    /** The step east (+1) or west (-1). */
    public int getXOffset() {
        return xOffset;
    }

    /** The step south (+1) or north (-1). */
    public int getYOffset() {
        return yOffset;
    }

    /** One of the nine moves, uniformly. */
    public static Move getRandom() {
        Move[] all = values();
        return all[random.nextInt(all.length)];
    }
}
