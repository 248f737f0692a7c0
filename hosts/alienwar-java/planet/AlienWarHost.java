// arena's AlienWar host: runs one alien class for arena's line protocol (games/alienwar.md),
// all of the species' instances in this one process, so that static fields are shared by
// them as in the original controller. Usage: java -cp <classes> planet.AlienWarHost alien.Name
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
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public final class AlienWarHost {
    /** The word that asks the engine for the default answer. */
    private static final String FAILED = "!";

    private final String className;
    private final List<Specie> instances = new ArrayList<>();

    private AlienWarHost(String className) {
        this.className = className;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java planet.AlienWarHost alien.ClassName");
            System.exit(2);
        }
        // Replies go to the real stdout; whatever the alien prints goes to stderr.
        Writer out = new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.out), StandardCharsets.US_ASCII);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        seedSharedRandom();
        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        AlienWarHost host = new AlienWarHost(args[0]);
        StringBuilder reply = new StringBuilder();
        String header;
        while ((header = in.readLine()) != null) {
            String[] words = header.trim().split(" +");
            if (words[0].equals("END")) {
                break;
            }
            int count = words.length > 1 ? Integer.parseInt(words[1]) : 0;
            reply.setLength(0);
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    reply.append(' ');
                }
                switch (words[0]) {
                    case "CREATE":
                        reply.append(host.create());
                        break;
                    case "MOVE":
                        reply.append(host.move(in.readLine()));
                        break;
                    case "FIGHT":
                        reply.append(host.fight(in.readLine()));
                        break;
                    default:
                        reply.append(FAILED);
                }
            }
            reply.append('\n');
            out.write(reply.toString());
            out.flush();
        }
        out.flush();
        System.exit(0);
    }

    /** Seeds Move.random from the game's seed and this species' seat, for reproducible games. */
    private static void seedSharedRandom() {
        String seed = System.getenv("ARENA_SEED");
        String seat = System.getenv("ARENA_SEAT");
        if (seed != null && seat != null) {
            Move.random.setSeed(Long.parseUnsignedLong(seed) * 31 + Long.parseLong(seat));
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
