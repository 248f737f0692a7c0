/* A one-shot bot that costs as little as a bot can: reads stdin to its end, prints REST. */
#include <unistd.h>

int main(void) {
    char buffer[4096];
    while (read(0, buffer, sizeof buffer) > 0) {
    }
    return write(1, "REST\n", 5) == 5 ? 0 : 1;
}
