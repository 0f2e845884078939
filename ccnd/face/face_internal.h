/* Private to ccnd/face: the face record and the table, shared by the files
 * that implement each kind. */
#ifndef CCND_FACE_INTERNAL_H
#define CCND_FACE_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

#include "face/face.h"
#include "face/framer.h"

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

struct face {
    struct face_table *ft;
    unsigned faceid;
    enum face_kind kind;
    unsigned flags;
    int fd;                       /* own socket; -1 for unicast UDP faces (they use sock's) */
    int send_fd;                  /* multicast: the sending socket */
    unsigned sock;                /* listener / bound UDP socket this face came through */
    struct sockaddr_storage addr; /* remote address (group for multicast) */
    socklen_t addrlen;
    char remote[FACE_ADDR_TEXT];
    char *unix_path; /* listener's socket file, removed on close if still ours */
    ino_t unix_ino;
    struct framer_stream in;
    struct face_msg *qhead, *qtail;
    size_t queued;
    uint64_t last_rx;       /* loop time of the last input */
    uint64_t last_progress; /* loop time output last moved (or was first queued) */
    uint16_t pktseq;
    int seqprobe; /* send one SequenceNumber to see if the peer plays */
    struct face_counters c;
    int last_errno;
    int dead;
    int dirty;     /* on the table's dirty list */
    int borrowing; /* on the table's list of faces holding borrowed messages */
    struct face *next_dead;
    struct face *next_dirty;
    struct face *next_borrowing;
    struct face_http *http; /* set once the face turned out to speak HTTP */
    int64_t owner;          /* FACE_UID_NONE or the uid that made the face */
    int64_t peer_uid;       /* the peer process's uid; -1 unknown */
    int peer_uid_looked;    /* peer_uid was looked up (found or not) */
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
    struct loop_timer resume; /* listeners paused when out of fds */
    int reserve_fd;           /* spare fd released to shed a connection under EMFILE */
    unsigned udp_sock[2];     /* bound UDP sockets: [0] IPv4, [1] IPv6 */
    unsigned udp_accepted;    /* UDP peer faces made for senders (FACE_F_ACCEPTED) */
    uint8_t *dgram;           /* receive buffer for one datagram */
    face_http_fn http_fn;     /* status page handler, or NULL */
    void *http_arg;
};

#define FACE_DGRAM_MAX 65536

/* face_table.c */
struct face *face_new(struct face_table *ft, enum face_kind kind, unsigned flags, int fd);
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
/* Drops n messages from the head; `sent` counts them as output. */
void face_queue_pop(struct face *f, size_t n, int sent);

/* face_addr.c */
void face_addr_text(const struct sockaddr *sa, socklen_t len, char *out, size_t outlen);
unsigned face_addr_flags(const struct sockaddr *sa);
int face_addr_equal(const struct sockaddr *a, socklen_t alen, const struct sockaddr *b,
                    socklen_t blen);
int face_set_nonblock(int fd);

/* face_stream.c */
void face_stream_flush(struct face *f);
void face_stream_close(struct face *f);

/* face_http.c */
/* 1 when the first bytes of an accepted TCP face start an HTTP request. */
int face_http_claims(const struct face *f, const uint8_t *p, size_t n);
/* Bytes read on an HTTP face; a close reason, or -1 to keep reading. */
int face_http_input(struct face *f, const uint8_t *p, size_t n);
/* Read EOF on an HTTP face: a close reason, or -1 while the reply is unsent. */
int face_http_eof(struct face *f);
/* After each flush: closes the write side once the reply is out. */
void face_http_flushed(struct face *f);
void face_http_free(struct face *f);

/* face_udp.c */
void face_dgram_flush(struct face *f);
void face_udp_close(struct face *f);

#endif
