/* The parts of a client shared by client.c (connection, loop, timers),
 * client_pending.c (expressed Interests) and client_filter.c (filters and
 * prefix registration). */
#ifndef CCNX_CLIENT_INTERNAL_H
#define CCNX_CLIENT_INTERNAL_H

#include <ccnx/ccnb.h>
#include <ccnx/client.h>
#include <ccnx/hashtab.h>
#include <ccnx/heap.h>

/* One timer; lives inside whatever it serves. Armed timers sit in the
 * client's deadline heap (when: the due time in ms); equal due times fire
 * in the order they were armed. */
struct client_timer {
    struct ccnx_heap_node node;
    ccnx_timer_fn fn;
    void *arg;
};

/* An expressed Interest waiting for content. Indexed twice: by a hash of its
 * name (components and their count) so arriving content finds candidates by
 * hashing its own prefixes, and by id for cancel. */
struct pending {
    uint64_t id;
    struct ccnx_client *owner;
    uint64_t name_hash;
    uint32_t name_count;
    int digest_last; /* last component may be an implicit digest (32 bytes) */
    int delivering;  /* taken out of the name index, callback due */
    int cancelled;   /* cancelled while delivering */
    int named;       /* in the name index */
    struct ccnx_hnode by_name, by_id;
    struct pending *list_next; /* on a list of Interests being delivered */
    struct client_timer timer;
    struct ccnx_express_opts opts;
    unsigned tries_left;
    int64_t attempt_end_ms; /* when the current attempt's time is up */
    int next_send_ms;       /* the re-expression schedule's next wait, 0: none */
    uint8_t *msg;
    size_t len;
    struct ccnx_interest_parsed pi;
};

struct pending_table {
    struct ccnx_htab by_name; /* hash: the name's (mixed) */
    struct ccnx_htab by_id;   /* hash: the id (mixed); its count is the table's */
    int ready;                /* the tables are allocated (on first use) */
    size_t digest_candidates; /* pending with digest_last set */
};

struct filter {
    uint64_t id;
    struct ccnx_client *owner;
    struct ccnx_name prefix;
    uint32_t prefix_count;
    int mode;
    int forw_flags;
    ccnx_interest_fn fn;
    void *arg;
    int state;           /* 1 registered, 0 waiting, negative: failed */
    uint64_t request_id; /* selfreg Interest in flight, 0 when none */
    int64_t face_id;     /* our face in ccnd's answer (unreg must name it), -1 */
    struct client_timer refresh;
    struct filter *next; /* longest prefix first */
};

struct user_timer {
    uint64_t id;
    struct ccnx_client *owner;
    ccnx_timer_fn fn;
    void *arg;
    struct client_timer timer;
    struct user_timer *next;
};

struct ccnx_client {
    int fd;
    int tcp;
    int reconnect;
    int stop;
    int in_process; /* writes wait for the end of _process */
    char where[160];
    char err[512];
    struct ccnx_buf in;
    size_t in_off;  /* start of the element being framed */
    size_t in_scan; /* bytes of it the skeleton decoder has seen */
    struct ccnx_skel skel;
    struct ccnx_buf out;
    size_t out_off;
    uint64_t next_id;
    struct ccnx_heap timers;
    struct client_timer reconnect_timer;
    struct pending_table pending;
    struct filter *filters;
    struct user_timer *user_timers;
    uint8_t ccndid[32];
    int have_ccndid;
    uint64_t key_request_id; /* ccnd KEY Interest in flight, 0 when none */
    struct ccnx_keystore *ks;
    int own_ks;
};

/* client.c */
void client_set_error(struct ccnx_client *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Before a timer's first use. */
void client_timer_init(struct client_timer *t, ccnx_timer_fn fn, void *arg);
/* (Re)arms t for `due` (ms); 0, or CCNX_E_NOMEM when the heap cannot grow. */
int client_timer_arm(struct ccnx_client *c, struct client_timer *t, int64_t due);
void client_timer_disarm(struct ccnx_client *c, struct client_timer *t);
/* Queues bytes for ccnd; nothing is queued while disconnected. */
int client_send(struct ccnx_client *c, const uint8_t *p, size_t n);

/* client_pending.c */
void pending_table_free(struct pending_table *t);
void pending_dispatch_content(struct ccnx_client *c, const uint8_t *obj, size_t len);
/* After a reconnection: every pending Interest goes out again. */
void pending_resend_all(struct ccnx_client *c);
/* Connection gone for good: every pending Interest times out. */
void pending_fail_all(struct ccnx_client *c);

/* client_filter.c */
void filter_dispatch_interest(struct ccnx_client *c, const uint8_t *msg, size_t len);
void filter_free_all(struct ccnx_client *c);
/* After a (re)connection: ccnd's id is learned again and prefixes re-registered. */
void filter_connection_reset(struct ccnx_client *c);

#endif
