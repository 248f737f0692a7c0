/* The floor of figure e: the least a runner can do to drive a Petri LOOP bot. Starts the
 * bot, sends BEGIN, then sends the same cell request N times, each a blocking write and a
 * blocking read of one reply line, then END; no deadlines, no stderr, no game. Prints the
 * CPU time of this loop and of the bot, and the loop's share of both.
 *
 * With --uring, each round trip is one system call instead of two: the write and the read
 * of the reply are linked in an io_uring and waited for together (completions run in this
 * thread's own call, IORING_SETUP_DEFER_TASKRUN). It asks whether fewer system calls would
 * lower the floor.
 *
 *   loop_floor [--uring] N PROGRAM [ARG ...]
 */
#include <linux/io_uring.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* A mid-game request on the default 10 x 4 dish; the acting cell is ours at (2, 1). */
static const char REQUEST[] = "10 4\n..........\n.ooo......\n......xxx.\n..........\n\n2 1 4 5\n";

static double seconds(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }

/* What was read from the bot and not taken as a line yet. */
static char buffer[4096];
static size_t start, end;

/* Takes one line from the buffer if it holds one. */
static int take_line(void) {
    for (size_t i = start; i < end; i++) {
        if (buffer[i] == '\n') {
            start = i + 1;
            return 1;
        }
    }
    return 0;
}

/* Reads one line from fd, through the buffer; returns 0 at EOF. */
static int read_line(int fd) {
    while (!take_line()) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n <= 0) return 0;
        start = 0;
        end = (size_t)n;
    }
    return 1;
}

static void send(int fd, const char *bytes) {
    size_t length = strlen(bytes);
    if (write(fd, bytes, length) != (ssize_t)length) {
        perror("write");
        exit(1);
    }
}

/* One io_uring: its submission and completion rings, mapped. */
static struct {
    int fd;
    unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
} ring;

static void *map(size_t length, off_t offset) {
    void *memory =
        mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring.fd, offset);
    if (memory == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    return memory;
}

static void setup_ring(void) {
    struct io_uring_params params;
    memset(&params, 0, sizeof params);
    params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    ring.fd = (int)syscall(__NR_io_uring_setup, 4, &params);
    if (ring.fd < 0) {
        perror("io_uring_setup");
        exit(1);
    }
    char *sq = map(params.sq_off.array + params.sq_entries * sizeof(unsigned), IORING_OFF_SQ_RING);
    char *cq = map(params.cq_off.cqes + params.cq_entries * sizeof(struct io_uring_cqe),
                   IORING_OFF_CQ_RING);
    ring.sqes = map(params.sq_entries * sizeof(struct io_uring_sqe), IORING_OFF_SQES);
    ring.sq_tail = (unsigned *)(sq + params.sq_off.tail);
    ring.sq_mask = (unsigned *)(sq + params.sq_off.ring_mask);
    ring.sq_array = (unsigned *)(sq + params.sq_off.array);
    ring.cq_head = (unsigned *)(cq + params.cq_off.head);
    ring.cq_tail = (unsigned *)(cq + params.cq_off.tail);
    ring.cq_mask = (unsigned *)(cq + params.cq_off.ring_mask);
    ring.cqes = (struct io_uring_cqe *)(cq + params.cq_off.cqes);
}

static void queue(int opcode, int fd, const void *address, unsigned length, int flags,
                  unsigned long long tag) {
    unsigned tail = *ring.sq_tail, index = tail & *ring.sq_mask;
    struct io_uring_sqe *entry = &ring.sqes[index];
    memset(entry, 0, sizeof *entry);
    entry->opcode = (unsigned char)opcode;
    entry->fd = fd;
    entry->addr = (unsigned long long)(unsigned long)address;
    entry->len = length;
    entry->off = (unsigned long long)-1; /* the pipe's own position */
    entry->flags = (unsigned char)flags;
    entry->user_data = tag;
    ring.sq_array[index] = index;
    atomic_store_explicit((_Atomic unsigned *)ring.sq_tail, tail + 1, memory_order_release);
}

/* The request written and the start of the reply read, in one io_uring_enter; the rest of
 * the line, if the first read did not hold it, with plain reads. Returns 0 at EOF. */
static int round_trip_uring(int to_bot, int from_bot) {
    enum { WRITE, READ };
    if (start != end) {
        fprintf(stderr, "the bot sent more than one line\n");
        exit(1);
    }
    queue(IORING_OP_WRITE, to_bot, REQUEST, sizeof REQUEST - 1, IOSQE_IO_LINK, WRITE);
    queue(IORING_OP_READ, from_bot, buffer, sizeof buffer, 0, READ);
    int completed = 0, read_bytes = 0;
    unsigned submit = 2;
    while (completed < 2) {
        if (syscall(__NR_io_uring_enter, ring.fd, submit, 2 - completed, IORING_ENTER_GETEVENTS,
                    NULL, 0) < 0) {
            perror("io_uring_enter");
            exit(1);
        }
        submit = 0;
        unsigned head = *ring.cq_head;
        while (head != atomic_load_explicit((_Atomic unsigned *)ring.cq_tail,
                                            memory_order_acquire)) {
            struct io_uring_cqe *done = &ring.cqes[head & *ring.cq_mask];
            if (done->user_data == WRITE && done->res != (int)(sizeof REQUEST - 1)) {
                fprintf(stderr, "write: %d\n", done->res);
                exit(1);
            }
            if (done->user_data == READ) read_bytes = done->res;
            head++;
            completed++;
        }
        atomic_store_explicit((_Atomic unsigned *)ring.cq_head, head, memory_order_release);
    }
    if (read_bytes <= 0) return 0;
    start = 0;
    end = (size_t)read_bytes;
    return read_line(from_bot);
}

int main(int argc, char **argv) {
    int uring = argc > 1 && strcmp(argv[1], "--uring") == 0;
    if (argc < 3 + uring) {
        fprintf(stderr, "usage: loop_floor [--uring] N PROGRAM [ARG ...]\n");
        return 2;
    }
    long requests = atol(argv[1 + uring]);
    char **program = argv + 2 + uring;
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
        execv(program[0], program);
        perror("exec");
        _exit(127);
    }
    close(to_bot[0]);
    close(from_bot[1]);
    if (uring) setup_ring();
    send(to_bot[1], "BEGIN\n");
    if (!read_line(from_bot[0])) {
        fprintf(stderr, "the bot did not answer BEGIN\n");
        return 1;
    }
    for (long i = 0; i < requests; i++) {
        int answered;
        if (uring) {
            answered = round_trip_uring(to_bot[1], from_bot[0]);
        } else {
            send(to_bot[1], REQUEST);
            answered = read_line(from_bot[0]);
        }
        if (!answered) {
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
