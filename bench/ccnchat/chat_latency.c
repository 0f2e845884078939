/* How long a chat message takes from one member to another through ccnd:
 * two members of a room in one process, each on its own connection; the
 * sender signs and sends a message, the clock stops when the receiver's
 * session reports it (verified). Messages go at a chat's pace (one every
 * GAP ms, under the flood limit), and the median, 90th and 99th
 * percentiles are printed. The receiver has a key of its own (a keystore
 * made in $CCNX_DIR/receiver).
 *
 *   chat_latency [-n MESSAGES] [-g GAP_MS] [ROOM]     (defaults 200, 150) */
#define _POSIX_C_SOURCE 200809L
#include "../bench_help.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include <ccnx/client.h>
#include <ccnx/keystore.h>

#include "chat_session.h"

struct receiver {
    char want[64];
    int got;
};

static void on_event(void *arg, enum chat_event ev, const struct chat_msg *msg)
{
    struct receiver *r = arg;
    if (ev == CHAT_EV_MESSAGE && msg->kind == CHAT_MSG_TEXT && strcmp(msg->text, r->want) == 0)
        r->got = msg->verify == CHAT_VERIFIED ? 1 : -1;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Both clients' loops, a turn each, for at most ms. */
static void run_both(struct ccnx_client *a, struct ccnx_client *b, int ms)
{
    ccnx_client_run(a, 0);
    ccnx_client_run(b, ms);
}

static struct chat_session *join(struct ccnx_client *c, const char *room, const char *nick,
                                 chat_event_fn fn, void *arg)
{
    struct chat_session_opts o;
    struct chat_session *s;
    struct ccnx_buf err;
    chat_session_opts_init(&o);
    o.room = room;
    o.nick = nick;
    o.quiet = 1;
    o.no_history = 1;
    ccnx_buf_init(&err);
    if (chat_session_create(c, &o, fn, arg, &s, &err) < 0) {
        fprintf(stderr, "chat_latency: %s\n", ccnx_buf_cstr(&err));
        exit(1);
    }
    ccnx_buf_free(&err);
    return s;
}

int main(int argc, char **argv)
{
    bench_help(argc, argv,
               "usage: chat_latency [-n MESSAGES] [-g GAP_MS] [ROOM]\n"
               "Latency of chat messages from one member to another through ccnd\n"
               "(defaults: 200 messages, one every 150 ms, room ccnx:/bench/chat).\n");
    int n = 200, gap = 150, ch;
    while ((ch = getopt(argc, argv, "n:g:")) != -1) {
        if (ch == 'n')
            n = atoi(optarg);
        else if (ch == 'g')
            gap = atoi(optarg);
        else {
            fprintf(stderr, "usage: chat_latency [-n MESSAGES] [-g GAP_MS] [ROOM]\n");
            return 2;
        }
    }
    const char *room = optind < argc ? argv[optind] : "ccnx:/bench/chat";
    struct ccnx_client *ca, *cb;
    if (ccnx_client_open(&ca) < 0 || ccnx_client_open(&cb) < 0) {
        fprintf(stderr, "chat_latency: no ccnd (start one with ccndstart)\n");
        return 1;
    }
    /* Another member: another key. */
    struct ccnx_keystore *ks;
    char path[4096];
    const char *dir = getenv("CCNX_DIR");
    snprintf(path, sizeof path, "%s/receiver/.ccnx_keystore", dir != NULL ? dir : ".");
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0700);
    *slash = '/';
    if (ccnx_keystore_open_or_create(path, NULL, &ks) < 0) {
        fprintf(stderr, "chat_latency: cannot make a keystore at %s\n", path);
        return 1;
    }
    ccnx_client_set_keystore(cb, ks);
    struct receiver r = {{0}, 0};
    struct chat_session *sa = join(ca, room, "sender", NULL, NULL);
    struct chat_session *sb = join(cb, room, "receiver", on_event, &r);
    for (int i = 0; i < 200 && !chat_session_history_done(sb); i++)
        run_both(ca, cb, 10);
    double *lat = calloc((size_t)n, sizeof *lat);
    int lost = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        snprintf(r.want, sizeof r.want, "latency probe %d", i);
        r.got = 0;
        int64_t t0 = ccnx_client_now_ms();
        struct timespec ts0, ts1;
        clock_gettime(CLOCK_MONOTONIC, &ts0);
        chat_session_send(sa, r.want);
        while (r.got == 0 && ccnx_client_now_ms() - t0 < 5000)
            run_both(ca, cb, 1);
        clock_gettime(CLOCK_MONOTONIC, &ts1);
        lat[i] =
            (double)(ts1.tv_sec - ts0.tv_sec) * 1e3 + (double)(ts1.tv_nsec - ts0.tv_nsec) / 1e6;
        lost += r.got == 0;
        bad += r.got < 0;
        int64_t until = ccnx_client_now_ms() + gap;
        while (ccnx_client_now_ms() < until)
            run_both(ca, cb, 5);
    }
    qsort(lat, (size_t)n, sizeof *lat, cmp);
    printf("chat latency over %d messages: median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; "
           "lost %d, unverified %d\n",
           n, lat[n / 2], lat[n * 9 / 10], lat[n * 99 / 100], lat[n - 1], lost, bad);
    chat_session_destroy(sb, 0);
    chat_session_destroy(sa, 0);
    ccnx_client_destroy(cb);
    ccnx_client_destroy(ca);
    ccnx_keystore_destroy(ks);
    free(lat);
    return lost > 0 || bad > 0;
}
