/* The face table: faceid allocation, lookup, output queues, closing and the
 * periodic sweep for stalled and idle faces. */
#define _GNU_SOURCE
#include "face/face_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ccnx/error.h>

#define FACE_SLOT_MASK ((1u << FACE_SLOT_BITS) - 1)

void face_config_default(struct face_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->max_message = 65536;
    cfg->queue_limit = (size_t)1 << 20;
    cfg->stall_timeout_us = 30u * 1000000u;
    cfg->udp_idle_timeout_us = 60u * 1000000u;
    cfg->max_udp_peers = 1024;
    cfg->sweep_interval_us = 1000000u;
    cfg->udp_seq = FACE_SEQ_PROBE;
    cfg->listen_backlog = 128;
    cfg->fd_reserve = 64;
    cfg->max_per_address = 64;
    cfg->partial_timeout_us = 10u * 1000000u;
    cfg->silent_timeout_us = 60u * 1000000u;
    cfg->tcp_idle_timeout_us = 900u * 1000000u;
}

static void face_sweep(struct loop *loop, void *arg);

struct face_table *face_table_create(struct loop *loop, const struct face_config *cfg,
                                     const struct face_callbacks *cb)
{
    struct face_table *ft = calloc(1, sizeof(*ft));
    if (ft == NULL) {
        return NULL;
    }
    ft->loop = loop;
    if (cfg != NULL) {
        ft->cfg = *cfg;
    } else {
        face_config_default(&ft->cfg);
    }
    if (cb != NULL) {
        ft->cb = *cb;
    }
    ft->dgram = malloc(FACE_DGRAM_MAX);
    ft->udp_sock[0] = ft->udp_sock[1] = FACE_NONE;
    int peers = ccnx_htab_init(&ft->udp_peers, 16);
    peers = peers == 0 ? ccnx_htab_init(&ft->per_addr, 16) : peers;
    ft->rover = 1;
    ft->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    loop_timer_init(&ft->sweep, face_sweep, ft);
    if (ft->dgram == NULL || peers != 0 ||
        loop_timer_start(loop, &ft->sweep, ft->cfg.sweep_interval_us, ft->cfg.sweep_interval_us) !=
            0) {
        free(ft->dgram);
        ccnx_htab_free(&ft->udp_peers);
        ccnx_htab_free(&ft->per_addr);
        if (ft->reserve_fd >= 0) {
            close(ft->reserve_fd);
        }
        free(ft);
        return NULL;
    }
    return ft;
}

static void face_free(struct face *f)
{
    struct face_msg *m = f->qhead;
    while (m != NULL) {
        struct face_msg *next = m->next;
        free(m);
        m = next;
    }
    framer_stream_free(&f->in);
    free(f);
}

static void grave_empty(struct face_table *ft)
{
    while (ft->grave != NULL) {
        struct face *f = ft->grave;
        ft->grave = f->next_dead;
        face_free(f);
    }
}

void face_enter(struct face_table *ft)
{
    ft->depth++;
}

static void face_flush(struct face *f);

/* Output queued while a callback ran goes out in one write per face: a read
 * that brings many Interests costs one sendmsg per answering face, not one
 * per answer. */
static void dirty_flush(struct face_table *ft)
{
    while (ft->dirty != NULL) {
        struct face *f = ft->dirty;
        ft->dirty = f->next_dirty;
        f->dirty = 0;
        if (!f->dead && !(f->flags & FACE_F_CONNECTING)) {
            face_flush(f);
        }
    }
}

void face_leave(struct face_table *ft)
{
    if (ft->depth == 1) {
        dirty_flush(ft); /* still inside: a face it closes goes to the grave */
    }
    if (--ft->depth == 0) {
        grave_empty(ft);
    }
}

void face_borrow_begin(struct face_table *ft, const uint8_t *p, size_t n)
{
    if (ft->depth > 0) { /* outside a callback nothing is queued for later */
        ft->borrow_lo = (uintptr_t)p;
        ft->borrow_hi = (uintptr_t)p + n;
    }
}

/* Replaces f's borrowed messages by copies; a face that cannot get the
 * memory is closed (a partly written message cannot be dropped from a
 * stream). */
static void queue_own(struct face *f)
{
    struct face_msg **pp = &f->qhead, *prev = NULL;
    while (*pp != NULL) {
        struct face_msg *m = *pp;
        if (m->p != m->data) {
            struct face_msg *c = malloc(sizeof(*c) + m->len);
            if (c == NULL) {
                face_destroy(f, FACE_CLOSE_ERROR);
                return;
            }
            memcpy(c->data, m->p, m->len);
            *c = (struct face_msg){m->next, c->data, m->len, m->off};
            *pp = c;
            free(m);
            m = c;
        }
        prev = m;
        pp = &m->next;
    }
    f->qtail = prev;
}

