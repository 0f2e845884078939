/* Private to ccnd/face: the face record and the table, shared by the files
 * that implement each kind. */
#ifndef CCND_FACE_INTERNAL_H
#define CCND_FACE_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

#include "face/face.h"
#include "face/framer.h"

#include <ccnx/hashtab.h>

/* One queued message: its bytes are at p, either the data that follows
 * the header or, borrowed, where the message lies in the input buffer of
 * the stream face being read (see face_borrow_begin). */
struct face_msg {
    struct face_msg *next;
    const uint8_t *p;
    size_t len;
    size_t off; /* bytes already written (streams) */
    uint8_t data[];
};

struct face;

/* What a kind of face does its own way. Each kind's file defines its
 * table; the rest of the face layer calls through it and never asks which
 * kind a face is. */
struct face_ops {
    enum face_kind kind;
    /* Writes queued output; may destroy the face. NULL: it sends nothing. */
    void (*flush)(struct face *f);
    /* Releases what the kind holds: sockets, files, its peers, its state. */
    void (*close)(struct face *f);
    /* The periodic check (loop time `now`): a stall, idleness. May destroy
     * the face. NULL: nothing to check. */
    void (*sweep)(struct face *f, uint64_t now);
    /* Stream input: bytes just read; a close reason, or -1 to go on. */
    int (*input)(struct face *f, const uint8_t *p, size_t n);
    /* Stream input: the peer closed; a close reason, or -1 to go on. */
    int (*eof)(struct face *f);
    /* The uid of the local process at the other end (0), or
     * CCNX_E_NOTFOUND. NULL: never known. */
    int (*peer_uid)(struct face *f, int64_t *uid);
    /* The socket it sends through, for its local address. NULL: f->fd. */
    int (*send_fd)(const struct face *f);
    /* Listeners pause and resume their own read interest. */
    int manages_read;
};

struct face {
    struct face_table *ft;
    const struct face_ops *ops; /* its kind */
    unsigned faceid;
    unsigned flags;
    int fd;                       /* own socket; -1 for UDP peers (they use their socket's) */
    unsigned sock;                /* listener / bound UDP socket this face came through */
    struct sockaddr_storage addr; /* remote address (group for multicast) */
    socklen_t addrlen;
    char remote[FACE_ADDR_TEXT];
    struct framer_stream in;
    struct face_msg *qhead, *qtail;
    size_t queued;
    uint64_t last_rx;       /* loop time of the last input */
    uint64_t last_progress; /* loop time output last moved (or was first queued) */
    uint64_t last_msg;      /* loop time of the last whole message in (or of the face's making) */
    int guarded;            /* counted per address and held to the time limits (face_guard.c) */
    struct face_counters c;
    int last_errno;
    int64_t owner;       /* FACE_UID_NONE or the uid that made the face */
    int64_t peer_uid;    /* the peer process's uid; -1 unknown */
    int peer_uid_looked; /* peer_uid was looked up (found or not) */
    int dead;
    int dirty;     /* on the table's dirty list */
    int borrowing; /* on the table's list of faces holding borrowed messages */
    struct face *next_dead;
    struct face *next_dirty;
    struct face *next_borrowing;
    union { /* what one kind alone keeps */
        struct {
            char *path; /* a unix listener's socket file, removed on close if still ours */
            ino_t ino;
        } listener;
        struct {
            struct ccnx_hnode hn; /* in the table's UDP peers, by address */
            uint16_t pktseq;      /* link SequenceNumber to send next */
            int seqprobe;         /* send one to see if the peer plays */
        } udp;
        struct {
            int send_fd; /* the sending socket */
        } mcast;
        struct face_http *http; /* the request and reply state */
    } k;
};

struct face_table {
    struct loop *loop;
    struct face_config cfg;
    struct face_callbacks cb;
    struct face **slots;
    unsigned nslots;
    unsigned rover;
    unsigned gen;
    unsigned depth;     /* nesting of callbacks: faces are freed at depth 0 */
    struct face *grave; /* closed faces waiting to be freed */
    struct face *dirty; /* faces given output inside a callback, flushed on leaving it */
    /* Messages inside [borrow_lo, borrow_hi) are queued without a copy */
    uintptr_t borrow_lo, borrow_hi;
    struct face *borrowing;
    struct loop_timer sweep;
    struct loop_timer resume;   /* listeners paused when out of fds */
    int reserve_fd;             /* spare fd released to shed a connection under EMFILE */
    unsigned udp_sock[2];       /* bound UDP sockets: [0] IPv4, [1] IPv6 */
    unsigned udp_accepted;      /* UDP peer faces made for senders (FACE_F_ACCEPTED) */
    unsigned udp_evict_cursor;  /* the slot the last eviction scan ended at */
    struct ccnx_htab udp_peers; /* every UDP peer face, by its socket and address */
    struct ccnx_htab per_addr;  /* connections from other hosts, counted by address */
    uint8_t *dgram;             /* receive buffer for one datagram */
    face_http_fn http_fn;       /* status page handler, or NULL */
    void *http_arg;
};

