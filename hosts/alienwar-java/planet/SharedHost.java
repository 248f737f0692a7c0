// arena's shared AlienWar host: several species in one JVM, as in the original controller,
// so that a game pays for one JVM start and one JIT warm-up instead of one per species.
// Usage: java -cp <classes> planet.SharedHost SEAT CLASSES CLASS [SEAT CLASSES CLASS ...]
//
// Each species is loaded by a class loader of its own from its own classes folder (the host
// classes included), so it has its own static fields and its own Move.random, exactly as if
// it ran alone in a planet.AlienWarHost. A request is the line "SEAT n" followed by a request
// of the single-species protocol for the species at seat n; the reply is that request's
// reply line, sent at once (arena times each reply on its own). "END" (or the end of input)
// ends the process.
package planet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;

public final class SharedHost {
    private SharedHost() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args.length % 3 != 0) {
            System.err.println(
                    "usage: java planet.SharedHost SEAT CLASSES alien.ClassName [...]");
            System.exit(2);
        }
        Writer out = AlienWarHost.takeStdout();
        Map<String, BiFunction<String, BufferedReader, String>> species = new HashMap<>();
        for (int k = 0; k < args.length; k += 3) {
            species.put(args[k], load(args[k], args[k + 1], args[k + 2]));
        }
        BufferedReader in = AlienWarHost.stdin();
        String line;
        while ((line = in.readLine()) != null && line.startsWith("SEAT ")) {
            BiFunction<String, BufferedReader, String> host = species.get(line.substring(5));
            String header = in.readLine();
            if (host == null || header == null) {
                System.err.println("SharedHost: no species at " + line);
                break;
            }
            out.write(host.apply(header, in));
            out.write('\n');
            out.flush();
        }
        out.flush();
        System.exit(0);
    }

    /** A planet.AlienWarHost for {@code className}, loaded from {@code classes} alone. */
    @SuppressWarnings("unchecked")
    private static BiFunction<String, BufferedReader, String> load(
            String seat, String classes, String className) throws Exception {
        URL folder = Paths.get(classes).toUri().toURL();
        ClassLoader loader =
                new URLClassLoader(new URL[] {folder}, ClassLoader.getPlatformClassLoader());
        return (BiFunction<String, BufferedReader, String>) loader
                .loadClass("planet.AlienWarHost")
                .getConstructor(String.class, String.class)
                .newInstance(className, seat);
    }
}