void face_borrow_end(struct face_table *ft)
{
    ft->borrow_lo = ft->borrow_hi = 0;
    if (ft->borrowing == NULL) {
        return;
    }
    dirty_flush(ft);
    while (ft->borrowing != NULL) {
        struct face *f = ft->borrowing;
        ft->borrowing = f->next_borrowing;
        f->borrowing = 0;
        if (!f->dead) {
            queue_own(f);
        }
    }
}

void face_batch_begin(struct face_table *ft)
{
    face_enter(ft);
}

void face_batch_end(struct face_table *ft)
{
    face_leave(ft);
}

void face_table_destroy(struct face_table *ft)
{
    if (ft == NULL) {
        return;
    }
    face_enter(ft);
    for (unsigned i = 0; i < ft->nslots; i++) {
        if (ft->slots[i] != NULL) {
            face_destroy(ft->slots[i], FACE_CLOSE_SHUTDOWN);
        }
    }
    face_leave(ft);
    loop_timer_stop(ft->loop, &ft->sweep);
    loop_timer_stop(ft->loop, &ft->resume);
    if (ft->reserve_fd >= 0) {
        close(ft->reserve_fd);
    }
    free(ft->slots);
    free(ft->dgram);
    ccnx_htab_free(&ft->udp_peers);
    face_guard_free(ft);
    free(ft);
}

/* Picks a free slot after the rover so ids are not reused at once; a wrap
 * to the start bumps the generation, like the reference. Slot 0 is kept free. */
static int slot_alloc(struct face_table *ft, unsigned *slot)
{
    for (unsigned i = ft->rover; i < ft->nslots; i++) {
        if (ft->slots[i] == NULL) {
            *slot = i;
            return 0;
        }
    }
    for (unsigned i = 1; i < ft->rover && i < ft->nslots; i++) {
        if (ft->slots[i] == NULL) {
            ft->gen += FACE_SLOT_MASK + 1;
            *slot = i;
            return 0;
        }
    }
    unsigned n = ft->nslots ? ft->nslots * 2 : 16;
    if (n > FACE_SLOT_MASK + 1) {
        n = FACE_SLOT_MASK + 1;
    }
    if (n <= ft->nslots) {
        return CCNX_E_NOMEM;
    }
    struct face **s = realloc(ft->slots, n * sizeof(*s));
    if (s == NULL) {
        return CCNX_E_NOMEM;
    }
    memset(s + ft->nslots, 0, (n - ft->nslots) * sizeof(*s));
    *slot = ft->nslots > 0 ? ft->nslots : 1;
    ft->slots = s;
    ft->nslots = n;
    return 0;
}

struct face *face_new(struct face_table *ft, const struct face_ops *ops, unsigned flags, int fd)
{
    unsigned slot;
    struct face *f = calloc(1, sizeof(*f));
    if (f == NULL || slot_alloc(ft, &slot) != 0) {
        free(f);
        return NULL;
    }
    f->ft = ft;
    f->ops = ops;
    f->flags = flags;
    f->fd = fd;
    f->sock = FACE_NONE;
    f->owner = FACE_UID_NONE;
    f->peer_uid = -1;
    f->faceid = slot | ft->gen;
    f->last_rx = f->last_progress = f->last_msg = loop_now(ft->loop);
    framer_stream_init(&f->in, ft->cfg.max_message);
    ft->slots[slot] = f;
    ft->rover = slot + 1;
    return f;
}

void face_discard(struct face *f)
{
    f->ft->slots[f->faceid & FACE_SLOT_MASK] = NULL;
    if (f->fd >= 0) {
        close(f->fd);
    }
    face_free(f);
}

void face_announce(struct face *f)
{
    if (f->ft->cb.created != NULL) {
        f->ft->cb.created(f->ft->cb.arg, f->faceid);
    }
}

struct face *face_lookup(const struct face_table *ft, unsigned faceid)
{
    unsigned slot = faceid & FACE_SLOT_MASK;
    if (slot >= ft->nslots) {
        return NULL;
    }
    struct face *f = ft->slots[slot];
    if (f == NULL || f->faceid != faceid || f->dead) {
        return NULL;
    }
    return f;
}

