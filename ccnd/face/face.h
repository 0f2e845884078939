/* Faces: the forwarder's sockets. A face table owns listeners, stream
 * connections (unix, TCP), UDP sockets with one face per remote address and
 * multicast faces; it frames input into whole ccnb messages and delivers them
 * to a callback, and accepts messages to send into bounded output queues.
 *
 * It knows nothing of forwarding: faces are named by an unsigned faceid.
 * The low FACE_SLOT_BITS of a faceid are a slot, the rest a generation that
 * changes when slots are reused, so a stale id never names a newer face
 * (the reference forwarder's scheme). Slot 0 is never handed out: faceid 0
 * stays free for the forwarder's internal face, as in the reference.
 */
#ifndef CCND_FACE_H
#define CCND_FACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "loop/loop.h"

struct ccnx_face_instance; /* <ccnx/mgmt.h> */

#define FACE_SLOT_BITS 18
#define FACE_NONE      (~0u)

enum face_kind {
    FACE_KIND_UNIX_LISTENER,
    FACE_KIND_UNIX,
    FACE_KIND_TCP_LISTENER,
    FACE_KIND_TCP,
    FACE_KIND_UDP_SOCKET, /* the bound socket of one address family */
    FACE_KIND_UDP,        /* one remote address through that socket */
    FACE_KIND_MCAST,
    FACE_KIND_HTTP, /* an accepted stream face whose first bytes were an HTTP request */
};

/* Face flags (face_info.flags). */
#define FACE_F_LOCAL      (1u << 0)  /* unix socket or loopback address */
#define FACE_F_LOOPBACK   (1u << 1)  /* IPv4/IPv6 loopback peer */
#define FACE_F_INET       (1u << 2)  /* IPv4 */
#define FACE_F_INET6      (1u << 3)  /* IPv6 */
#define FACE_F_STREAM     (1u << 4)  /* byte stream, framed by the decoder */
#define FACE_F_DGRAM      (1u << 5)  /* datagrams */
#define FACE_F_MCAST      (1u << 6)  /* a party line */
#define FACE_F_PASSIVE    (1u << 7)  /* listener or bound UDP socket: no messages */
#define FACE_F_CONNECTING (1u << 8)  /* outbound TCP connect in progress */
#define FACE_F_PERMANENT  (1u << 9)  /* never reaped for idleness */
#define FACE_F_SEQOK      (1u << 10) /* SequenceNumber appended to datagrams */
#define FACE_F_ACCEPTED   (1u << 11) /* created by a peer (accept, first datagram) */
#define FACE_F_HTTP       (1u << 12) /* accepted TCP face that turned out to speak HTTP */
#define FACE_F_NOSEND     (1u << 13) /* the peer stopped reading: read to EOF, send nothing */

enum face_drop {
    FACE_DROP_MALFORMED, /* undecodable bytes (stream closed / datagram dropped) */
    FACE_DROP_OVERSIZE,  /* element larger than max_message, in or out */
    FACE_DROP_QUEUE,     /* output queue full */
    FACE_DROP_PARTIAL,   /* datagram ending inside an element */
    FACE_DROP_UNWRAP,    /* junk inside a CCNProtocolDataUnit */
    FACE_DROP_NO_PEER,   /* UDP socket: from a new peer, no whole message or no room */
    FACE_DROP_REFUSED,   /* listener: connection refused (descriptor reserve, per address) */
    FACE_DROP_COUNT
};

enum face_close_reason {
    FACE_CLOSE_REQUESTED, /* face_close */
    FACE_CLOSE_EOF,       /* peer closed */
    FACE_CLOSE_ERROR,     /* socket error (errno in face_info.last_errno) */
    FACE_CLOSE_MALFORMED, /* stream carried undecodable bytes */
    FACE_CLOSE_OVERSIZE,  /* stream carried an element beyond max_message */
    FACE_CLOSE_STALLED,   /* peer did not read its queue for stall_timeout_us */
    FACE_CLOSE_IDLE,      /* UDP peer silent for udp_idle_timeout_us, TCP peer for its own */
    FACE_CLOSE_SHUTDOWN,  /* face_table_destroy */
    FACE_CLOSE_EVICTED,   /* UDP peer closed to make room for a new sender (max_udp_peers) */
    FACE_CLOSE_SILENT,    /* TCP peer held part of a message, or sent none, past its time limit */
};

/* Link SequenceNumber policy on unicast UDP faces. */
enum face_seq_mode {
    FACE_SEQ_OFF,    /* never append */
    FACE_SEQ_PROBE,  /* reference behaviour: one probe, then only if the peer sends them */
    FACE_SEQ_ALWAYS, /* append to every datagram */
};

