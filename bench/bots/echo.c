/* A persistent line-echo bot: every line of stdin back on stdout, flushed, until EOF. */
#include <stdio.h>

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        fputs(line, stdout);
        fflush(stdout);
    }
    return 0;
}
