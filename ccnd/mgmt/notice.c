#include "mgmt/notice.h"

#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/seqwriter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Old segments are dropped past this; readers follow the live end. */
#define NOTICE_BUFFER_LIMIT (256 * 1024)

struct notice {
    const struct ccnx_key *key;
    struct ccnx_name name; /* /ccnx/<ccndid>/notice.txt */
    struct ccnx_seqwriter *w;
    struct ccnx_buf *out; /* where objects go during a call */
    int dirty;
};

static int put_object(void *arg, const uint8_t *obj, size_t len)
{
    struct notice *n = arg;
    return n->out != NULL ? ccnx_buf_append(n->out, obj, len) : 0;
}

struct notice *notice_create(const struct ccnx_key *key, const uint8_t ccndid[32])
{
    struct notice *n = calloc(1, sizeof *n);
    if (n == NULL) {
        return NULL;
    }
    n->key = key;
    if (ccnx_name_init(&n->name) != 0 || ccnx_name_append_str(&n->name, "ccnx") != 0 ||
        ccnx_name_append(&n->name, ccndid, 32) != 0 ||
        ccnx_name_append_str(&n->name, NOTICE_NAME) != 0) {
        notice_destroy(n);
        return NULL;
    }
    return n;
}

void notice_destroy(struct notice *n)
{
    if (n != NULL) {
        ccnx_seqwriter_destroy(n->w);
        ccnx_name_free(&n->name);
        free(n);
    }
}

int notice_started(const struct notice *n)
{
    return n->w != NULL;
}

static int start(struct notice *n)
{
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.key = n->key;
    o.put = put_object;
    o.put_arg = n;
    o.buffer_limit = NOTICE_BUFFER_LIMIT;
    o.flush_ms = -1;
    o.freshness = 2;
    return ccnx_seqwriter_create(NULL, &n->name, &o, &n->w);
}

int notice_interest(struct notice *n, const uint8_t *interest, size_t len,
                    const struct ccnx_interest_parsed *pi, struct ccnx_buf *out)
{
    if (ccnx_name_is_prefix_ccnb(n->name.enc.data, n->name.enc.len, interest + pi->name.off,
                                 pi->name.len) != 1) {
        return 0;
    }
    if (n->w == NULL && start(n) != 0) {
        return 0;
    }
    n->out = out;
    ccnx_seqwriter_interest(n->w, interest, len, pi);
    n->out = NULL;
    return 1;
}

void notice_face(struct notice *n, unsigned faceid, int up, unsigned ref_flags, const char *remote)
{
    if (n->w == NULL) {
        return;
    }
    char line[160];
    int len;
    if (!up) {
        len = snprintf(line, sizeof line, "destroyface(%u);\n", faceid);
    } else if (remote != NULL && remote[0] != '\0') {
        len = snprintf(line, sizeof line, "newface(%u, 0x%x, %s);\n", faceid, ref_flags, remote);
    } else {
        len = snprintf(line, sizeof line, "newface(%u, 0x%x);\n", faceid, ref_flags);
    }
    if (len > 0 && (size_t)len < sizeof line &&
        ccnx_seqwriter_write(n->w, line, (size_t)len) == len) {
        n->dirty = 1;
    }
}

void notice_flush(struct notice *n, struct ccnx_buf *out)
{
    if (n->w == NULL || !n->dirty) {
        return;
    }
    n->out = out;
    ccnx_seqwriter_flush(n->w);
    n->out = NULL;
    n->dirty = 0;
}
