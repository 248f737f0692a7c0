/* A Petri bot in LOOP mode that always rests: the cheapest real bot, so that a tournament
 * of it measures the runner. Answers BEGIN (one-shot setup, or the first line of the
 * session) with its species, each cell request (the line after the empty line) with REST,
 * and exits at END or EOF. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char line[4096];
    int after_blank = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "BEGIN", 5) == 0) {
            fputs("4 4 4 LOOP\n", stdout);
        } else if (strcmp(line, "END\n") == 0) {
            break;
        } else if (after_blank) {
            fputs("REST\n", stdout);
        }
        after_blank = strcmp(line, "\n") == 0;
        fflush(stdout);
    }
    return 0;
}