#define FACE_DGRAM_MAX 65536

/* face_table.c */
struct face *face_new(struct face_table *ft, const struct face_ops *ops, unsigned flags, int fd);
struct face *face_lookup(const struct face_table *ft, unsigned faceid);
void face_announce(struct face *f);
/* Undoes face_new for a face never announced (setup failed). */
void face_discard(struct face *f);
void face_destroy(struct face *f, enum face_close_reason why);
void face_enter(struct face_table *ft);
void face_leave(struct face_table *ft);
/* While a stream face's read is dispatched (inside a callback), messages
 * that lie in its input buffer p[0..n) are queued by reference: forwarding
 * an object then costs no copy when it goes out before the buffer moves.
 * face_borrow_end, called before the buffer is written again, sends what
 * the sockets take and copies what is still queued. */
void face_borrow_begin(struct face_table *ft, const uint8_t *p, size_t n);
void face_borrow_end(struct face_table *ft);
void face_framed(struct face *f, const struct framer_counts *before,
                 const struct framer_counts *after);
struct framer_sink face_sink(struct face *f, struct framer_counts *counts);
void face_watch_update(struct face *f);
/* Appends m (its bytes at m->p, m->len of them) to f's output queue: the
 * one way onto a queue, for ccnb messages and HTTP replies alike. */
void face_queue_push(struct face *f, struct face_msg *m);
/* Drops n messages from the head; `sent` counts them as output. */
void face_queue_pop(struct face *f, size_t n, int sent);

/* face_addr.c */
void face_addr_text(const struct sockaddr *sa, socklen_t len, char *out, size_t outlen);
unsigned face_addr_flags(const struct sockaddr *sa);
/* Mixes an IPv4 or IPv6 address's bytes (and its port when with_port)
 * into h; put the result through ccnx_hash_mix before using it. */
uint64_t face_addr_hash(uint64_t h, const struct sockaddr *sa, int with_port);
int face_addr_equal(const struct sockaddr *a, socklen_t alen, const struct sockaddr *b,
                    socklen_t blen);
int face_set_nonblock(int fd);

/* face_guard.c: limits on connections from other hosts */
/* 1 when the limits apply to a face with these flags (not from this host). */
int face_guard_applies(const struct face_table *ft, unsigned flags);
/* 1 when a connection (descriptor fd, from sa) may be accepted: within the
 * descriptor reserve and the bound per address. */
int face_guard_admit(struct face_table *ft, int fd, const struct sockaddr *sa, unsigned flags);
/* Counts an accepted connection (f->addr set) and turns TCP keepalive on. */
void face_guard_add(struct face *f);
/* Uncounts it (on close); nothing for a face never counted. */
void face_guard_remove(struct face *f);
/* Closes a counted connection past its time limits. */
void face_guard_sweep(struct face *f, uint64_t now);
void face_guard_free(struct face_table *ft);

/* face_stream.c: what the HTTP kind shares with the stream kinds */
void face_stream_flush(struct face *f);
void face_stream_close(struct face *f);
void face_stream_sweep(struct face *f, uint64_t now);

/* face_http.c */
/* 1 when the first bytes of an accepted stream face start an HTTP request
 * (and a handler is set): the face then becomes an HTTP face. */
int face_http_claims(const struct face *f, const uint8_t *p, size_t n);
/* Turns an accepted stream face into an HTTP face; 0, or CCNX_E_NOMEM. */
int face_http_take(struct face *f);

/* face_cred.c */
/* The peer's uid on a unix stream socket. */
int face_cred_unix(int fd, int64_t *uid);
/* The owner of the socket at the other end of a loopback TCP connection. */
int face_cred_tcp(const struct face *f, int64_t *uid);

#endif
