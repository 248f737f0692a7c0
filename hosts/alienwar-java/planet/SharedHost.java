// arena's shared AlienWar host: several species in one JVM, as in the original controller,
// so that a game pays for one JVM start and one JIT warm-up instead of one per species.
// Usage: java -cp <classes> planet.SharedHost SEAT CLASSES CLASS [SEAT CLASSES CLASS ...]
//
// Each species is loaded by a class loader of its own from its own classes folder, so the
// original API (planet.Specie, planet.Move, alien.Alien) and the alien's classes are its own:
// its own static fields and its own Move.random, exactly as if it ran alone in a
// planet.AlienWarHost. The protocol code is loaded once, from the first folder on the class
// path (so it is JIT-compiled once, not once per species), and calls each species' instances
// through AlienWarHost.Instance, the one class the species' loaders take from the host's.
// A request is the line "SEAT n" followed by a
// request of the single-species protocol for the species at seat n; the reply is that
// request's reply line. Replies are written together when every request read so far is
// answered (one write for an exchange, not one per species), and any reply that has waited
// 5 ms is written at once, so that a slow or hanging alien never holds back the replies
// before it (arena times each reply on its own). "END" (or the end of input) ends the
// process.
package planet;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import planet.AlienWarHost.Instance;
import planet.AlienWarHost.Species;
import planet.AlienWarHost.Wire;

public final class SharedHost {
    private SharedHost() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args.length % 3 != 0) {
            System.err.println(
                    "usage: java planet.SharedHost SEAT CLASSES alien.ClassName [...]");
            System.exit(2);
        }
        Wire wire = Wire.standard();
        Map<String, Species> species = new HashMap<>();
        for (int k = 0; k < args.length; k += 3) {
            species.put(args[k], load(args[k], args[k + 1], args[k + 2]));
        }
        AlienWarHost host = new AlienWarHost(wire);
        String line;
        while ((line = wire.line()) != null && line.startsWith("SEAT ")) {
            Species seat = species.get(line.substring(5));
            String header = wire.line();
            if (seat == null || header == null) {
                System.err.println("SharedHost: no species at " + line);
                break;
            }
            host.answer(seat, header);
        }
        wire.flush();
        System.exit(0);
    }

    /** The species {@code className}, loaded from {@code classes} alone. */
    private static Species load(String seat, String classes, String className)
            throws Exception {
        URL folder = Paths.get(classes).toUri().toURL();
        return new Species(className, new SpeciesLoader(folder), seat);
    }

    /** A species' classes from its folder, and AlienWarHost.Instance from the host's. */
    private static final class SpeciesLoader extends URLClassLoader {
        SpeciesLoader(URL folder) {
            super(new URL[] {folder}, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve)
                throws ClassNotFoundException {
            if (name.equals(Instance.class.getName())) {
                return Instance.class;
            }
            return super.loadClass(name, resolve);
        }
    }
}