struct face_config {
    size_t max_message;           /* largest message in or out (bytes) */
    size_t queue_limit;           /* output queue bound per face (bytes) */
    uint64_t stall_timeout_us;    /* stream face with output stuck this long is closed */
    uint64_t udp_idle_timeout_us; /* unicast UDP face silent this long is reaped */
    unsigned max_udp_peers;       /* UDP peer faces made for senders, at most */
    uint64_t sweep_interval_us;   /* how often the two timeouts above are checked */
    enum face_seq_mode udp_seq;   /* SequenceNumber on unicast UDP */
    size_t mtu; /* CCND_MTU: queued messages packed into one datagram up to this many
                 * bytes (a larger message still goes alone); 0: one per datagram */
    int listen_backlog;
    /* Connections from other hosts (face_guard.c; 0 turns a limit off): */
    unsigned fd_reserve;          /* descriptors kept for this host's programs */
    unsigned max_per_address;     /* connections from one address at most */
    uint64_t partial_timeout_us;  /* holding part of a message this long closes it */
    uint64_t silent_timeout_us;   /* no message at all this long after accept closes it */
    uint64_t tcp_idle_timeout_us; /* no message this long, nothing holding it, closes it */
    int guard_loopback;           /* tests: loopback peers count as other hosts */
};

struct face_counters {
    uint64_t bytes_in, bytes_out;
    uint64_t msgs_in, msgs_out;
    uint64_t link_seq_in; /* SequenceNumber elements received and dropped */
    uint64_t drops[FACE_DROP_COUNT];
};

#define FACE_ADDR_TEXT 64

/* A face's owner: the uid of the local user who made it, or FACE_UID_NONE
 * (made by ccnd itself or by a peer on the network). */
#define FACE_UID_NONE (-1)

struct face_info {
    unsigned faceid;
    enum face_kind kind;
    unsigned flags;
    char remote[FACE_ADDR_TEXT]; /* "[::1]:9695", "127.0.0.1:9695", a socket path... */
    struct face_counters counters;
    size_t queued_bytes;
    unsigned listener; /* faceid of the listener / UDP socket it came through, or FACE_NONE */
    int last_errno;
    int64_t owner; /* FACE_UID_NONE, or who made it (see face_set_owner) */
};

struct face_callbacks {
    /* A whole message (never a SequenceNumber or a PDU wrapper) from faceid;
     * msg is valid only during the call. */
    void (*message)(void *arg, unsigned faceid, const uint8_t *msg, size_t len);
    /* A face now exists (including listeners and faces made by the API). */
    void (*created)(void *arg, unsigned faceid);
    /* The face is gone; `final` holds its last counters. */
    void (*destroyed)(void *arg, unsigned faceid, enum face_close_reason why,
                      const struct face_info *final);
    /* 1 when something holds the face (registrations, pending Interests):
     * it is not evicted to make room for a new UDP sender. May be NULL. */
    int (*in_use)(void *arg, unsigned faceid);
    void *arg;
};

struct face_table;

void face_config_default(struct face_config *cfg);

/* Allocates a table that watches its sockets on loop. cfg NULL = defaults.
 * Callbacks may call any face_* function, including face_close. */
struct face_table *face_table_create(struct loop *loop, const struct face_config *cfg,
                                     const struct face_callbacks *cb);
/* Closes every face (destroyed callback with FACE_CLOSE_SHUTDOWN) and frees. */
void face_table_destroy(struct face_table *ft);

/* Listens on a unix stream socket at path. An existing socket file is
 * replaced only when nothing answers on it; CCNX_E_IO with errno EADDRINUSE
 * when a live server holds it. The file is removed when the listener closes. */
int face_listen_unix(struct face_table *ft, const char *path, unsigned *faceid);
/* Connects to a unix stream socket (local clients, tests). */
int face_connect_unix(struct face_table *ft, const char *path, unsigned *faceid);
/* Listens on TCP at addr (IPv4 or IPv6; IPv6 sockets are v6-only). */
int face_listen_tcp(struct face_table *ft, const struct sockaddr *addr, socklen_t len,
                    unsigned *faceid);
/* Starts a non-blocking TCP connect; messages sent before it completes are queued. */
int face_connect_tcp(struct face_table *ft, const struct sockaddr *addr, socklen_t len,
                     unsigned *faceid);
/* Binds the UDP socket of addr's family (one per family). */
int face_udp_bind(struct face_table *ft, const struct sockaddr *addr, socklen_t len,
                  unsigned *faceid);
/* Finds or creates the unicast face for remote through the bound socket of its
 * family; faces made here are permanent (never reaped for idleness). */
int face_udp_peer(struct face_table *ft, const struct sockaddr *remote, socklen_t len,
                  unsigned *faceid);

