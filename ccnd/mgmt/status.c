/* The status page's data: the per-face meters, the rows and the view the
 * renderings (status_render.c) read, and the request's parsing. */
#include "mgmt/status.h"

#include <limits.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ccnx/ccnb.h>
#include <ccnx/error.h>
#include <ccnx/uri.h>

#include "face/face.h"
#include "table/cs.h"
#include "table/fib.h"
#include "table/nonce.h"
#include "table/pit.h"

#define DTAG_INTEREST      26
#define DTAG_CONTENTOBJECT 64
#define SLOT_MASK          ((1u << FACE_SLOT_BITS) - 1)

struct meter_rec {
    unsigned faceid;
    int used;
    uint64_t seen; /* sample number that last listed the face */
    uint64_t total[STATUS_METERS];
    uint64_t last[STATUS_METERS]; /* totals at the previous sample */
    uint64_t rate[STATUS_METERS];
    uint64_t last_time;
};

/* Indexed by face slot: a faceid's low bits, so lookups are O(1). */
struct status {
    struct meter_rec *recs;
    size_t nrecs;
    uint64_t samples;
};

struct status *status_create(void)
{
    return calloc(1, sizeof(struct status));
}

void status_destroy(struct status *st)
{
    if (st != NULL) {
        free(st->recs);
        free(st);
    }
}

static struct meter_rec *rec_get(struct status *st, unsigned faceid, int create)
{
    size_t slot = faceid & SLOT_MASK;
    if (slot >= st->nrecs) {
        if (!create) {
            return NULL;
        }
        size_t n = st->nrecs ? st->nrecs : 16;
        while (n <= slot) {
            n *= 2;
        }
        struct meter_rec *r = realloc(st->recs, n * sizeof(*r));
        if (r == NULL) {
            return NULL;
        }
        memset(r + st->nrecs, 0, (n - st->nrecs) * sizeof(*r));
        st->recs = r;
        st->nrecs = n;
    }
    struct meter_rec *r = &st->recs[slot];
    if (!r->used || r->faceid != faceid) {
        if (!create) {
            return NULL;
        }
        memset(r, 0, sizeof(*r)); /* a reused slot starts afresh */
        r->used = 1;
        r->faceid = faceid;
    }
    return r;
}

static const struct meter_rec *rec_find(const struct status *st, unsigned faceid)
{
    size_t slot = faceid & SLOT_MASK;
    if (slot >= st->nrecs || !st->recs[slot].used || st->recs[slot].faceid != faceid) {
        return NULL;
    }
    return &st->recs[slot];
}

void status_note(struct status *st, unsigned faceid, int outgoing, const uint8_t *msg, size_t len)
{
    struct ccnx_ccnb_header h;
    if (st == NULL || ccnx_ccnb_header_decode(msg, len, &h) != 0 || h.tt != CCNX_TT_DTAG) {
        return;
    }
    enum status_meter m;
    if (h.numval == DTAG_INTEREST) {
        m = outgoing ? STATUS_INTROUT : STATUS_INTRIN;
    } else if (h.numval == DTAG_CONTENTOBJECT) {
        m = outgoing ? STATUS_DATAOUT : STATUS_DATAIN;
    } else {
        return;
    }
    struct meter_rec *r = rec_get(st, faceid, 1);
    if (r != NULL) {
        r->total[m]++;
    }
}

void status_sample(struct status *st, const struct status_face *rows, size_t n, uint64_t now_us)
{
    st->samples++;
    for (size_t i = 0; i < n; i++) {
        struct meter_rec *r = rec_get(st, rows[i].faceid, 1);
        if (r == NULL) {
            continue;
        }
        r->seen = st->samples;
        r->total[STATUS_BYTEIN] = rows[i].bytes_in;
        r->total[STATUS_BYTEOUT] = rows[i].bytes_out;
        uint64_t dt = now_us - r->last_time;
        for (int m = 0; m < STATUS_METERS; m++) {
            if (r->last_time != 0 && dt > 0) {
                r->rate[m] = (r->total[m] - r->last[m]) * 1000000u / dt;
            }
            r->last[m] = r->total[m];
        }
        r->last_time = now_us ? now_us : 1;
    }
    for (size_t i = 0; i < st->nrecs; i++) {
        if (st->recs[i].used && st->recs[i].seen != st->samples) {
            st->recs[i].used = 0;
        }
    }
}

void status_meter(const struct status *st, const struct status_face *row, enum status_meter m,
                  uint64_t *total, uint64_t *persec)
{
    const struct meter_rec *r = rec_find(st, row->faceid);
    *total = r != NULL ? r->total[m] : 0;
    *persec = r != NULL ? r->rate[m] : 0;
    /* Byte counts come from the face layer, fresher than the last sample. */
    if (m == STATUS_BYTEIN) {
        *total = row->bytes_in;
    } else if (m == STATUS_BYTEOUT) {
        *total = row->bytes_out;
    }
}

