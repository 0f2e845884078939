/* ccnd's status page: HTML, the reference's XML layout (CCNDStatus.txt)
 * and JSON (docs/ccnd-status.md), plus per-face meters with rates.
 *
 * It sees no sockets and no face table: the wiring fills a status_view
 * with rows for the faces and the forwarder's counters, and reports each
 * message (status_note) so Interests and ContentObjects are counted per
 * face. Rates come from status_sample, called about once a second: the
 * page shows the change of each counter over the last sampling interval. */
#ifndef CCND_MGMT_STATUS_H
#define CCND_MGMT_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>

#include "fw/fw.h"

#define STATUS_API_VERSION 8002 /* the reference's CCN_API_VERSION */

/* The reference's meters, in its order. */
enum status_meter {
    STATUS_BYTEIN,
    STATUS_BYTEOUT,
    STATUS_DATAIN,
    STATUS_INTROUT,
    STATUS_DATAOUT,
    STATUS_INTRIN,
    STATUS_METERS
};

/* One face as the face layer reports it. */
struct status_face {
    unsigned faceid;
    unsigned flags;   /* FACE_F_* of face/face.h */
    const char *kind; /* "tcp", "udp", "unix", "internal"... */
    char remote[64];
    uint64_t bytes_in, bytes_out;
    uint64_t msgs_in, msgs_out;
    uint64_t queued;    /* bytes waiting in the output queue */
    uint64_t drops;     /* all drop counters summed */
    uint64_t malformed; /* of which input that was not ccnb (the face then closes if a stream) */
    uint64_t pending;   /* Interests from this face still pending (its PIT records) */
};

struct cs;
struct face_table;
struct pit;
struct fib;
struct nonce_table;

/* Everything one page shows besides the meters. */
struct status_view {
    const uint8_t *ccndid; /* 32 bytes */
    const char *host;
    unsigned port;
    long pid;
    int debug;         /* current CCND_DEBUG */
    uint64_t start_us; /* wall clock, microseconds since the epoch */
    uint64_t now_us;   /* wall clock */
    uint64_t mono_now; /* the tables' clock, for FIB lifetimes */
    int refresh;       /* HTML auto-refresh in seconds, 0 = none */
    struct fw_stats fw;
    const struct cs *cs; /* may be NULL (counts shown as 0) */
    const struct pit *pit;
    const struct fib *fib;
    const struct nonce_table *nonces; /* "noted": the nonces remembered */
    const struct status_face *faces;
    size_t nfaces;
    uint64_t input_malformed;  /* malformed input on every face, closed ones included */
    const struct fw_pub *pubs; /* publisher reports (fw.h) */
    size_t npubs;
};

enum status_format { STATUS_HTML, STATUS_XML, STATUS_JSON };

enum status_req_kind {
    STATUS_REQ_PAGE,    /* fmt and refresh say which */
    STATUS_REQ_LOG,     /* set CCND_DEBUG to level */
    STATUS_REQ_UNKNOWN, /* 404 */
};

struct status_request {
    enum status_req_kind kind;
    enum status_format fmt;
    int refresh;
    int level;
};

struct status;

/* Allocates the meter state; NULL when out of memory. */
struct status *status_create(void);
void status_destroy(struct status *st);

/* Counts one whole message that arrived on (outgoing 0) or was sent to
 * (outgoing 1) faceid, as an Interest or a ContentObject by its outer tag. */
void status_note(struct status *st, unsigned faceid, int outgoing, const uint8_t *msg, size_t len);
/* Takes a sample of every face in rows (now_us: a monotonic clock); faces
 * no longer listed are forgotten. */
void status_sample(struct status *st, const struct status_face *rows, size_t n, uint64_t now_us);
/* Rows for every face of the table, the internal face 0 first, each with
 * its pending Interests in pit; *n is set. Allocated (free()); NULL when
 * memory runs out. */
struct status_face *status_face_rows(struct face_table *faces, struct pit *pit, size_t *n);
/* Points the view at the forwarder's tables and copies its counters. */
void status_view_tables(struct status_view *v, struct fw *fw);
/* The total and the last sampled rate (per second) of one meter. */
void status_meter(const struct status *st, const struct status_face *row, enum status_meter m,
                  uint64_t *total, uint64_t *persec);

/* Parses a request-target ("/", "/?f=xml", "/?l=med", "/?f=html&r=5").
 * Log levels: none 0, low 1, co 4, med 71, high -1 (all), or a number. */
void status_parse_target(const char *target, struct status_request *req);
/* Appends the page; 0, or CCNX_E_NOMEM. */
int status_render(const struct status *st, const struct status_view *v, enum status_format fmt,
                  struct ccnx_buf *out);
/* The reply to a log level change (the reference's little HTML page). */
int status_render_log(int level, struct ccnx_buf *out);
/* The reference's face flag bits (CCN_FACE_*) for FACE_F_* flags. */
unsigned status_ref_flags(unsigned face_flags, unsigned faceid);

#endif