static void fill_info(const struct face *f, struct face_info *info)
{
    memset(info, 0, sizeof(*info));
    info->faceid = f->faceid;
    info->kind = f->ops->kind;
    info->flags = f->flags;
    memcpy(info->remote, f->remote, sizeof(info->remote));
    info->counters = f->c;
    info->queued_bytes = f->queued;
    info->listener = f->sock;
    info->last_errno = f->last_errno;
    info->owner = f->owner;
}

int face_get_flags(const struct face_table *ft, unsigned faceid, unsigned *flags)
{
    const struct face *f = face_lookup(ft, faceid);
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    *flags = f->flags;
    return 0;
}

int face_get_info(const struct face_table *ft, unsigned faceid, struct face_info *info)
{
    const struct face *f = face_lookup(ft, faceid);
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    fill_info(f, info);
    return 0;
}

unsigned face_next(const struct face_table *ft, unsigned after)
{
    unsigned slot = after == FACE_NONE ? 0 : (after & FACE_SLOT_MASK) + 1;
    for (; slot < ft->nslots; slot++) {
        const struct face *f = ft->slots[slot];
        if (f != NULL && !f->dead) {
            return f->faceid;
        }
    }
    return FACE_NONE;
}

/* Unlinks the face from the table at once (its id becomes unknown), tells
 * the owner, and frees it when no callback can still hold it. */
void face_destroy(struct face *f, enum face_close_reason why)
{
    struct face_table *ft = f->ft;
    if (f->dead) {
        return;
    }
    f->dead = 1;
    f->ops->close(f);
    ft->slots[f->faceid & FACE_SLOT_MASK] = NULL;
    if (ft->cb.destroyed != NULL) {
        struct face_info info;
        fill_info(f, &info);
        ft->cb.destroyed(ft->cb.arg, f->faceid, why, &info);
    }
    f->next_dead = ft->grave;
    ft->grave = f;
    if (ft->depth == 0) {
        grave_empty(ft);
    }
}

int face_close(struct face_table *ft, unsigned faceid)
{
    struct face *f = face_lookup(ft, faceid);
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    face_enter(ft);
    face_destroy(f, FACE_CLOSE_REQUESTED);
    face_leave(ft);
    return 0;
}

int face_set_permanent(struct face_table *ft, unsigned faceid, int permanent)
{
    struct face *f = face_lookup(ft, faceid);
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    if (permanent) {
        f->flags |= FACE_F_PERMANENT;
    } else {
        f->flags &= ~FACE_F_PERMANENT;
    }
    return 0;
}

int face_set_owner(struct face_table *ft, unsigned faceid, int64_t uid)
{
    struct face *f = face_lookup(ft, faceid);
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    f->owner = uid;
    return 0;
}

/* ---- input accounting ---- */

static void deliver(void *arg, const uint8_t *msg, size_t len)
{
    struct face *f = arg;
    if (f->dead) {
        return; /* closed by an earlier message of the same read */
    }
    f->c.msgs_in++;
    f->last_msg = loop_now(f->ft->loop);
    if (f->ft->cb.message != NULL) {
        f->ft->cb.message(f->ft->cb.arg, f->faceid, msg, len);
    }
}

struct framer_sink face_sink(struct face *f, struct framer_counts *counts)
{
    struct framer_sink s = {deliver, f, counts};
    return s;
}

/* Moves what framing counted into the face's counters. */
void face_framed(struct face *f, const struct framer_counts *b, const struct framer_counts *a)
{
    f->c.link_seq_in += a->link_seq - b->link_seq;
    f->c.drops[FACE_DROP_MALFORMED] += a->malformed - b->malformed;
    f->c.drops[FACE_DROP_OVERSIZE] += a->oversize - b->oversize;
    f->c.drops[FACE_DROP_PARTIAL] += a->partial - b->partial;
    f->c.drops[FACE_DROP_UNWRAP] += a->unwrap - b->unwrap;
}

/* ---- output ---- */

void face_watch_update(struct face *f)
{
    if (f->fd < 0 || f->dead) {
        return;
    }
    unsigned ev = LOOP_READ;
    if (f->qhead != NULL || (f->flags & FACE_F_CONNECTING)) {
        ev |= LOOP_WRITE;
    }
    if (f->ops->manages_read) {
        return; /* listeners manage their own (pausable) read interest */
    }
    loop_io_set(f->ft->loop, f->fd, ev);
}

