/* UDP tools for the emulation harness (bench/emu/emu_lib.sh), which must
 * shape links on kernels without netem:
 *
 *   udp_delay relay LOCAL:PORT TARGET:PORT MS   forward datagrams to TARGET
 *                                               MS later, and TARGET's answers
 *                                               back to the last sender MS later
 *   udp_delay echo LOCAL:PORT                   send every datagram back
 *   udp_delay ping TARGET:PORT COUNT            COUNT probes 5 ms apart; prints
 *                                               the median round trip in ms, the
 *                                               probes back and the smallest
 *   udp_delay blast TARGET:PORT COUNT           COUNT datagrams, 32 every 0.5 ms
 *   udp_delay sink LOCAL:PORT IDLE_MS           counts datagrams until none came
 *                                               for IDLE_MS after the first; prints it
 *
 * Addresses are numeric IPv4. The relay holds at most RELAY_MAX datagrams
 * in flight; beyond that it drops (and counts) them, as a full link would. */
#define _GNU_SOURCE /* ppoll */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../bench_help.h"

#define RELAY_MAX 65536
#define DGRAM_MAX 65536

static const char usage[] =
    "Usage: udp_delay relay LOCAL:PORT TARGET:PORT MS | echo LOCAL:PORT |\n"
    "       ping TARGET:PORT COUNT | blast TARGET:PORT COUNT | sink LOCAL:PORT IDLE_MS\n"
    "UDP delay relay and probes for the emulation harness (bench/emu).\n";

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int parse(const char *text, struct sockaddr_in *a)
{
    char host[64];
    const char *colon = strrchr(text, ':');
    if (colon == NULL || (size_t)(colon - text) >= sizeof host)
        return -1;
    memcpy(host, text, (size_t)(colon - text));
    host[colon - text] = '\0';
    memset(a, 0, sizeof *a);
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)atoi(colon + 1));
    return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

static int open_socket(const struct sockaddr_in *bind_to)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0 || (bind_to != NULL && bind(fd, (const void *)bind_to, sizeof *bind_to) != 0)) {
        perror("udp_delay: socket");
        exit(1);
    }
    int size = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    return fd;
}

/* ---- relay: a FIFO of datagrams due at a time (the delay is constant) ---- */

struct held {
    int64_t due;
    int to_target;
    size_t len;
    uint8_t *data;
};

static struct held queue[RELAY_MAX];
static size_t head, count;
static unsigned long dropped;

static void hold(int64_t due, int to_target, const uint8_t *p, size_t n)
{
    if (count == RELAY_MAX) {
        dropped++;
        return;
    }
    struct held *h = &queue[(head + count) % RELAY_MAX];
    h->data = malloc(n ? n : 1);
    if (h->data == NULL) {
        dropped++;
        return;
    }
    memcpy(h->data, p, n);
    h->len = n;
    h->due = due;
    h->to_target = to_target;
    count++;
}

static int relay(const char *local, const char *target, int ms)
{
    struct sockaddr_in la, ta, sender = {0};
    if (parse(local, &la) != 0 || parse(target, &ta) != 0)
        return 2;
    int in = open_socket(&la);   /* from the local side, and back to it */
    int out = open_socket(NULL); /* to the target, and its answers */
    static uint8_t buf[DGRAM_MAX];
    for (;;) {
        int64_t now = now_us();
        while (count > 0 && queue[head].due <= now) {
            struct held *h = &queue[head];
            if (h->to_target)
                sendto(out, h->data, h->len, 0, (const void *)&ta, sizeof ta);
            else if (sender.sin_family == AF_INET)
                sendto(in, h->data, h->len, 0, (const void *)&sender, sizeof sender);
            free(h->data);
            head = (head + 1) % RELAY_MAX;
            count--;
        }
        /* to the microsecond: a poll in whole ms would add up to 1 ms a hop */
        int64_t wait = count > 0 ? queue[head].due - now : -1;
        struct timespec ts = {wait / 1000000, (wait % 1000000) * 1000};
        struct pollfd p[2] = {{in, POLLIN, 0}, {out, POLLIN, 0}};
        if (ppoll(p, 2, wait >= 0 ? &ts : NULL, NULL) < 0 && errno != EINTR)
            return 1;
        for (int i = 0; i < 2; i++) {
            struct sockaddr_in from;
            socklen_t flen = sizeof from;
            ssize_t n;
            while ((p[i].revents & POLLIN) && (n = recvfrom(p[i].fd, buf, sizeof buf, MSG_DONTWAIT,
                                                            (void *)&from, &flen)) >= 0) {
                if (i == 0)
                    sender = from;
                hold(now_us() + (int64_t)ms * 1000, i == 0, buf, (size_t)n);
                flen = sizeof from;
            }
        }
    }
}

