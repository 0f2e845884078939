/* Framing without sockets: cuts whole ccnb messages out of a byte stream or a
 * datagram with the core's skeleton decoder, unwraps CCNProtocolDataUnit and
 * drops link-level SequenceNumber elements. The face layer feeds it what it
 * reads; the fuzz target feeds it arbitrary bytes. */
#ifndef CCND_FRAMER_H
#define CCND_FRAMER_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/ccnb.h>

/* What framing saw, added to by every call (the caller zeroes it once). */
struct framer_counts {
    uint64_t messages;  /* delivered */
    uint64_t link_seq;  /* SequenceNumber elements dropped */
    uint64_t pdus;      /* CCNProtocolDataUnit wrappers opened */
    uint64_t malformed; /* undecodable input (stream closed or datagram dropped) */
    uint64_t oversize;  /* element larger than the bound */
    uint64_t partial;   /* datagrams ending inside an element */
    uint64_t unwrap;    /* PDU contents that were not whole elements, or nested PDUs */
};

typedef void (*framer_deliver_fn)(void *arg, const uint8_t *msg, size_t len);

struct framer_sink {
    framer_deliver_fn deliver;
    void *arg;
    struct framer_counts *counts;
};

/* Handles one complete, validated top-level element: a PDU's element children
 * are delivered one by one (one level only, as the reference does), a
 * SequenceNumber is counted and dropped, anything else is delivered. */
void framer_unwrap(const uint8_t *msg, size_t len, const struct framer_sink *sink);

/* Splits one datagram into its messages. The datagram is first checked
 * whole, so nothing is delivered from a datagram with a partial or malformed
 * element. Returns the number of top-level elements, or a negative CCNX_E*
 * code (counted as partial, oversize or malformed). */
int framer_datagram(const uint8_t *p, size_t n, size_t max_element, const struct framer_sink *sink);
/* 1 when the datagram is whole elements and one of them is a message (an
 * Interest, a ContentObject or a PDU), 0 otherwise; counts nothing. */
int framer_datagram_is_message(const uint8_t *p, size_t n, size_t max_element);

/* Incremental stream framing with its own input buffer (bounded by
 * max_element plus one read). */
struct framer_stream {
    struct ccnx_skel skel;
    uint8_t *buf;
    size_t head;    /* bytes before this were delivered (kept until the next space call) */
    size_t len;     /* bytes held */
    size_t scanned; /* of those, already fed to skel */
    size_t cap;
    int err; /* sticky once the stream is malformed */
};

void framer_stream_init(struct framer_stream *fs, size_t max_element);
void framer_stream_free(struct framer_stream *fs);
/* Space for at least `want` more bytes at the end of the buffer; sets *avail.
 * NULL when allocation fails. Delivered messages stay where they were
 * until a call that moves the buffer's contents (a face may send them
 * without a copy until then): only when the room at the end is short does
 * the partial message move to the front, or the buffer grow. */
uint8_t *framer_stream_space(struct framer_stream *fs, size_t want, size_t *avail);
/* 1 when framer_stream_space(fs, want, ...) would move what the buffer
 * holds. */
int framer_stream_moves(const struct framer_stream *fs, size_t want);
/* Accounts for n bytes written into the space and delivers every message
 * completed. Returns 0, or a negative CCNX_E* code once the stream is
 * malformed (CCNX_E_TOOBIG for an oversize element); the caller then closes. */
int framer_stream_commit(struct framer_stream *fs, size_t n, const struct framer_sink *sink);
/* Convenience for tests and the fuzz target: copies p[0..n) in and commits. */
int framer_stream_feed(struct framer_stream *fs, const uint8_t *p, size_t n,
                       const struct framer_sink *sink);
/* 1 when no partial message is pending. */
int framer_stream_idle(const struct framer_stream *fs);

#endif