unsigned status_ref_flags(unsigned ff, unsigned faceid)
{
    static const struct {
        unsigned ours, ref;
    } map[] = {
        {FACE_F_DGRAM, 0x2},       {FACE_F_INET, 0x10},       {FACE_F_MCAST, 0x20},
        {FACE_F_INET6, 0x40},      {FACE_F_PERMANENT, 0x400}, {FACE_F_CONNECTING, 0x800},
        {FACE_F_LOOPBACK, 0x1000}, {FACE_F_PASSIVE, 0x4000},  {FACE_F_SEQOK, 0x20000},
        {FACE_F_HTTP, 0x2100}, /* NOSEND | CLOSING, as the reference marks them */
    };
    unsigned ref = 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (ff & map[i].ours) {
            ref |= map[i].ref;
        }
    }
    if (faceid == 0 || ((ff & FACE_F_LOCAL) && !(ff & (FACE_F_INET | FACE_F_INET6)))) {
        ref |= 0x8; /* LOCAL: a unix socket (and the internal face) */
    }
    if (faceid == 0 || (ff & FACE_F_LOCAL)) {
        ref |= 0x4; /* GG: trusted */
    }
    return ref;
}

/* ---- What the page shows ---- */

struct status_face *status_face_rows(struct face_table *faces, struct pit *pit, size_t *n)
{
    size_t cap = 1;
    for (unsigned id = face_next(faces, FACE_NONE); id != FACE_NONE; id = face_next(faces, id)) {
        cap++;
    }
    struct status_face *rows = calloc(cap, sizeof(*rows));
    if (rows == NULL) {
        *n = 0;
        return NULL;
    }
    rows[0].faceid = 0;
    rows[0].flags = FACE_F_LOCAL;
    rows[0].kind = "internal";
    size_t i = 1;
    for (unsigned id = face_next(faces, FACE_NONE); id != FACE_NONE && i < cap;
         id = face_next(faces, id)) {
        struct face_info fi;
        if (face_get_info(faces, id, &fi) != 0) {
            continue;
        }
        struct status_face *r = &rows[i++];
        r->faceid = id;
        r->flags = fi.flags;
        r->kind = face_kind_name(fi.kind);
        snprintf(r->remote, sizeof r->remote, "%s", fi.remote);
        r->bytes_in = fi.counters.bytes_in;
        r->bytes_out = fi.counters.bytes_out;
        r->msgs_in = fi.counters.msgs_in;
        r->msgs_out = fi.counters.msgs_out;
        r->queued = fi.queued_bytes;
        for (int k = 0; k < FACE_DROP_COUNT; k++) {
            r->drops += fi.counters.drops[k];
        }
        r->malformed = fi.counters.drops[FACE_DROP_MALFORMED];
    }
    for (size_t k = 0; k < i; k++) {
        rows[k].pending = pit_face_pending(pit, rows[k].faceid);
    }
    *n = i;
    return rows;
}

void status_view_tables(struct status_view *v, struct fw *fw)
{
    fw_get_stats(fw, &v->fw);
    v->cs = fw_cs(fw);
    v->pit = fw_pit(fw);
    v->fib = fw_fib(fw);
    v->pubs = fw_pubs(fw, &v->npubs);
    v->nonces = fw_nonces(fw);
}

/* ---- Parsing the request ---- */

static int parse_level(const char *v, size_t n, int *level)
{
    static const struct {
        const char *name;
        int level;
    } names[] = {{"none", 0}, {"low", 1}, {"co", 4}, {"med", 71}, {"high", -1}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strlen(names[i].name) == n && memcmp(names[i].name, v, n) == 0) {
            *level = names[i].level;
            return 0;
        }
    }
    char tmp[16];
    if (n == 0 || n >= sizeof tmp) {
        return -1;
    }
    memcpy(tmp, v, n);
    tmp[n] = '\0';
    char *end;
    long x = strtol(tmp, &end, 0);
    if (*end != '\0' || x < INT_MIN || x > INT_MAX) {
        return -1;
    }
    *level = (int)x;
    return 0;
}

static int parse_param(const char *k, size_t kn, const char *v, size_t vn,
                       struct status_request *req)
{
    if (kn == 1 && k[0] == 'f') {
        if (vn == 3 && memcmp(v, "xml", 3) == 0) {
            req->fmt = STATUS_XML;
        } else if (vn == 4 && memcmp(v, "json", 4) == 0) {
            req->fmt = STATUS_JSON;
        } else if (vn == 4 && memcmp(v, "html", 4) == 0) {
            req->fmt = STATUS_HTML;
        } else {
            return -1;
        }
    } else if (kn == 1 && k[0] == 'l') {
        if (parse_level(v, vn, &req->level) != 0) {
            return -1;
        }
        req->kind = STATUS_REQ_LOG;
    } else if (kn == 1 && k[0] == 'r') {
        int r;
        if (parse_level(v, vn, &r) != 0 || r < 0 || r > 3600) {
            return -1;
        }
        req->refresh = r;
    } else {
        return -1;
    }
    return 0;
}

void status_parse_target(const char *target, struct status_request *req)
{
    memset(req, 0, sizeof(*req));
    req->kind = STATUS_REQ_PAGE;
    req->fmt = STATUS_HTML;
    if (target[0] != '/' || (target[1] != '\0' && target[1] != '?')) {
        req->kind = STATUS_REQ_UNKNOWN;
        return;
    }
    const char *p = target[1] == '?' ? target + 2 : target + 1;
    while (*p != '\0') {
        size_t n = strcspn(p, "&");
        const char *eq = memchr(p, '=', n);
        if (n > 0 && (eq == NULL || parse_param(p, (size_t)(eq - p), eq + 1,
                                                n - (size_t)(eq - p) - 1, req) != 0)) {
            req->kind = STATUS_REQ_UNKNOWN;
            return;
        }
        p += n + (p[n] == '&');
    }
}
