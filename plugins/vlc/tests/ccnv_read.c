/* The VLC module's model read without VLC, for the tests and the bench:
 * writes the stream under URI to stdout from byte OFFSET (a seek after
 * opening, as VLC makes one), and on stderr what the model found:
 *
 *   size=<bytes or -1> live=<0|1> meta=<0|1> start=<segment> type=<media type>
 *
 *   ccnv_read [-s OFFSET] [-m auto|live|on-demand] [-t SECONDS] [-n] URI
 *
 * -n: no verification. Exit 0 at the end of the stream, 1 on an error
 * (the model's sentence on stderr). */
#include "ccnv_stream.h"

#include <ccnx/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
    fprintf(stderr,
            "usage: ccnv_read [-s OFFSET] [-m auto|live|on-demand] [-t SECONDS] [-n] URI\n");
    return 2;
}

static int copy_out(struct ccnv_stream *s)
{
    static char buf[1 << 16];
    for (;;) {
        ssize_t n = ccnv_stream_read(s, buf, sizeof buf);
        if (n == 0) {
            return 0;
        }
        if (n < 0) {
            fprintf(stderr, "ccnv_read: %s\n", ccnv_stream_error(s));
            return 1;
        }
        if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n) {
            perror("ccnv_read: stdout");
            return 1;
        }
    }
}

int main(int argc, char **argv)
{
    struct ccnv_options o;
    ccnv_options_init(&o);
    long long offset = -1;
    int opt;
    while ((opt = getopt(argc, argv, "s:m:t:n")) != -1) {
        if (opt == 's') {
            offset = atoll(optarg);
        } else if (opt == 'm') {
            o.mode = strcmp(optarg, "live") == 0        ? CCNV_MODE_LIVE
                     : strcmp(optarg, "on-demand") == 0 ? CCNV_MODE_ON_DEMAND
                                                        : CCNV_MODE_AUTO;
        } else if (opt == 't') {
            o.timeout_ms = atoi(optarg) * 1000;
        } else if (opt == 'n') {
            o.verify = 0;
        } else {
            return usage();
        }
    }
    if (optind + 1 != argc) {
        return usage();
    }
    char err[600];
    struct ccnv_stream *s;
    int rc = ccnv_stream_start(argv[optind], &o, &s, err, sizeof err);
    if (rc == 0 && (rc = ccnv_stream_wait_ready(s, err, sizeof err)) != 0) {
        ccnv_stream_close(s);
    }
    if (rc != 0) {
        fprintf(stderr, "ccnv_read: %s\n", err);
        return 1;
    }
    struct ccnv_info info;
    ccnv_stream_info(s, &info);
    fprintf(stderr, "size=%lld live=%d meta=%d start=%llu type=%s\n",
            info.size_known ? (long long)info.size : -1LL, info.live, info.with_meta,
            (unsigned long long)info.start_segment, info.content_type);
    if (offset >= 0 && (rc = ccnv_stream_seek(s, (uint64_t)offset)) != 0) {
        fprintf(stderr, "ccnv_read: cannot seek to %lld: %s\n", offset,
                rc == CCNX_E_UNSUPPORTED ? "a live stream" : ccnv_stream_error(s));
        ccnv_stream_close(s);
        return 1;
    }
    rc = copy_out(s);
    ccnv_stream_info(s, &info);
    fprintf(stderr, "end size=%lld\n", info.size_known ? (long long)info.size : -1LL);
    ccnv_stream_close(s);
    return rc;
}