struct face_mcast_params {
    struct sockaddr_storage group; /* group address and port */
    socklen_t group_len;
    struct sockaddr_storage local; /* IPv4: interface address (family 0 = any) */
    unsigned ifindex;              /* interface index (IPv6; IPv4 too when nonzero) */
    int ttl;                       /* hops; 0 = 1 */
};

/* Joins a multicast group: one socket receives group:port (shared with other
 * processes through SO_REUSEADDR), another sends from the chosen interface
 * with loopback disabled. */
int face_mcast_open(struct face_table *ft, const struct face_mcast_params *p, unsigned *faceid);

/* The face a FaceInstance asks for (numeric host and port): a TCP
 * connection (IPProto 6), a multicast group (its interface an address,
 * IPv6 ones possibly with a zone, fe80::1%eth0), or a UDP peer; an existing
 * one when it is already there. 0, or negative. */
int face_open_instance(struct face_table *ft, const struct ccnx_face_instance *req,
                       unsigned *faceid);
/* A TCP listener and a bound UDP socket on addr_text (a numeric IPv4 or
 * IPv6 address), port. 0; CCNX_E_VALUE when addr_text is not such an
 * address; CCNX_E_IO (errno says why) when a socket cannot be had. */
int face_listen_inet(struct face_table *ft, const char *addr_text, unsigned port);

/* Queues a copy of msg on faceid. 0, or CCNX_E_NOTFOUND (no such face or a
 * passive one), CCNX_E_TOOBIG (beyond max_message), FACE_E_QUEUE_FULL. The
 * drops are counted on the face. */
#define FACE_E_QUEUE_FULL (-64)
int face_send(struct face_table *ft, unsigned faceid, const uint8_t *msg, size_t len);

/* Closes faceid (destroyed callback with FACE_CLOSE_REQUESTED). */
int face_close(struct face_table *ft, unsigned faceid);
/* Brackets work that sends outside any face callback (timers): what is
 * queued in between goes out at the end, one write per face, and no face
 * is closed (or freed) until then. Pairs nest. */
void face_batch_begin(struct face_table *ft);
void face_batch_end(struct face_table *ft);
int face_set_permanent(struct face_table *ft, unsigned faceid, int permanent);
/* Records the uid that made the face. A unix face accepted from a local
 * process is owned by that process's uid from the start. */
int face_set_owner(struct face_table *ft, unsigned faceid, int64_t uid);
/* The uid of the local process at the other end: the peer credentials of
 * a unix face, or for a TCP face from a loopback address the owner of the
 * connecting socket (found in /proc/net/tcp, once). 0 with *uid, or
 * CCNX_E_NOTFOUND when it cannot be known (a remote peer, UDP, or the
 * connection is gone). */
int face_peer_uid(struct face_table *ft, unsigned faceid, int64_t *uid);

/* Fills *info for faceid; CCNX_E_NOTFOUND if no such face. */
int face_get_info(const struct face_table *ft, unsigned faceid, struct face_info *info);
/* Just the FACE_F_* flags (the forwarder asks for every message): 0, or
 * CCNX_E_NOTFOUND. */
int face_get_flags(const struct face_table *ft, unsigned faceid, unsigned *flags);
/* Next live faceid after `after` in slot order (FACE_NONE starts), or FACE_NONE. */
unsigned face_next(const struct face_table *ft, unsigned after);
/* Local address of a socket face (to learn an ephemeral port). */
int face_local_addr(const struct face_table *ft, unsigned faceid, struct sockaddr_storage *ss,
                    socklen_t *len);

/* HTTP on the ccnb TCP port, as the reference serves its status page: an
 * accepted TCP face whose first bytes are an HTTP method ("GET ", "POST "...)
 * is handed to the handler instead of the framer. The face layer reads the
 * request line (bounded by FACE_HTTP_MAX_REQUEST bytes and, from the first
 * byte, FACE_HTTP_TIMEOUT_US), asks the handler for a reply to a GET and
 * answers any other method 405, writes the reply with a minimal HTTP/1.1
 * header and closes. No handler: such bytes are framed as ccnb like any
 * other. */
#define FACE_HTTP_MAX_REQUEST 2048
#define FACE_HTTP_TIMEOUT_US  3000000u

struct face_http_reply {
    int status;               /* 200, 404...; preset to 404 */
    const char *content_type; /* a static string; preset to "text/plain" */
    char *body;               /* malloc'ed; the face layer frees it (may stay NULL) */
    size_t len;
};

/* target: the request-target ("/", "/?f=xml"), NUL-terminated. */
typedef void (*face_http_fn)(void *arg, unsigned faceid, const char *target,
                             struct face_http_reply *reply);
void face_set_http_handler(struct face_table *ft, face_http_fn fn, void *arg);

const char *face_kind_name(enum face_kind kind);
const char *face_close_reason_name(enum face_close_reason why);

#endif
