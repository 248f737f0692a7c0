// arena's AlienWar host: runs one alien class for arena's line protocol (games/alienwar.md).
// Usage: java -cp <classes> planet.AlienWarHost alien.Name
// (planet.SharedHost runs several species in one JVM, through one of these.) The protocol
// code calls the alien through Species, implemented by a Colony of its instances.
//
// Each request is a header line (CREATE, MOVE, FIGHT or END) and one line per instance; the
// reply is one line of one word per instance (replies are written together once every request
// read so far is answered, or once one has waited 5 ms: see Wire). An exception (or error) in
// the alien's code, or a null move, is answered with "!", which the engine replaces by the
// original's default (instance dropped, STAY, fight) and counts.
package planet;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public final class AlienWarHost {
    /** The word that asks the engine for the default answer. */
    private static final String FAILED = "!";

    private final Wire wire;
    /** What an instance's getters report, read from its request line. */
    private final int[] state = new int[8];

    AlienWarHost(Wire wire) {
        this.wire = wire;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java planet.AlienWarHost alien.ClassName");
            System.exit(2);
        }
        Wire wire = Wire.standard();
        AlienWarHost host = new AlienWarHost(wire);
        Species species = new Colony(args[0], System.getenv("ARENA_SEAT"));
        String header;
        while ((header = wire.line()) != null && !header.trim().equals("END")) {
            host.answer(species, header);
        }
        wire.flush();
        System.exit(0);
    }

    /** Answers the request of {@code header} to {@code species}, reading its lines. */
    void answer(Species species, String header) throws IOException {
        String trimmed = header.trim();
        int space = trimmed.indexOf(' ');
        String word = space < 0 ? trimmed : trimmed.substring(0, space);
        int count = space < 0 ? 0 : count(trimmed.substring(space));
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                wire.put(' ');
            }
            switch (word) {
                case "CREATE":
                    create(species);
                    break;
                case "MOVE":
                    move(species);
                    break;
                case "FIGHT":
                    fight(species);
                    break;
                default:
                    wire.word(FAILED);
            }
        }
        wire.send();
    }

    /** The header's second word, after the spaces that start {@code rest}. */
    private static int count(String rest) {
        int start = 0;
        while (rest.charAt(start) == ' ') {
            start++;
        }
        int end = rest.indexOf(' ', start);
        return Integer.parseInt(rest.substring(start, end < 0 ? rest.length() : end));
    }

    /** A new instance's points "life,strength,defense,vision,cleverness". */
    private void create(Species species) {
        float[] points = new float[5];
        if (!species.create(points)) {
            wire.word(FAILED);
            return;
        }
        StringBuilder word = new StringBuilder();
        for (int k = 0; k < 5; k++) {
            word.append(k == 0 ? "" : ",").append(points[k]);
        }
        wire.word(word);
    }

    /** "id hp life strength defense vision cleverness radius blur rows" -> a move name. */
    private void move(Species species) throws IOException {
        int id = self();
        char[][] view = wire.view();
        wire.endLine();
        String move = species.move(id, state, view);
        wire.word(move == null ? FAILED : move);
    }

    /** "id hp life strength defense vision cleverness radius blur e1 e2 e3 e4" -> Y or N. */
    private void fight(Species species) throws IOException {
        int id = self();
        int[] enemy = new int[4];
        for (int k = 0; k < 4; k++) {
            enemy[k] = wire.number();
        }
        wire.endLine();
        int fights = species.fight(id, state, enemy);
        wire.word(fights < 0 ? FAILED : fights > 0 ? "Y" : "N");
    }

    /** Reads the instance's id (returned) and its state. */
    private int self() throws IOException {
        int id = wire.number();
        for (int k = 0; k < 8; k++) {
            state[k] = wire.number();
        }
        return id;
    }

    /**
     * One species' instances as the protocol code calls them. In planet.SharedHost the
     * protocol code is loaded once per JVM and this interface with it; each species' own
     * class loader has its own Colony and original API (planet.Specie, planet.Move,
     * alien.Alien), for their static fields.
     */
    public interface Species {
        /** A new instance; false if it failed. Its points go into {@code points}. */
        boolean create(float[] points);

        /**
         * The move of instance {@code id}, its getters set from {@code state}, given its view
         * indexed [x][y]: the move's name, or null if the alien failed (or there is no such
         * instance).
         */
        String move(int id, int[] state, char[][] view);

        /** Whether instance {@code id} fights: 1 yes, 0 no, -1 failed (or no such instance). */
        int fight(int id, int[] state, int[] enemy);
    }

    /**
     * The instances of one alien class, all in this one object, so that static fields are
     * shared by them as in the original controller.
     */
    public static final class Colony implements Species {
        private final String className;
        private final List<Specie> instances = new ArrayList<>();

        /**
         * The colony of {@code className}. {@code seat} (a number, or null) and ARENA_SEED seed
         * this loader's Move.random, for reproducible games.
         */
        public Colony(String className, String seat) {
            this.className = className;
            String seed = System.getenv("ARENA_SEED");
            if (seed != null && seat != null) {
                Move.random.setSeed(Long.parseUnsignedLong(seed) * 31 + Long.parseLong(seat));
            }
        }

        @Override
        public boolean create(float[] points) {
            try {
                Specie alien =
                        (Specie) Class.forName(className).getDeclaredConstructor().newInstance();
                alien.setAbilityPoints(points);
                instances.add(alien);
                return true;
            } catch (Throwable failure) {
                instances.add(null);
                return false;
            }
        }

        @Override
        public String move(int id, int[] state, char[][] view) {
            Specie alien = instance(id, state);
            if (alien == null) {
                return null;
            }
            try {
                Move move = alien.move(view);
                return move == null ? null : move.name();
            } catch (Throwable failure) {
                return null;
            }
        }

        @Override
        public int fight(int id, int[] state, int[] enemy) {
            Specie alien = instance(id, state);
            if (alien == null) {
                return -1;
            }
            try {
                return alien.wantToFight(enemy) ? 1 : 0;
            } catch (Throwable failure) {
                return -1;
            }
        }

        /** Instance {@code id}, its getters set from {@code state}; null if there is none. */
        private Specie instance(int id, int[] state) {
            Specie alien = id < instances.size() ? instances.get(id) : null;
            if (alien != null) {
                alien.report(state);
            }
            return alien;
        }
    }

    /**
     * The bytes of the protocol. Requests are ASCII, so they are read as bytes and their
     * numbers and views parsed in place: no charset decoding, no line strings or split arrays
     * per instance. Finished replies wait in one buffer until the host has answered all it
     * has read (one write and one wake-up of arena per exchange, not per species), or until
     * the watch thread finds one that waited WATCH_MILLIS.
     */
    static final class Wire {
        /** How long a finished reply may wait for the ones after it. */
        private static final long WATCH_MILLIS = 5;
        private final InputStream in;
        private final OutputStream out;
        private byte[] input = new byte[1 << 16];
        private int next;
        private int end;
        /** The byte that ended the last number or view read, or -1 at the end of input. */
        private int separator;
        /** The reply being written. */
        private byte[] reply = new byte[1 << 12];
        private int replied;
        /** Complete replies not written yet, since when; shared with the watch thread. */
        private byte[] pending = new byte[1 << 12];
        private int pendingLength;
        private long pendingSince;

        private Wire(InputStream in, OutputStream out) {
            this.in = in;
            this.out = out;
        }

        /** Requests on stdin, replies on the real stdout; what the aliens print goes to stderr. */
        static Wire standard() {
            OutputStream out = new FileOutputStream(FileDescriptor.out);
            System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
            Wire wire = new Wire(System.in, out);
            Thread watch = new Thread(wire::watch, "arena-reply-watch");
            watch.setDaemon(true);
            watch.start();
            // An alien that calls System.exit still has the replies before it sent.
            Runtime.getRuntime().addShutdownHook(new Thread(wire::flushQuietly));
            return wire;
        }

        /** The next line without its end, or null at the end of input. */
        String line() throws IOException {
            StringBuilder line = new StringBuilder();
            int b = read();
            if (b < 0) {
                return null;
            }
            while (b >= 0 && b != '\n') {
                line.append((char) b);
                b = read();
            }
            return line.toString();
        }

        /** A decimal integer, and the one byte after it. */
        int number() throws IOException {
            int b = read();
            boolean negative = b == '-';
            if (negative) {
                b = read();
            }
            if (b < '0' || b > '9') {
                throw new NumberFormatException("a number expected, got byte " + b);
            }
            int value = 0;
            while (b >= '0' && b <= '9') {
                value = value * 10 + (b - '0');
                b = read();
            }
            separator = b;
            return negative ? -value : value;
        }

        /**
         * A view: rows joined by '/', north first, of as many cells as there are rows, a blank
         * written '.'. Returned indexed [x][y], a blank as ' '.
         */
        char[][] view() throws IOException {
            int to = wordEnd();
            int from = next;
            int rows = 1;
            for (int k = from; k < to; k++) {
                rows += input[k] == '/' ? 1 : 0;
            }
            // Row by row: a two-dimensional `new` is a slow call into the JVM's runtime.
            char[][] cells = new char[rows][];
            for (int x = 0; x < rows; x++) {
                char[] column = new char[rows];
                for (int y = 0; y < rows; y++) {
                    int at = from + y * (rows + 1) + x;
                    if (at >= to || input[at] == '/') {
                        throw new StringIndexOutOfBoundsException("row " + y + " is short");
                    }
                    char cell = (char) (input[at] & 0xff);
                    column[y] = cell == '.' ? ' ' : cell;
                }
                cells[x] = column;
            }
            next = to;
            separator = read();
            return cells;
        }

        /**
         * Where the word at {@code next} ends (at a space, a line end or the end of input),
         * with all of it in the buffer: the bytes already read make room for the rest, and
         * the buffer grows if the word needs it.
         */
        private int wordEnd() throws IOException {
            int scan = next;
            while (true) {
                for (; scan < end; scan++) {
                    if (input[scan] == ' ' || input[scan] == '\n') {
                        return scan;
                    }
                }
                if (next > 0) {
                    System.arraycopy(input, next, input, 0, end - next);
                    scan -= next;
                    end -= next;
                    next = 0;
                }
                if (end == input.length) {
                    input = Arrays.copyOf(input, 2 * end);
                }
                int read = receive(end);
                if (read <= 0) {
                    return scan;
                }
                end += read;
            }
        }

        /** Skips the rest of the line, unless the last number or view ended it. */
        void endLine() throws IOException {
            int b = separator;
            while (b >= 0 && b != '\n') {
                b = read();
            }
        }

        /** Appends {@code word} (ASCII) to the reply. */
        void word(CharSequence word) {
            int length = word.length();
            if (replied + length + 1 > reply.length) {
                reply = Arrays.copyOf(reply, 2 * (replied + length + 1));
            }
            for (int k = 0; k < length; k++) {
                reply[replied++] = (byte) word.charAt(k);
            }
        }

        /** Appends one byte to the reply. */
        void put(char c) {
            if (replied == reply.length) {
                reply = Arrays.copyOf(reply, 2 * replied);
            }
            reply[replied++] = (byte) c;
        }

        /** Ends the reply line; it is written with the others before the next read waits. */
        void send() {
            put('\n');
            synchronized (this) {
                if (pendingLength + replied > pending.length) {
                    pending = Arrays.copyOf(pending, 2 * (pendingLength + replied));
                }
                if (pendingLength == 0) {
                    pendingSince = System.nanoTime();
                }
                System.arraycopy(reply, 0, pending, pendingLength, replied);
                pendingLength += replied;
            }
            replied = 0;
        }

        /** Writes the replies not written yet. */
        synchronized void flush() throws IOException {
            if (pendingLength > 0) {
                out.write(pending, 0, pendingLength);
                out.flush();
                pendingLength = 0;
            }
        }

        private void flushQuietly() {
            try {
                flush();
            } catch (IOException e) {
                // Nobody is reading any more.
            }
        }

        /**
         * Writes every reply that has waited for {@link #WATCH_MILLIS}, and then some: so a
         * reply never waits behind an alien that takes long, as a hanging one would.
         */
        private void watch() {
            while (true) {
                try {
                    Thread.sleep(WATCH_MILLIS);
                    synchronized (this) {
                        long waited = System.nanoTime() - pendingSince;
                        if (pendingLength > 0 && waited >= WATCH_MILLIS * 1_000_000) {
                            flush();
                        }
                    }
                } catch (InterruptedException | IOException e) {
                    return;
                }
            }
        }

        /** Reads into {@code input} from {@code from}, after writing the replies so far. */
        private int receive(int from) throws IOException {
            flush();
            return in.read(input, from, input.length - from);
        }

        private int read() throws IOException {
            if (next == end) {
                end = receive(0);
                next = 0;
                if (end <= 0) {
                    end = 0;
                    return -1;
                }
            }
            return input[next++] & 0xff;
        }
    }
}
