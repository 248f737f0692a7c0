// arena's AlienWar host: runs one alien class for arena's line protocol (games/alienwar.md),
// all of the species' instances in this one object, so that static fields are shared by
// them as in the original controller. Usage: java -cp <classes> planet.AlienWarHost alien.Name
// (planet.SharedHost runs several species in one JVM, one of these objects each.)
//
// Each request is a header line (CREATE, MOVE, FIGHT or END) and one line per instance; the
// reply is one line of one word per instance. An exception (or error) in the alien's code, or
// a null move, is answered with "!", which the engine replaces by the original's default
// (instance dropped, STAY, fight) and counts.
package planet;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

public final class AlienWarHost implements BiFunction<String, BufferedReader, String> {
    /** The word that asks the engine for the default answer. */
    private static final String FAILED = "!";

    private final String className;
    private final List<Specie> instances = new ArrayList<>();

    /**
     * The host of one species. {@code seat} (a number, or null) and ARENA_SEED seed
     * Move.random, for reproducible games.
     */
    public AlienWarHost(String className, String seat) {
        this.className = className;
        String seed = System.getenv("ARENA_SEED");
        if (seed != null && seat != null) {
            Move.random.setSeed(Long.parseUnsignedLong(seed) * 31 + Long.parseLong(seat));
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java planet.AlienWarHost alien.ClassName");
            System.exit(2);
        }
        Writer out = takeStdout();
        BufferedReader in = stdin();
        AlienWarHost host = new AlienWarHost(args[0], System.getenv("ARENA_SEAT"));
        String header;
        while ((header = in.readLine()) != null && !header.trim().equals("END")) {
            out.write(host.apply(header, in));
            out.write('\n');
            out.flush();
        }
        out.flush();
        System.exit(0);
    }

    /** The real stdout, for replies; whatever the aliens print goes to stderr. */
    static Writer takeStdout() {
        Writer out = new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.out), StandardCharsets.US_ASCII);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        return out;
    }

    /** Requests, buffered: a MOVE batch is one line per instance. */
    static BufferedReader stdin() {
        return new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
    }

    /** Answers the request starting with {@code header}, reading its lines from {@code in}. */
    @Override
    public String apply(String header, BufferedReader in) {
        String[] words = header.trim().split(" +");
        int count = words.length > 1 ? Integer.parseInt(words[1]) : 0;
        StringBuilder reply = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                reply.append(' ');
            }
            switch (words[0]) {
                case "CREATE":
                    reply.append(create());
                    break;
                case "MOVE":
                    reply.append(move(line(in)));
                    break;
                case "FIGHT":
                    reply.append(fight(line(in)));
                    break;
                default:
                    reply.append(FAILED);
            }
        }
        return reply.toString();
    }

    private static String line(BufferedReader in) {
        try {
            return in.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new instance and its points "life,strength,defense,vision,cleverness". */
    private String create() {
        try {
            Specie alien = (Specie) Class.forName(className).getDeclaredConstructor().newInstance();
            float[] points = new float[5];
            alien.setAbilityPoints(points);
            instances.add(alien);
            StringBuilder word = new StringBuilder();
            for (int k = 0; k < 5; k++) {
                word.append(k == 0 ? "" : ",").append(points[k]);
            }
            return word.toString();
        } catch (Throwable failure) {
            instances.add(null);
            return FAILED;
        }
    }

    /** "id hp life strength defense vision cleverness radius blur rows" -> a move name. */
    private String move(String line) {
        String[] fields = line.split(" ");
        Specie alien = instance(fields);
        if (alien == null) {
            return FAILED;
        }
        String[] rows = fields[9].split("/");
        int side = rows.length;
        char[][] view = new char[side][side];
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x++) {
                char cell = rows[y].charAt(x);
                view[x][y] = cell == '.' ? ' ' : cell;
            }
        }
        try {
            Move move = alien.move(view);
            return move == null ? FAILED : move.name();
        } catch (Throwable failure) {
            return FAILED;
        }
    }

    /** "id hp life strength defense vision cleverness radius blur e1 e2 e3 e4" -> Y or N. */
    private String fight(String line) {
        String[] fields = line.split(" ");
        Specie alien = instance(fields);
        if (alien == null) {
            return FAILED;
        }
        int[] enemy = new int[4];
        for (int k = 0; k < 4; k++) {
            enemy[k] = Integer.parseInt(fields[9 + k]);
        }
        try {
            return alien.wantToFight(enemy) ? "Y" : "N";
        } catch (Throwable failure) {
            return FAILED;
        }
    }

    /** The instance a request line is about, its getters set from the line. */
    private Specie instance(String[] fields) {
        int id = Integer.parseInt(fields[0]);
        Specie alien = id < instances.size() ? instances.get(id) : null;
        if (alien != null) {
            int[] state = new int[8];
            for (int k = 0; k < 8; k++) {
                state[k] = Integer.parseInt(fields[1 + k]);
            }
            alien.report(state);
        }
        return alien;
    }
}
