/* What the fw files share: the forwarder, its per-Interest records, the
 * per-prefix memory and the strategy context. Nothing outside ccnd/fw
 * includes this. */
#ifndef CCND_FW_INTERNAL_H
#define CCND_FW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>

#include "fw/fw.h"
#include "fw/strategy.h"
#include <ccnx/heap.h>

struct pit_entry;

/* A strategy's memory for one registered prefix (and one strategy: a
 * change of strategy starts afresh). It hangs on the prefix's FIB node
 * and goes with it; the records using it hold it until they are done. */
struct fw_pstate {
    struct fw *fw;
    const struct strategy *strategy;
    /* the prefix's response time (first sends only, as Karn's rule asks),
     * microseconds; 0 until the first sample */
    uint32_t srtt, rttvar;
    uint32_t refs; /* records using it */
    int orphan;    /* its prefix left the FIB: freed with its last record */
    union {
        max_align_t align;
        uint8_t bytes[STRATEGY_STATE_SIZE];
    } mem;
};

struct fw_sched {
    unsigned faceid;
    uint64_t due;
};

/* The forwarding side of one PIT entry: the table knows downstreams and
 * sends, this knows what the strategy asked for and where to send. It
 * hangs on the entry's owner slot, and every removal of an entry goes
 * through fw (records are dropped first). */
struct fw_rec {
    struct pit_entry *entry;
    struct fw_rec *prev, *next; /* every record, for fw_destroy */
    const struct strategy *strategy;
    struct fw_pstate *ps;
    /* sched, faces and msg are one allocation, owned through sched */
    struct fw_sched *sched; /* pending strategy_schedule sends, at most nfaces */
    size_t nsched;
    unsigned *faces; /* candidate upstreams */
    size_t nfaces;
    uint8_t *msg; /* the Interest as forwarded (with a nonce) */
    size_t len;
    uint64_t timer;    /* on_timer deadline, UINT64_MAX when none */
    uint32_t retx_gap; /* microseconds a retransmission waits after the last send; 0: not yet set */
    struct fw_pub *pub; /* the publisher prefix counted, NULL when none */
    /* in fw->due while a send or the timer is pending; its `when` may be
     * earlier than the record's real deadline (sends done early), never later */
    struct ccnx_heap_node due;
};

struct strategy_ctx {
    struct fw *fw;
    struct fw_rec *rec;
    uint64_t now;
};

struct fw {
    struct fw_config cfg;
    const struct fw_ops *ops;
    void *arg;
    struct cs *cs;
    struct pit *pit;
    struct fib *fib;
    struct nonce_table *nonces;
    struct fw_stats stats;
    uint64_t rng;
    struct ccnx_buf scratch; /* an arriving Interest with our nonce added (never re-entered) */
    /* records: on their PIT entries, in one list, and by deadline */
    struct fw_rec *recs;
    size_t nrecs;
    struct ccnx_heap due;
    uint64_t housekeeping_due; /* next round of the tables' expiry */
    uint64_t expiring_now;     /* `now` of the round under way, for the expiry hook */
    /* strategy memory when no prefix is registered (the others' is on the FIB) */
    struct fw_pstate *root_state;
    size_t npstates; /* strategy memories alive (the root's included) */
    /* the internal client */
    int (*internal)(void *arg, unsigned faceid, const uint8_t *interest, size_t len);
    void *internal_arg;
    uint8_t **iprefix;
    size_t *iprefix_len;
    size_t niprefix;
    /* publisher reports: FW_PUB_MAX slots, allocated on first use */
    struct fw_pub *pubs;
    size_t npubs;
};

/* fw_rec.c: frees a record's memory (fw_rec_remove also unlinks it). */
void fw_rec_free_mem(struct fw_rec *r);
/* fw_content.c: the ContentObject pipeline. */
void fw_content(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len, int store,
                uint64_t now);
/* fw_rec.c: sends the record's Interest to faceid (counted, recorded in the PIT). */
int fw_rec_send(struct fw *fw, struct fw_rec *rec, unsigned faceid, uint64_t now);
/* fw_rec.c: records that something of the record is due at `when`. */
void fw_note_deadline(struct fw *fw, struct fw_rec *rec, uint64_t when);
uint32_t fw_random(struct fw *fw);
/* fw_rec.c: a message to a face (face 0: the internal client); 0 or <0, counted. */
int fw_send_to(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len);
int fw_face_is_local(struct fw *fw, unsigned faceid);
struct fw_rec *fw_rec_find(struct fw *fw, const struct pit_entry *e);
struct fw_rec *fw_rec_add(struct fw *fw, struct pit_entry *e);
void fw_rec_remove(struct fw *fw, struct fw_rec *r);
/* fw_pub.c: the counted prefix that is the first `comps` components of
 * the encoded Name, or NULL. */
struct fw_pub *fw_pub_match(struct fw *fw, const uint8_t *name, size_t len, uint32_t comps);
void fw_pub_free(struct fw *fw);
/* fw_pstate.c: a response time measured under the prefix. */
void fw_pstate_sample(struct fw_pstate *ps, uint64_t rtt);
/* fw_interest.c: the Interest pipeline. */
void fw_interest(struct fw *fw, unsigned faceid, const uint8_t *msg, size_t len, uint64_t now);
/* fw_pstate.c: the memory of `strategy` in the FIB's slot (NULL: no
 * registered prefix), made when absent; NULL when out of memory. */
struct fw_pstate *fw_pstate_get(struct fw *fw, void **slot, const struct strategy *strategy);
/* A record starts or stops using ps (ps may be NULL). */
void fw_pstate_hold(struct fw_pstate *ps);
void fw_pstate_drop(struct fw_pstate *ps);
/* The FIB's hook: the prefix of ps left the table. */
void fw_pstate_release(void *ps);

#endif
