/* What the explorer does with a selected name, apart from the screen:
 * preview its content (the first EX_PREVIEW_MAX bytes), fetch it to a
 * file with progress, put a local file below it into a repository (by
 * running ccnputfile, whose start-write is checked), and play it (by
 * running gst-launch-1.0 playbin with our ccnsrc). All of it runs from the
 * client's loop or as child processes: nothing here blocks. */
#ifndef EXPLORE_ACTIONS_H
#define EXPLORE_ACTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

#include <ccnx/buf.h>
#include <ccnx/client.h>
#include <ccnx/verifier.h>

#define EX_PREVIEW_MAX (64 * 1024)

struct ex_actions;

struct ex_transfer {
    struct ex_actions *owner;
    struct ccnx_fetch *fetch;
    FILE *out;           /* fetch to a file; NULL for a preview */
    struct ccnx_buf buf; /* a preview's bytes */
    char *path;
    uint64_t bytes;
    int64_t total; /* expected bytes, -1 unknown */
    int64_t started_ms;
    int done; /* 0 running, 1 finished, -1 failed */
};

struct ex_child {
    pid_t pid; /* 0 when none */
    int fd;    /* its output, -1 when closed */
    char what[32];
    struct ccnx_buf out; /* its last lines */
    int status;          /* once exited: 0 success */
};

struct ex_actions {
    struct ccnx_client *c;
    struct ccnx_verifier *v;
    struct ex_transfer preview, fetch;
    struct ex_child put, play;
    char ccnputfile[PATH_MAX]; /* the tool's path (tool_sibling) */
    void (*changed)(void *arg);
    void *arg;
};

void ex_actions_init(struct ex_actions *a, struct ccnx_client *c, struct ccnx_verifier *v);
void ex_actions_free(struct ex_actions *a);

/* Starts a preview of the content named `name` (newest version first). */
int ex_preview_start(struct ex_actions *a, const struct ccnx_name *name);
/* 1 when bytes look like text (UTF-8, no controls but newlines and tabs). */
int ex_preview_is_text(const uint8_t *p, size_t n);
/* Appends a hex dump line per 16 bytes: offset, bytes, printable ASCII. */
int ex_preview_hex(struct ccnx_buf *out, const uint8_t *p, size_t n);

/* Fetches the content to `path` (created; an existing file is refused).
 * total: expected size or -1. CCNX_E_IO with errno set when the file
 * cannot be made, CCNX_E_INVAL while another fetch runs. */
int ex_fetch_start(struct ex_actions *a, const struct ccnx_name *name, const char *path,
                   int64_t total);
/* Appends "[#####.....] 45% 1.2 MB of 2.6 MB, 3.4 MB/s" for the fetch. */
int ex_transfer_progress(const struct ex_transfer *t, struct ccnx_buf *out);

/* Runs ccnputfile URI PATH. 0, or negative with a reason in `why`. */
int ex_put_start(struct ex_actions *a, const char *uri, const char *path, struct ccnx_buf *why);
/* Runs gst-launch-1.0 -q playbin uri=URI, its output kept. */
int ex_play_start(struct ex_actions *a, const char *uri, struct ccnx_buf *why);

/* File descriptors of running children to poll (up to 2); returns how many. */
size_t ex_actions_fds(const struct ex_actions *a, int *fds);
/* Reads children's output and reaps those that exited; returns 1 when a
 * child ended (its status and output are then final). */
int ex_actions_poll(struct ex_actions *a);

#endif
