// arena's AlienWar host: runs one alien class for arena's line protocol (games/alienwar.md).
// Usage: java -cp <classes> planet.AlienWarHost alien.Name
// (planet.SharedHost runs several species in one JVM, through one of these.) The protocol
// code calls the alien's instances, held by a Species, through the Instance interface.
//
// Each request is a header line (CREATE, MOVE, FIGHT or END) and one line per instance; the
// reply is one line of one word per instance (replies are written together once every request
// read so far is answered, or once one has waited 5 ms: see Wire). An exception (or error) in
// the alien's code, or a null move, is answered with "!", which the engine replaces by the
// original's default (instance dropped, STAY, fight) and counts.
package planet;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

public final class AlienWarHost {
    /** The word that asks the engine for the default answer. */
    private static final String FAILED = "!";
    /** The moves' names by ordinal, as every species' own planet.Move names them. */
    private static final byte[][] MOVE_NAMES = moveNames();
    /** Where {@link #state} holds the view's radius. */
    private static final int RADIUS = 6;

    private final Wire wire;
    /** What an instance's getters report, read from its request line. */
    private final int[] state = new int[8];

    AlienWarHost(Wire wire) {
        this.wire = wire;
    }

    public static void main(String[] args) throws IOException, ReflectiveOperationException {
        if (args.length != 1) {
            System.err.println("usage: java planet.AlienWarHost alien.ClassName");
            System.exit(2);
        }
        Wire wire = Wire.standard();
        AlienWarHost host = new AlienWarHost(wire);
        Species species = new Species(args[0], AlienWarHost.class.getClassLoader(),
                System.getenv("ARENA_SEAT"));
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
        char[][] view = wire.view(state[RADIUS]);
        wire.endLine();
        int move = species.move(id, state, view);
        if (move < 0) {
            wire.word(FAILED);
        } else {
            wire.word(MOVE_NAMES[move]);
        }
    }

    private static byte[][] moveNames() {
        Move[] moves = Move.values();
        byte[][] names = new byte[moves.length][];
        for (Move move : moves) {
            names[move.ordinal()] = move.name().getBytes(StandardCharsets.US_ASCII);
        }
        return names;
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
     * What the protocol code calls on an instance; planet.Specie implements it. In
     * planet.SharedHost each species' class loader has its own original API (planet.Specie,
     * planet.Move, alien.Alien), for their static fields, and takes this interface from the
     * host's, so that one Species class serves them all, as the original controller called
     * every alien from one place.
     */
    public interface Instance {
        void setAbilityPoints(float[] abilities);

        /** The alien's move: its own planet.Move, whose ordinals are every Move's. */
        Enum<?> move(char[][] fields);

        boolean wantToFight(int[] enemyAbilities);

        /** Sets what the getters report (see Specie). */
        void arenaReport(int[] state);
    }

    /**
     * The instances of one alien class, all in this one object, so that static fields are
     * shared by them as in the original controller.
     */
    static final class Species {
        /** How many failures of each call into a species are reported on stderr. */
        private static final int REPORTED = 3;
        /** How many frames of a failure's stack trace are reported. */
        private static final int FRAMES = 8;
        private final String className;
        private final ClassLoader loader;
        /** The alien's class, once an instance was made. */
        private Class<?> alien;
        private final List<Instance> instances = new ArrayList<>();
        /** What of the alien's code can fail, as failures are reported and counted. */
        private static final String[] CALLS = {"creation", "move", "wantToFight"};
        /** Failures so far of each of {@link #CALLS}, counted up to {@link #REPORTED}. */
        private final int[] failures = new int[CALLS.length];

        /**
         * The instances of {@code className}, loaded by {@code loader}. {@code seat} (a
         * number, or null) and ARENA_SEED seed the loader's Move.random, for reproducible
         * games.
         */
        Species(String className, ClassLoader loader, String seat)
                throws ReflectiveOperationException {
            this.className = className;
            this.loader = loader;
            String seed = System.getenv("ARENA_SEED");
            if (seed != null && seat != null) {
                Random random = (Random) Class.forName(Move.class.getName(), true, loader)
                        .getField("random")
                        .get(null);
                random.setSeed(Long.parseUnsignedLong(seed) * 31 + Long.parseLong(seat));
            }
        }

