// arena's AlienWar host: the base class of every species, with the original's public
// getters (final, as in the contest). The engine owns the real state; the host copies what
// the getters report into each instance before every call (games/alienwar.md).
package planet;

public abstract class Specie implements AlienWarHost.Instance {
    // What a fresh instance reports while it chooses its points: every level 1, 10 HP.
    private int hp = 10;
    private int life = 1;
    private int strength = 1;
    private int defense = 1;
    private int vision = 1;
    private int cleverness = 1;
    private int visionFields = 1;
    private int blur = 2;

    /** Writes up to 10 points into life, strength, defense, vision, cleverness. */
    public abstract void setAbilityPoints(float[] abilities);

    /** One step, given the view indexed [x][y] with this instance at the centre. */
    public abstract Move move(char[][] fields);

    /** Whether to fight the other party, given its blurred life, strength, defense, vision. */
    public abstract boolean wantToFight(int[] enemyAbilities);

    /** The character others see on this instance's cell. */
    public abstract char getRepresentedChar();

    public final int getLifeLvl() {
        return life;
    }

    public final int getStrengthLvl() {
        return strength;
    }

    public final int getDefenseLvl() {
        return defense;
    }

    public final int getVisionLvl() {
        return vision;
    }

    public final int getClevernessLvl() {
        return cleverness;
    }

    /** The view radius r: the view is (2r+1) x (2r+1). */
    public final int getVisionFieldsCount() {
        return visionFields;
    }

    /** Others see each of this instance's levels plus a draw in [0, blur). */
    public final int getClevernessBlur() {
        return blur;
    }

    public final int getCurrentHp() {
        return hp;
    }

    /**
     * Sets what the getters report. The host calls this; public only because the host calls
     * it through an interface (in planet.SharedHost from another class loader): an alien that
     * calls it misleads no one but itself.
     */
    @Override
    public final void arenaReport(int[] state) {
        hp = state[0];
        life = state[1];
        strength = state[2];
        defense = state[3];
        vision = state[4];
        cleverness = state[5];
        visionFields = state[6];
        blur = state[7];
    }
}
