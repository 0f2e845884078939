/* What keeps peers on other hosts from taking the descriptors local
 * programs need (see face_internal.h):
 *
 *  - a reserve: a connection from another host is refused once the
 *    descriptor it got is within fd_reserve of the limit, so the unix
 *    listener and the status page (from this host) still accept;
 *  - a bound per remote address (max_per_address connections);
 *  - time limits on what an accepted connection from another host holds:
 *    part of a message for partial_timeout_us, no message at all for
 *    silent_timeout_us after its accept, or no message for
 *    tcp_idle_timeout_us while nothing holds it (in_use);
 *  - TCP keepalive, so a peer that vanished is found.
 *
 * Connections from this host (unix, loopback) are local programs': none
 * of this applies to them unless cfg.guard_loopback (for tests). */
#include "face/face_internal.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

#define KEEPALIVE_IDLE_S  60
#define KEEPALIVE_INTVL_S 10
#define KEEPALIVE_COUNT   6

/* Connections from one remote address. */
struct addr_count {
    struct ccnx_hnode hn;
    struct sockaddr_storage addr; /* the address, port zeroed */
    unsigned n;
};

#define COUNT_OF(x) CCNX_HTAB_ENTRY(x, struct addr_count, hn)

/* The host part of sa in *out (port zeroed); its hash. */
static uint64_t host_key(const struct sockaddr *sa, struct sockaddr_storage *out)
{
    memset(out, 0, sizeof *out);
    out->ss_family = sa->sa_family;
    if (sa->sa_family == AF_INET6) {
        ((struct sockaddr_in6 *)out)->sin6_addr = ((const struct sockaddr_in6 *)sa)->sin6_addr;
    } else {
        ((struct sockaddr_in *)out)->sin_addr = ((const struct sockaddr_in *)sa)->sin_addr;
    }
    uint64_t h = ccnx_hash_bytes(CCNX_HASH_INIT, &sa->sa_family, sizeof sa->sa_family);
    return ccnx_hash_mix(face_addr_hash(h, sa, 0));
}

static struct addr_count *count_find(const struct face_table *ft, const struct sockaddr *sa,
                                     uint64_t *hash, struct sockaddr_storage *key)
{
    *hash = host_key(sa, key);
    for (struct ccnx_hnode *x = ccnx_htab_chain(&ft->per_addr, *hash); x != NULL; x = x->next) {
        struct addr_count *c = COUNT_OF(x);
        if (x->hash == *hash && memcmp(&c->addr, key, sizeof *key) == 0) {
            return c;
        }
    }
    return NULL;
}

int face_guard_applies(const struct face_table *ft, unsigned flags)
{
    return !(flags & FACE_F_LOCAL) || (ft->cfg.guard_loopback && (flags & FACE_F_LOOPBACK));
}

int face_guard_admit(struct face_table *ft, int fd, const struct sockaddr *sa, unsigned flags)
{
    if (!face_guard_applies(ft, flags)) {
        return 1;
    }
    struct rlimit rl;
    if (ft->cfg.fd_reserve > 0 && getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
        rl.rlim_cur != RLIM_INFINITY && (rlim_t)fd + ft->cfg.fd_reserve >= rl.rlim_cur) {
        return 0; /* descriptors are allocated lowest first: fd counts those open */
    }
    uint64_t h;
    struct sockaddr_storage key;
    const struct addr_count *c = count_find(ft, sa, &h, &key);
    return c == NULL || ft->cfg.max_per_address == 0 || c->n < ft->cfg.max_per_address;
}

void face_guard_add(struct face *f)
{
    struct face_table *ft = f->ft;
    uint64_t h;
    struct sockaddr_storage key;
    struct addr_count *c = count_find(ft, (const struct sockaddr *)&f->addr, &h, &key);
    if (c == NULL) {
        c = calloc(1, sizeof *c);
        if (c == NULL) {
            return; /* uncounted: the bound is only a little looser */
        }
        c->addr = key;
        ccnx_htab_insert(&ft->per_addr, &c->hn, h);
    }
    c->n++;
    f->guarded = 1;
    int on = 1, idle = KEEPALIVE_IDLE_S, intvl = KEEPALIVE_INTVL_S, count = KEEPALIVE_COUNT;
    setsockopt(f->fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    setsockopt(f->fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(f->fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    setsockopt(f->fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

void face_guard_remove(struct face *f)
{
    if (!f->guarded) {
        return;
    }
    f->guarded = 0;
    uint64_t h;
    struct sockaddr_storage key;
    struct addr_count *c = count_find(f->ft, (const struct sockaddr *)&f->addr, &h, &key);
    if (c != NULL && --c->n == 0) {
        ccnx_htab_remove(&f->ft->per_addr, &c->hn);
        free(c);
    }
}

void face_guard_sweep(struct face *f, uint64_t now)
{
    const struct face_config *cfg = &f->ft->cfg;
    if (!f->guarded || f->dead) {
        return;
    }
    uint64_t quiet = now - f->last_msg;
    int partial = !framer_stream_idle(&f->in);
    if (partial && cfg->partial_timeout_us > 0 && quiet >= cfg->partial_timeout_us) {
        face_destroy(f, FACE_CLOSE_SILENT);
    } else if (f->c.msgs_in == 0) {
        if (cfg->silent_timeout_us > 0 && quiet >= cfg->silent_timeout_us) {
            face_destroy(f, FACE_CLOSE_SILENT);
        }
    } else if (cfg->tcp_idle_timeout_us > 0 && quiet >= cfg->tcp_idle_timeout_us &&
               (f->ft->cb.in_use == NULL || !f->ft->cb.in_use(f->ft->cb.arg, f->faceid))) {
        face_destroy(f, FACE_CLOSE_IDLE);
    }
}

void face_guard_free(struct face_table *ft)
{
    for (size_t i = 0; ft->per_addr.buckets != NULL && i <= ft->per_addr.mask; i++) {
        struct ccnx_hnode *x = ft->per_addr.buckets[i];
        while (x != NULL) {
            struct ccnx_hnode *next = x->next;
            free(COUNT_OF(x));
            x = next;
        }
    }
    ccnx_htab_free(&ft->per_addr);
}