void face_queue_pop(struct face *f, size_t n, int sent)
{
    while (n-- > 0 && f->qhead != NULL) {
        struct face_msg *m = f->qhead;
        f->qhead = m->next;
        if (f->qhead == NULL) {
            f->qtail = NULL;
        }
        f->queued -= m->len;
        f->c.msgs_out += sent != 0;
        free(m);
    }
}

static void face_flush(struct face *f)
{
    if (f->ops->flush != NULL) {
        f->ops->flush(f);
    }
}

void face_queue_push(struct face *f, struct face_msg *m)
{
    m->next = NULL;
    if (f->qtail != NULL) {
        f->qtail->next = m;
    } else {
        f->qhead = m;
        f->last_progress = loop_now(f->ft->loop); /* the stall clock starts now */
    }
    f->qtail = m;
    f->queued += m->len;
}

int face_send(struct face_table *ft, unsigned faceid, const uint8_t *msg, size_t len)
{
    struct face *f = face_lookup(ft, faceid);
    if (f == NULL || (f->flags & FACE_F_PASSIVE)) {
        return CCNX_E_NOTFOUND;
    }
    if (f->flags & FACE_F_NOSEND) {
        f->c.drops[FACE_DROP_QUEUE]++;
        return CCNX_E_IO;
    }
    if (len == 0 || len > ft->cfg.max_message) {
        f->c.drops[FACE_DROP_OVERSIZE]++;
        return CCNX_E_TOOBIG;
    }
    if (f->queued + len > ft->cfg.queue_limit) {
        f->c.drops[FACE_DROP_QUEUE]++;
        return FACE_E_QUEUE_FULL;
    }
    int borrow = (uintptr_t)msg >= ft->borrow_lo && (uintptr_t)msg + len <= ft->borrow_hi;
    struct face_msg *m = malloc(sizeof(*m) + (borrow ? 0 : len));
    if (m == NULL) {
        f->c.drops[FACE_DROP_QUEUE]++;
        return CCNX_E_NOMEM;
    }
    if (borrow) {
        m->p = msg;
        if (!f->borrowing) {
            f->borrowing = 1;
            f->next_borrowing = ft->borrowing;
            ft->borrowing = f;
        }
    } else {
        memcpy(m->data, msg, len);
        m->p = m->data;
    }
    m->len = len;
    m->off = 0;
    face_queue_push(f, m);
    if ((f->flags & FACE_F_CONNECTING) || f->qhead != m) {
        return 0; /* the socket's watcher or a pending flush writes it */
    }
    if (ft->depth > 0) {
        if (!f->dirty) {
            f->dirty = 1;
            f->next_dirty = ft->dirty;
            ft->dirty = f;
        }
        return 0;
    }
    face_enter(ft);
    face_flush(f); /* outside any callback: write at once */
    face_leave(ft);
    return 0;
}

/* ---- sweep ---- */

static void face_sweep(struct loop *loop, void *arg)
{
    struct face_table *ft = arg;
    uint64_t now = loop_now(loop);
    face_enter(ft);
    for (unsigned i = 0; i < ft->nslots; i++) {
        struct face *f = ft->slots[i];
        if (f != NULL && f->ops->sweep != NULL) {
            f->ops->sweep(f, now);
        }
    }
    face_leave(ft);
}

const char *face_kind_name(enum face_kind kind)
{
    static const char *const names[] = {"unix-listener", "unix", "tcp-listener", "tcp",
                                        "udp-socket",    "udp",  "multicast",    "http"};
    if ((unsigned)kind < sizeof(names) / sizeof(names[0])) {
        return names[kind];
    }
    return "?";
}

const char *face_close_reason_name(enum face_close_reason why)
{
    static const char *const names[] = {"requested", "eof",  "error",    "malformed", "oversize",
                                        "stalled",   "idle", "shutdown", "evicted",   "silent"};
    if ((unsigned)why < sizeof(names) / sizeof(names[0])) {
        return names[why];
    }
    return "?";
}

int face_local_addr(const struct face_table *ft, unsigned faceid, struct sockaddr_storage *ss,
                    socklen_t *len)
{
    const struct face *f = face_lookup(ft, faceid);
    if (f == NULL) {
        return CCNX_E_NOTFOUND;
    }
    int fd = f->ops->send_fd != NULL ? f->ops->send_fd(f) : f->fd;
    if (fd < 0) {
        return CCNX_E_NOTFOUND;
    }
    *len = sizeof(*ss);
    if (getsockname(fd, (struct sockaddr *)ss, len) != 0) {
        return CCNX_E_IO;
    }
    return 0;
}
