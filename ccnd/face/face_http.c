/* The HTTP kind: an accepted stream face (TCP, or the unix socket where
 * the reference's ccndsmoketest asks) becomes one when its first bytes are
 * an HTTP request. The reference forwarder serves its status page on the
 * ccnb stream faces and tells the two apart by the first bytes; a ccnb
 * message never starts with "GET " in practice (Interest and ContentObject
 * headers start with 0x01 and 0x04); other methods are answered 405. Only
 * the request line is read: the reference's own tools send "GET /?l=none "
 * without headers. It reads and writes as the stream kinds do. */
#include "face/face_internal.h"

#include <ccnx/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* After the reply is written, how long to wait for the client to close
 * before dropping it: closing with unread input would reset the connection
 * and could destroy the reply in flight. */
#define HTTP_LINGER_US 2000000u

struct face_http {
    struct loop_timer timer;
    struct face *f;
    size_t len;
    int answered; /* the reply is queued */
    int eof;      /* the client closed its side */
    int shut;     /* our write side is closed */
    char req[FACE_HTTP_MAX_REQUEST + 1];
};

void face_set_http_handler(struct face_table *ft, face_http_fn fn, void *arg)
{
    ft->http_fn = fn;
    ft->http_arg = arg;
}

/* The methods of RFC 9110 but CONNECT; only GET is served. A ccnb stream
 * starts with an Interest (0x01), a ContentObject (0x04), a SequenceNumber
 * (0x10) or a CCNProtocolDataUnit, whose header reads "CCN": a first read
 * of one "C" would look like the start of CONNECT, so CONNECT is left to
 * the framer, which closes such a face as malformed. */
static const char *const methods[] = {"GET ",    "HEAD ",    "POST ",  "PUT ",
                                      "DELETE ", "OPTIONS ", "TRACE ", "PATCH "};
#define NMETHODS (sizeof methods / sizeof methods[0])

/* The method the first n bytes are (1 + its index), or could still become
 * with more bytes (-1), or 0 for none. */
static int method_of(const uint8_t *p, size_t n)
{
    int partial = 0;
    for (size_t i = 0; i < NMETHODS; i++) {
        size_t m = strlen(methods[i]);
        if (memcmp(p, methods[i], n < m ? n : m) == 0) {
            if (n >= m)
                return (int)i + 1;
            partial = 1;
        }
    }
    return partial ? -1 : 0;
}

int face_http_claims(const struct face *f, const uint8_t *p, size_t n)
{
    if (f->ft->http_fn == NULL || !(f->flags & FACE_F_ACCEPTED) || n == 0) {
        return 0;
    }
    /* A first read shorter than a method is claimed on its prefix and
     * checked once the rest arrives. */
    return method_of(p, n) != 0;
}

static void http_timeout(struct loop *loop, void *arg)
{
    (void)loop;
    struct face *f = ((struct face_http *)arg)->f;
    struct face_table *ft = f->ft;
    face_enter(ft);
    face_destroy(f, FACE_CLOSE_STALLED);
    face_leave(ft);
}

static const char *status_text(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    default:
        return "Error";
    }
}

/* Queues header and body as one raw message: the reply may exceed the
 * ccnb message limit and must not count against the ccnb queue bound, so
 * it goes onto the queue directly rather than through face_send. */
static void http_queue(struct face *f, const struct face_http_reply *r)
{
    char head[256];
    int hl = snprintf(head, sizeof head,
                      "HTTP/1.1 %d %s\r\nContent-Type: %s; charset=utf-8\r\n"
                      "Connection: close\r\nCache-Control: no-cache\r\n%s"
                      "Content-Length: %zu\r\n\r\n",
                      r->status, status_text(r->status), r->content_type,
                      r->status == 405 ? "Allow: GET\r\n" : "", r->len);
    if (hl < 0 || (size_t)hl >= sizeof head) {
        return;
    }
    size_t total = (size_t)hl + r->len;
    struct face_msg *m = malloc(sizeof(*m) + total);
    if (m == NULL) {
        return;
    }
    memcpy(m->data, head, (size_t)hl);
    if (r->len > 0) {
        memcpy(m->data + hl, r->body, r->len);
    }
    m->p = m->data;
    m->len = total;
    m->off = 0;
    face_queue_push(f, m);
}