/* ---- probes ---- */

static int echo(const char *local)
{
    struct sockaddr_in la, from;
    if (parse(local, &la) != 0)
        return 2;
    int fd = open_socket(&la);
    static uint8_t buf[DGRAM_MAX];
    for (;;) {
        socklen_t flen = sizeof from;
        ssize_t n = recvfrom(fd, buf, sizeof buf, 0, (void *)&from, &flen);
        if (n >= 0)
            sendto(fd, buf, (size_t)n, 0, (const void *)&from, flen);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int ping(const char *target, long n)
{
    struct sockaddr_in ta;
    if (parse(target, &ta) != 0 || n <= 0 || n > 100000)
        return 2;
    int fd = open_socket(NULL);
    double *rtt = calloc((size_t)n, sizeof *rtt);
    long got = 0;
    for (long i = 0; i < n; i++) {
        int64_t sent = now_us();
        sendto(fd, &sent, sizeof sent, 0, (const void *)&ta, sizeof ta);
        struct pollfd p = {fd, POLLIN, 0};
        int64_t back;
        /* a probe not back within a second is lost */
        while (poll(&p, 1, 1000) > 0 && recv(fd, &back, sizeof back, 0) == sizeof back) {
            if (back == sent) {
                rtt[got++] = (double)(now_us() - sent) / 1000;
                break;
            }
        }
        struct timespec gap = {0, 5 * 1000000};
        nanosleep(&gap, NULL);
    }
    qsort(rtt, (size_t)got, sizeof *rtt, cmp_double);
    printf("%.3f %ld %.3f\n", got > 0 ? rtt[got / 2] : -1.0, got, got > 0 ? rtt[0] : -1.0);
    free(rtt);
    return got > 0 ? 0 : 1;
}

static int blast(const char *target, long n)
{
    struct sockaddr_in ta;
    if (parse(target, &ta) != 0 || n <= 0)
        return 2;
    int fd = open_socket(NULL);
    uint8_t payload[64] = {0};
    for (long i = 0; i < n; i++) {
        sendto(fd, payload, sizeof payload, 0, (const void *)&ta, sizeof ta);
        if (i % 32 == 31) { /* paced, so that no socket buffer overflows */
            struct timespec gap = {0, 500 * 1000};
            nanosleep(&gap, NULL);
        }
    }
    return 0;
}

static int sink(const char *local, int idle_ms)
{
    struct sockaddr_in la;
    if (parse(local, &la) != 0)
        return 2;
    int fd = open_socket(&la);
    uint8_t buf[2048];
    long got = 0;
    struct pollfd p = {fd, POLLIN, 0};
    while (poll(&p, 1, got == 0 ? -1 : idle_ms) > 0)
        if (recv(fd, buf, sizeof buf, 0) >= 0)
            got++;
    printf("%ld\n", got);
    return 0;
}

int main(int argc, char **argv)
{
    bench_help(argc, argv, usage);
    if (argc == 5 && strcmp(argv[1], "relay") == 0)
        return relay(argv[2], argv[3], atoi(argv[4]));
    if (argc == 3 && strcmp(argv[1], "echo") == 0)
        return echo(argv[2]);
    if (argc == 4 && strcmp(argv[1], "ping") == 0)
        return ping(argv[2], atol(argv[3]));
    if (argc == 4 && strcmp(argv[1], "blast") == 0)
        return blast(argv[2], atol(argv[3]));
    if (argc == 4 && strcmp(argv[1], "sink") == 0)
        return sink(argv[2], atoi(argv[3]));
    fputs(usage, stderr);
    return 2;
}
