/* A Petri bot in LOOP mode that always rests: the cheapest real bot, so that a tournament
 * of it measures the runner. Answers BEGIN (one-shot setup, or the first line of the
 * session) with its species, each cell request (the line after the empty line) with REST,
 * and exits at END or EOF. With an argument N, it first writes N bytes to its stderr before
 * each REST, 64 KiB a write: a bot that floods its stderr (BENCHMARKS.md, figure l). */
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
    long flood_bytes = argc > 1 ? atol(argv[1]) : 0;
    char line[4096];
    int after_blank = 0;
    memset(junk, 'x', sizeof junk);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "BEGIN", 5) == 0) {
            fputs("4 4 4 LOOP\n", stdout);
        } else if (strcmp(line, "END\n") == 0) {
            break;
        } else if (after_blank) {
            flood(flood_bytes);
            fputs("REST\n", stdout);
        }
        after_blank = strcmp(line, "\n") == 0;
        fflush(stdout);
    }
    return 0;
}
