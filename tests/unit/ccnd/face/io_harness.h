/* Shared by the face tests: a face table whose callbacks record what
 * happened, and helpers to drive the loop until a condition holds. */
#ifndef CCND_TEST_IO_HARNESS_H
#define CCND_TEST_IO_HARNESS_H

#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/error.h>

#include "face/face.h"
#include "loop/loop.h"

#define H_MAX_EVENTS 256

struct harness {
    struct loop *loop;
    struct face_table *ft;
    struct ccnx_buf bytes; /* every delivered message, concatenated */
    size_t nmsgs;
    unsigned msg_face[H_MAX_EVENTS];
    size_t msg_len[H_MAX_EVENTS];
    unsigned created[H_MAX_EVENTS];
    size_t ncreated;
    unsigned destroyed[H_MAX_EVENTS];
    enum face_close_reason why[H_MAX_EVENTS];
    struct face_info final[H_MAX_EVENTS];
    size_t ndestroyed;
    unsigned busy[8]; /* faces in_use reports as held */
    size_t nbusy;
};

static void h_message(void *arg, unsigned faceid, const uint8_t *msg, size_t len)
{
    struct harness *h = arg;
    if (h->nmsgs < H_MAX_EVENTS) {
        h->msg_face[h->nmsgs] = faceid;
        h->msg_len[h->nmsgs] = len;
    }
    h->nmsgs++;
    ccnx_buf_append(&h->bytes, msg, len);
}

static void h_created(void *arg, unsigned faceid)
{
    struct harness *h = arg;
    if (h->ncreated < H_MAX_EVENTS) {
        h->created[h->ncreated++] = faceid;
    }
}

static void h_destroyed(void *arg, unsigned faceid, enum face_close_reason why,
                        const struct face_info *final)
{
    struct harness *h = arg;
    if (h->ndestroyed < H_MAX_EVENTS) {
        h->destroyed[h->ndestroyed] = faceid;
        h->why[h->ndestroyed] = why;
        h->final[h->ndestroyed] = *final;
        h->ndestroyed++;
    }
}

static int h_in_use(void *arg, unsigned faceid)
{
    const struct harness *h = arg;
    for (size_t i = 0; i < h->nbusy; i++) {
        if (h->busy[i] == faceid) {
            return 1;
        }
    }
    return 0;
}

static inline void h_init(struct harness *h, const struct face_config *cfg)
{
    memset(h, 0, sizeof(*h));
    ccnx_buf_init(&h->bytes);
    h->loop = loop_create();
    assert_non_null(h->loop);
    struct face_callbacks cb = {.message = h_message,
                                .created = h_created,
                                .destroyed = h_destroyed,
                                .in_use = h_in_use,
                                .arg = h};
    h->ft = face_table_create(h->loop, cfg, &cb);
    assert_non_null(h->ft);
}

static inline void h_reset(struct harness *h)
{
    ccnx_buf_reset(&h->bytes);
    h->nmsgs = 0;
}

static inline void h_free(struct harness *h)
{
    face_table_destroy(h->ft);
    loop_destroy(h->loop);
    ccnx_buf_free(&h->bytes);
}

/* Runs the loop until *cond becomes true or timeout_ms passes. */
#define H_RUN_UNTIL(h, cond, timeout_ms)                                                           \
    do {                                                                                           \
        uint64_t h_end_ = loop_update_time((h)->loop) + (uint64_t)(timeout_ms)*1000u;              \
        while (!(cond) && loop_update_time((h)->loop) < h_end_) {                                  \
            loop_run_once((h)->loop, 5);                                                           \
        }                                                                                          \
    } while (0)

/* The number of top-level elements in a buffer of back-to-back elements. */
static inline size_t h_count_elements(const struct ccnx_buf *b)
{
    size_t pos = 0, n = 0, end;
    while (pos < b->len && ccnx_ccnb_element_end(b->data, b->len, pos, &end) == 0) {
        pos = end;
        n++;
    }
    assert_int_equal(pos, b->len);
    return n;
}

/* Index of faceid in the destroyed list, or -1. */
static inline int h_destroyed_index(const struct harness *h, unsigned faceid)
{
    for (size_t i = 0; i < h->ndestroyed; i++) {
        if (h->destroyed[i] == faceid) {
            return (int)i;
        }
    }
    return -1;
}

/* The last face created, which in these tests is the one a peer just made. */
static inline unsigned h_last_created(const struct harness *h)
{
    return h->ncreated ? h->created[h->ncreated - 1] : FACE_NONE;
}

#endif
