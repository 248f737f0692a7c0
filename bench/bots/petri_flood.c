/* A Petri bot in LOOP mode that floods its stderr: before each cell's REST it writes as many
 * bytes to stderr as its argument says (default 64 MiB), 64 KiB a write. It measures what a
 * flood of stderr costs the runner (BENCHMARKS.md, figure l); otherwise it is petri_rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char junk[65536];

/* Writes `bytes` bytes of junk to stderr, or until a write fails. */
static void flood(long bytes) {
    while (bytes > 0) {
        ssize_t written = write(2, junk, bytes < (long)sizeof junk ? bytes : (long)sizeof junk);
        if (written <= 0) {
            return;
        }
        bytes -= written;
    }
}

int main(int argc, char **argv) {
    long per_request = argc > 1 ? atol(argv[1]) : 64L << 20;
    char line[4096];
    int after_blank = 0;
    memset(junk, 'x', sizeof junk);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "BEGIN", 5) == 0) {
            fputs("4 4 4 LOOP\n", stdout);
        } else if (strcmp(line, "END\n") == 0) {
            break;
        } else if (after_blank) {
            flood(per_request);
            fputs("REST\n", stdout);
        }
        after_blank = strcmp(line, "\n") == 0;
        fflush(stdout);
    }
    return 0;
}