/* target NULL: the request could not be understood; get 0: a method other
 * than GET. */
static void http_answer(struct face *f, const char *target, int get)
{
    struct face_http_reply r = {404, "text/plain", NULL, 0};
    if (target == NULL) {
        r.status = 400;
    } else if (!get) {
        r.status = 405;
    } else {
        f->ft->http_fn(f->ft->http_arg, f->faceid, target, &r);
    }
    if (r.body == NULL) {
        r.len = 0;
    }
    http_queue(f, &r);
    free(r.body);
    f->k.http->answered = 1;
}

/* The target ends at the space before the protocol version, or at the end
 * of the line for HTTP/0.9-style requests. */
static int http_try_answer(struct face *f, int at_eof)
{
    struct face_http *h = f->k.http;
    int m = method_of((const uint8_t *)h->req, h->len);
    if (m == 0 || (m < 0 && at_eof)) {
        return FACE_CLOSE_MALFORMED;
    }
    if (m < 0) {
        return -1; /* the method is still arriving */
    }
    size_t start = strlen(methods[m - 1]), end = start;
    while (end < h->len && h->req[end] != ' ' && h->req[end] != '\r' && h->req[end] != '\n') {
        end++;
    }
    if (end < h->len || at_eof) {
        h->req[end] = '\0';
        http_answer(f, h->req + start, m == 1);
    } else if (h->len >= FACE_HTTP_MAX_REQUEST) {
        http_answer(f, NULL, 0);
    }
    return -1;
}

/* Bytes read: a close reason, or -1 to keep reading. */
static int http_input(struct face *f, const uint8_t *p, size_t n)
{
    struct face_http *h = f->k.http;
    if (h->answered) {
        return -1; /* headers and anything else: read and ignored */
    }
    size_t room = FACE_HTTP_MAX_REQUEST - h->len;
    size_t take = n < room ? n : room;
    memcpy(h->req + h->len, p, take);
    h->len += take;
    return http_try_answer(f, 0);
}

/* The client closed: a close reason, or -1 while the reply is unsent. */
static int http_eof(struct face *f)
{
    struct face_http *h = f->k.http;
    h->eof = 1;
    if (!h->answered) {
        int why = http_try_answer(f, 1);
        if (why >= 0) {
            return why;
        }
    }
    if (f->qhead == NULL) {
        return FACE_CLOSE_EOF;
    }
    /* Only writing is left: a readable EOF would wake the loop forever. */
    loop_io_set(f->ft->loop, f->fd, LOOP_WRITE);
    return -1;
}

/* Writes as a stream face does, then closes the write side once the reply
 * is out. */
static void http_flush(struct face *f)
{
    face_stream_flush(f);
    struct face_http *h = f->k.http;
    if (f->dead || !h->answered) {
        return;
    }
    if (f->qhead != NULL) {
        if (h->eof) {
            loop_io_set(f->ft->loop, f->fd, LOOP_WRITE);
        }
        return;
    }
    if (h->eof) {
        face_destroy(f, FACE_CLOSE_EOF);
        return;
    }
    if (!h->shut) {
        /* The client reads until EOF; then it closes, and our read sees it. */
        shutdown(f->fd, SHUT_WR);
        h->shut = 1;
        loop_timer_start(f->ft->loop, &h->timer, HTTP_LINGER_US, 0);
    }
}

static void http_close(struct face *f)
{
    loop_timer_stop(f->ft->loop, &f->k.http->timer);
    free(f->k.http);
    f->k.http = NULL;
    face_guard_remove(f); /* it came in as a TCP connection, counted as one */
    face_stream_close(f);
}

static const struct face_ops http_ops = {
    .kind = FACE_KIND_HTTP,
    .flush = http_flush,
    .close = http_close,
    .sweep = face_stream_sweep,
    .input = http_input,
    .eof = http_eof,
};

int face_http_take(struct face *f)
{
    struct face_http *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return CCNX_E_NOMEM;
    }
    h->f = f;
    f->k.http = h;
    f->ops = &http_ops;
    f->flags |= FACE_F_HTTP;
    loop_timer_init(&h->timer, http_timeout, h);
    loop_timer_start(f->ft->loop, &h->timer, FACE_HTTP_TIMEOUT_US, 0);
    return 0;
}
