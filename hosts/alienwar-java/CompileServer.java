// arena's Java compiler: javac in one JVM for all of a run's builds, so that each build
// costs a compilation and not a JVM start and a cold compiler. Run in source-file mode
// (java CompileServer.java). Each request is one line, javac's arguments separated by NUL
// bytes; the reply is the line "<javac's exit status> <length>" and then javac's messages,
// that many bytes. It ends at the end of its input, or when idle for IDLE_MILLIS.
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

final class CompileServer {
    /** How long to wait for another build before ending: a run asks for all of its at once. */
    private static final long IDLE_MILLIS = 3000;

    private static volatile long lastRequest = System.currentTimeMillis();
    private static volatile boolean busy;

    public static void main(String[] args) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8));
        OutputStream out = System.out;
        startIdleWatch();
        String line;
        while ((line = in.readLine()) != null) {
            busy = true;
            ByteArrayOutputStream messages = new ByteArrayOutputStream();
            int status = javac.run(null, messages, messages, line.split("\0"));
            byte[] text = messages.toByteArray();
            out.write((status + " " + text.length + "\n").getBytes(StandardCharsets.UTF_8));
            out.write(text);
            out.flush();
            lastRequest = System.currentTimeMillis();
            busy = false;
        }
        System.exit(0);
    }

    /** Ends the process once no request came for IDLE_MILLIS. */
    private static void startIdleWatch() {
        Thread watch = new Thread(() -> {
            while (busy || System.currentTimeMillis() - lastRequest < IDLE_MILLIS) {
                try {
                    Thread.sleep(IDLE_MILLIS / 4);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.exit(0);
        });
        watch.setDaemon(true);
        watch.start();
    }
}
