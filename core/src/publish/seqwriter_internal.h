/* The seqwriter's state, shared by seqwriter.c (segmenting, signing, store)
 * and seqwriter_answer.c (Interests). Private to libccnx. */
#ifndef CCNX_SEQWRITER_INTERNAL_H
#define CCNX_SEQWRITER_INTERNAL_H

#include <ccnx/seqwriter.h>
#include <ccnx/content_sign.h>

#include <stddef.h>
#include <stdint.h>

/* One Merkle batch: consecutive segments first..first+n-1, back to back. */
struct sw_batch {
    uint64_t first;
    size_t n;
    struct ccnx_buf objs;
    size_t *off;      /* n + 1 offsets into objs */
    int64_t *sent_ms; /* per object: when last sent (client clock), 0 never */
    size_t unsent;
};

/* A remembered Interest for a segment not signed yet. */
struct sw_waiting {
    uint8_t *interest;
    size_t len;
    struct ccnx_interest_parsed pi;
    int64_t expires_ms;
};

struct ccnx_seqwriter {
    struct ccnx_client *client;
    struct ccnx_seqwriter_opts o;
    const struct ccnx_key *key;
    struct ccnx_name base;  /* as given: the filter's prefix */
    struct ccnx_name vname; /* versioned */
    uint64_t filter_id;
    uint64_t timer_id;
    int timer_armed;
    int closed;
    int failed; /* the error of a timer-driven signing, reported by the next write */

    struct ccnx_buf pending; /* written bytes not signed yet, from pending_head */
    size_t pending_head;
    /* Segment ends asked for by end_segment among the pending bytes, as
     * stream offsets (stats.bytes counts), ascending: [cut_head, cut_count). */
    uint64_t *cuts;
    size_t cut_head, cut_count, cut_cap;
    int ended;         /* the last byte written ends a segment (end_segment or flush) */
    uint64_t next_seg; /* number of the first segment not signed yet */

    struct sw_batch *batches; /* live ones are [batch_head, batch_count) */
    size_t batch_head, batch_count, batch_cap;
    size_t retained;        /* bytes of objects held */
    size_t retained_unsent; /* ... of which never sent */

    struct sw_waiting waiting[CCNX_SEQWRITER_MAX_WAITING];
    size_t waiting_count;
    /* While remembered Interests are answered: segments already sent in
     * this pass. ccnd gives one object to every pending Interest it
     * matches, so many viewers waiting for the same segment cost one send. */
    int in_pass;
    uint64_t pass_sent[CCNX_SEQWRITER_MAX_WAITING];
    size_t pass_count;

    /* scratch for signing */
    struct ccnx_content_params *params;
    size_t *name_off;
    size_t params_cap;
    struct ccnx_buf names;

    struct ccnx_seqwriter_stats stats;
    struct repo_wait *start_write; /* in flight (repo.c), or NULL */
};

int64_t sw_now_ms(void);
const struct sw_batch *sw_find_batch(const struct ccnx_seqwriter *w, uint64_t seg);
uint64_t sw_first_held(const struct ccnx_seqwriter *w);
/* Sends object i of batch b (which may be moved by the eviction that follows). */
int sw_send(struct ccnx_seqwriter *w, const struct sw_batch *b, size_t i);
int sw_sign_complete(struct ccnx_seqwriter *w, int all, size_t min);
/* Pending segments whose end is known (a block, or a cut), and where the
 * last of them ends in the pending bytes. */
size_t sw_complete_segments(const struct ccnx_seqwriter *w, size_t *end);

/* repo.c: forgets a start-write still in flight (no callback). */
void sw_cancel_start_write(struct ccnx_seqwriter *w);

/* seqwriter_answer.c */
int sw_answer_waiting(struct ccnx_seqwriter *w);
/* 1 when a remembered Interest asks for bytes already written but unsigned. */
int sw_waiting_wants_pending(const struct ccnx_seqwriter *w);
void sw_forget_waiting(struct ccnx_seqwriter *w);

#endif