        /** A new instance; false if it failed. Its points go into {@code points}. */
        boolean create(float[] points) {
            try {
                if (alien == null) {
                    alien = Class.forName(className, true, loader);
                }
                Instance instance = (Instance) alien.getDeclaredConstructor().newInstance();
                instance.setAbilityPoints(points);
                instances.add(instance);
                return true;
            } catch (Throwable failure) {
                report(0, instances.size(), failure);
                instances.add(null);
                return false;
            }
        }

        /**
         * The move of instance {@code id}, its getters set from {@code state}, given its view
         * indexed [x][y]: the move's ordinal, or -1 if the alien failed (or there is no such
         * instance).
         */
        int move(int id, int[] state, char[][] view) {
            Instance instance = instance(id, state);
            if (instance == null) {
                return -1;
            }
            try {
                Enum<?> move = instance.move(view);
                if (move == null) {
                    report(1, id, "returned null");
                    return -1;
                }
                return move.ordinal();
            } catch (Throwable failure) {
                report(1, id, failure);
                return -1;
            }
        }

        /** Whether instance {@code id} fights: 1 yes, 0 no, -1 failed (or no such instance). */
        int fight(int id, int[] state, int[] enemy) {
            Instance instance = instance(id, state);
            if (instance == null) {
                return -1;
            }
            try {
                return instance.wantToFight(enemy) ? 1 : 0;
            } catch (Throwable failure) {
                report(2, id, failure);
                return -1;
            }
        }

        /**
         * Says on stderr why the alien's code failed, where a tournament keeps it and
         * {@code arena check} shows it: the exception and the top of its stack, which is the
         * alien's own code. Only the first {@link #REPORTED} failures of each of {@link #CALLS},
         * so that an alien failing in every call does not flood it.
         */
        private void report(int call, int id, Throwable failure) {
            if (!reportable(call)) {
                return;
            }
            // A constructor's exception comes wrapped by the reflection that called it.
            Throwable cause = failure instanceof InvocationTargetException
                    && failure.getCause() != null ? failure.getCause() : failure;
            StringBuilder why = new StringBuilder(cause.toString());
            StackTraceElement[] frames = cause.getStackTrace();
            for (int k = 0; k < frames.length && k < FRAMES && !isCaller(frames[k]); k++) {
                why.append("\n    at ").append(frames[k]);
            }
            print(call, id, why.toString());
        }

        /** Whether {@code frame} is the host's call of the alien, not the alien's code. */
        private static boolean isCaller(StackTraceElement frame) {
            String name = frame.getClassName();
            return name.startsWith("planet.AlienWarHost") || name.equals("planet.Specie")
                    || name.startsWith("jdk.internal.reflect.")
                    || name.startsWith("java.lang.reflect.");
        }

        private void report(int call, int id, String why) {
            if (reportable(call)) {
                print(call, id, why);
            }
        }

        /**
         * Counts a failure of {@code call} while it is one of the first {@link #REPORTED}, and
         * says whether it is: the text of a failure is made only for those (an alien can fail
         * in every call, and a stack's text costs more than the call).
         */
        private boolean reportable(int call) {
            if (failures[call] == REPORTED) {
                return false;
            }
            failures[call]++;
            return true;
        }

        /**
         * One report: a line "class, instance id, call: exception" and the stack's lines under
         * it, each starting "    at ", as arena's driver reads it (src/driver/shared_host.rs).
         */
        private void print(int call, int id, String why) {
            String what = CALLS[call];
            System.err.println(className + ", instance " + id + ", " + what + ": " + why);
            if (failures[call] == REPORTED) {
                System.err.println(className + ": later failures in " + what + " not reported");
            }
        }

