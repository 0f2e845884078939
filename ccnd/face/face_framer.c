/* Message framing for stream and datagram faces (see framer.h). */
#include "face/framer.h"

#include <stdlib.h>
#include <string.h>

#include <ccnx/dtag.h>
#include <ccnx/error.h>

static void count_error(struct framer_counts *c, int code)
{
    if (code == CCNX_E_TOOBIG) {
        c->oversize++;
    } else {
        c->malformed++;
    }
}

/* Delivers the element children of a PDU whose content is body[0..n). */
static void unwrap_pdu(const uint8_t *body, size_t n, const struct framer_sink *sink)
{
    struct ccnx_skel s;
    ccnx_skel_init(&s);
    s.max_element = n;
    size_t pos = 0;
    while (pos < n) {
        size_t used;
        int res = ccnx_skel_feed(&s, body + pos, n - pos, &used);
        if (res != 1) {
            /* Bare BLOB/UDATA children: not messages. */
            sink->counts->unwrap++;
            return;
        }
        const uint8_t *msg = body + pos;
        pos += used;
        if (s.top_dtag == CCNX_DTAG_CCNProtocolDataUnit) {
            sink->counts->unwrap++;
        } else if (s.top_dtag == CCNX_DTAG_SequenceNumber) {
            sink->counts->link_seq++;
        } else {
            sink->counts->messages++;
            sink->deliver(sink->arg, msg, used);
        }
    }
}

void framer_unwrap(const uint8_t *msg, size_t len, const struct framer_sink *sink)
{
    struct ccnx_ccnb_header h;
    if (ccnx_ccnb_header_decode(msg, len, &h) != 0) {
        sink->counts->malformed++;
        return;
    }
    if (h.tt == CCNX_TT_DTAG && h.numval == CCNX_DTAG_SequenceNumber) {
        sink->counts->link_seq++;
        return;
    }
    if (h.tt == CCNX_TT_DTAG && h.numval == CCNX_DTAG_CCNProtocolDataUnit) {
        sink->counts->pdus++;
        /* The element is validated, so it ends with its closer after the header. */
        if (len >= h.size + 1) {
            unwrap_pdu(msg + h.size, len - h.size - 1, sink);
        }
        return;
    }
    sink->counts->messages++;
    sink->deliver(sink->arg, msg, len);
}

/* Runs the decoder over the whole datagram; on success the element ends are
 * known to be well-formed and the second pass cannot fail. */
static int datagram_check(const uint8_t *p, size_t n, size_t max_element)
{
    struct ccnx_skel s;
    ccnx_skel_init(&s);
    s.max_element = max_element;
    size_t pos = 0;
    int count = 0;
    while (pos < n) {
        size_t used;
        int res = ccnx_skel_feed(&s, p + pos, n - pos, &used);
        if (res < 0) {
            return res;
        }
        pos += used;
        if (res == 0) {
            return CCNX_E_TRUNCATED;
        }
        count++;
    }
    return count;
}

int framer_datagram(const uint8_t *p, size_t n, size_t max_element, const struct framer_sink *sink)
{
    int count = datagram_check(p, n, max_element);
    if (count < 0) {
        if (count == CCNX_E_TRUNCATED) {
            sink->counts->partial++;
        } else {
            count_error(sink->counts, count);
        }
        return count;
    }
    struct ccnx_skel s;
    ccnx_skel_init(&s);
    s.max_element = max_element;
    size_t pos = 0;
    while (pos < n) {
        size_t used;
        if (ccnx_skel_feed(&s, p + pos, n - pos, &used) != 1) {
            break; /* cannot happen after datagram_check */
        }
        framer_unwrap(p + pos, used, sink);
        pos += used;
    }
    return count;
}

int framer_datagram_is_message(const uint8_t *p, size_t n, size_t max_element)
{
    if (datagram_check(p, n, max_element) <= 0) {
        return 0;
    }
    struct ccnx_skel s;
    ccnx_skel_init(&s);
    s.max_element = max_element;
    size_t pos = 0, used;
    while (pos < n && ccnx_skel_feed(&s, p + pos, n - pos, &used) == 1) {
        pos += used;
        if (s.top_dtag == CCNX_DTAG_Interest || s.top_dtag == CCNX_DTAG_ContentObject ||
            s.top_dtag == CCNX_DTAG_CCNProtocolDataUnit) {
            return 1;
        }
    }
    return 0;
}

void framer_stream_init(struct framer_stream *fs, size_t max_element)
{
    memset(fs, 0, sizeof(*fs));
    ccnx_skel_init(&fs->skel);
    if (max_element > 0) {
        fs->skel.max_element = max_element;
    }
}

void framer_stream_free(struct framer_stream *fs)
{
    free(fs->buf);
    fs->buf = NULL;
    fs->head = fs->len = fs->scanned = fs->cap = 0;
}

uint8_t *framer_stream_space(struct framer_stream *fs, size_t want, size_t *avail)
{
    if (fs->head > 0 && fs->cap - fs->len < want) {
        memmove(fs->buf, fs->buf + fs->head, fs->len - fs->head);
        fs->len -= fs->head;
        fs->scanned -= fs->head;
        fs->head = 0;
    }
    if (fs->cap - fs->len < want) {
        size_t n = fs->cap ? fs->cap : 4096;
        while (n - fs->len < want) {
            if (n > SIZE_MAX / 2) {
                return NULL;
            }
            n *= 2;
        }
        uint8_t *b = realloc(fs->buf, n);
        if (b == NULL) {
            return NULL;
        }
        fs->buf = b;
        fs->cap = n;
    }
    *avail = fs->cap - fs->len;
    return fs->buf + fs->len;
}

int framer_stream_moves(const struct framer_stream *fs, size_t want)
{
    return fs->cap - fs->len < want;
}

int framer_stream_commit(struct framer_stream *fs, size_t n, const struct framer_sink *sink)
{
    if (fs->err != 0) {
        return fs->err;
    }
    fs->len += n;
    size_t start = fs->head; /* start of the message being scanned */
    while (fs->scanned < fs->len) {
        size_t used;
        int res = ccnx_skel_feed(&fs->skel, fs->buf + fs->scanned, fs->len - fs->scanned, &used);
        fs->scanned += used;
        if (res < 0) {
            fs->err = res;
            count_error(sink->counts, res);
            return res;
        }
        if (res == 1) {
            framer_unwrap(fs->buf + start, fs->scanned - start, sink);
            start = fs->scanned;
        }
    }
    fs->head = start;
    return 0;
}

int framer_stream_feed(struct framer_stream *fs, const uint8_t *p, size_t n,
                       const struct framer_sink *sink)
{
    size_t avail;
    uint8_t *space = framer_stream_space(fs, n, &avail);
    if (space == NULL) {
        return CCNX_E_NOMEM;
    }
    if (n > 0) {
        memcpy(space, p, n);
    }
    return framer_stream_commit(fs, n, sink);
}

int framer_stream_idle(const struct framer_stream *fs)
{
    return fs->err == 0 && fs->len == fs->head;
}
