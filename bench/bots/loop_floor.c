/* The floor of figure e: the least a runner can do to drive a Petri LOOP bot. Starts the
 * bot, sends BEGIN, then sends the same cell request N times, each a blocking write and a
 * blocking read of one reply line, then END; no deadlines, no stderr, no game. Prints the
 * CPU time of this loop and of the bot, and the loop's share of both.
 *
 *   loop_floor N PROGRAM [ARG ...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* A mid-game request on the default 10 x 4 dish; the acting cell is ours at (2, 1). */
static const char REQUEST[] = "10 4\n..........\n.ooo......\n......xxx.\n..........\n\n2 1 4 5\n";

static double seconds(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }

/* Reads one line from fd, byte by byte through a small buffer; returns 0 at EOF. */
static int read_line(int fd) {
    static char buffer[4096];
    static size_t start, end;
    for (;;) {
        for (size_t i = start; i < end; i++) {
            if (buffer[i] == '\n') {
                start = i + 1;
                return 1;
            }
        }
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n <= 0) return 0;
        start = 0;
        end = (size_t)n;
    }
}

static void send(int fd, const char *bytes) {
    size_t length = strlen(bytes);
    if (write(fd, bytes, length) != (ssize_t)length) {
        perror("write");
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: loop_floor N PROGRAM [ARG ...]\n");
        return 2;
    }
    long requests = atol(argv[1]);
    int to_bot[2], from_bot[2];
    if (pipe(to_bot) || pipe(from_bot)) {
        perror("pipe");
        return 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to_bot[0], 0);
        dup2(from_bot[1], 1);
        close(to_bot[1]);
        close(from_bot[0]);
        execv(argv[2], argv + 2);
        perror("exec");
        _exit(127);
    }
    close(to_bot[0]);
    close(from_bot[1]);
    send(to_bot[1], "BEGIN\n");
    if (!read_line(from_bot[0])) {
        fprintf(stderr, "the bot did not answer BEGIN\n");
        return 1;
    }
    for (long i = 0; i < requests; i++) {
        send(to_bot[1], REQUEST);
        if (!read_line(from_bot[0])) {
            fprintf(stderr, "the bot ended after %ld requests\n", i);
            return 1;
        }
    }
    send(to_bot[1], "END\n");
    close(to_bot[1]);
    waitpid(pid, NULL, 0);
    struct rusage self, bot;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &bot);
    double runner = seconds(self.ru_utime) + seconds(self.ru_stime);
    double bots = seconds(bot.ru_utime) + seconds(bot.ru_stime);
    printf("runner %.2f s, bot %.2f s, %ld requests: runner share %.1f%%, runner %.1f µs and "
           "bot %.1f µs per request\n",
           runner, bots, requests, 100 * runner / (runner + bots), 1e6 * runner / requests,
           1e6 * bots / requests);
    return 0;
}
