// arena's AlienWar host: the base class of submitted aliens. Every alien looks the same to
// others: 'A'.
package alien;

import planet.Specie;

public abstract class Alien extends Specie {
    public final char getRepresentedChar() {
        return 'A';
    }
}