        /** Instance {@code id}, its getters set from {@code state}; null if there is none. */
        private Instance instance(int id, int[] state) {
            Instance instance = id < instances.size() ? instances.get(id) : null;
            if (instance != null) {
                instance.arenaReport(state);
            }
            return instance;
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

        /**
         * Requests on stdin, replies on the real stdout; what the aliens print goes to stderr.
         * Stdin is read unbuffered, one {@code read} a call: {@code System.in}'s buffer asks
         * the kernel after every short read whether more is there ({@code fstat} and
         * {@code ioctl}), two system calls an exchange for nothing.
         */
        static Wire standard() {
            OutputStream out = new FileOutputStream(FileDescriptor.out);
            System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
            Wire wire = new Wire(new FileInputStream(FileDescriptor.in), out);
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
            int value = b - '0';
            while (true) {
                // The digits in the buffer, without a call per byte.
                int at = next;
                while (at < end && (b = input[at] & 0xff) >= '0' && b <= '9') {
                    value = value * 10 + (b - '0');
                    at++;
                }
                if (at < end) {
                    next = at + 1;
                    break;
                }
                next = at;
                b = read();
                if (b < '0' || b > '9') {
                    break;
                }
                value = value * 10 + (b - '0');
            }
            separator = b;
            return negative ? -value : value;
        }

        /**
         * A view of {@code 2 * radius + 1} rows of as many cells, joined by '/', north first,
         * a blank written '.'. Returned indexed [x][y], a blank as ' '.
         */
        char[][] view(int radius) throws IOException {
            // The text of a larger view would not fit in an array.
            if (radius < 0 || radius > 20_000) {
                throw new IllegalArgumentException("no view has radius " + radius);
            }
            int rows = 2 * radius + 1;
            int length = rows * (rows + 1) - 1;
            if (fill(length) < length) {
                throw new StringIndexOutOfBoundsException("the input ends in a view");
            }
            int from = next;
            for (int y = 1; y < rows; y++) {
                if (input[from + y * (rows + 1) - 1] != '/') {
                    String row = "view row " + (y - 1);
                    throw new StringIndexOutOfBoundsException(row + " is not " + rows + " cells");
                }
            }
            // Row by row: a two-dimensional `new` is a slow call into the JVM's runtime.
            char[][] cells = new char[rows][];
            for (int x = 0; x < rows; x++) {
                char[] column = new char[rows];
                for (int y = 0, at = from + x; y < rows; y++, at += rows + 1) {
                    char cell = (char) (input[at] & 0xff);
                    column[y] = cell == '.' ? ' ' : cell;
                }
                cells[x] = column;
            }
            next = from + length;
            separator = read();
            if (separator >= 0 && separator != ' ' && separator != '\n') {
                throw new StringIndexOutOfBoundsException("a view row is longer than " + rows);
            }
            return cells;
        }

        /**
         * Reads until {@code count} bytes from {@code next} are in the buffer or the input
         * ends, and returns how many are: the bytes already read make room, and the buffer
         * grows if it must.
         */
        private int fill(int count) throws IOException {
            while (end - next < count) {
                if (next > 0) {
                    System.arraycopy(input, next, input, 0, end - next);
                    end -= next;
                    next = 0;
                }
                if (count > input.length) {
                    input = Arrays.copyOf(input, Math.max(count, 2 * input.length));
                }
                int read = receive(end);
                if (read <= 0) {
                    break;
                }
                end += read;
            }
            return end - next;
        }

        /** Skips the rest of the line, unless the last number or view ended it. */
        void endLine() throws IOException {
            int b = separator;
            while (b >= 0 && b != '\n') {
                b = read();
            }
        }

        /** Appends {@code word} to the reply. */
        void word(byte[] word) {
            reserve(word.length);
            System.arraycopy(word, 0, reply, replied, word.length);
            replied += word.length;
        }

        /** Appends {@code word} (ASCII) to the reply. */
        void word(CharSequence word) {
            int length = word.length();
            reserve(length);
            for (int k = 0; k < length; k++) {
                reply[replied++] = (byte) word.charAt(k);
            }
        }

        /** Appends one byte to the reply. */
        void put(char c) {
            reserve(1);
            reply[replied++] = (byte) c;
        }

        /** Room in the reply for {@code length} more bytes and the line's end. */
        private void reserve(int length) {
            if (replied + length + 1 > reply.length) {
                reply = Arrays.copyOf(reply, 2 * (replied + length + 1));
            }
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
