/* The status server (status.h): listening, the request's life on a
 * non-blocking socket, the request parser, and the HTML and JSON pages. */
#define _GNU_SOURCE /* accept4 */
#include "status.h"

#include <ccnx/error.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define LISTEN_BACKLOG  8
#define MAX_REFRESH_S   3600
#define DEFAULT_LISTEN1 "127.0.0.1"
#define DEFAULT_LISTEN2 "::1"
/* After accept fails for want of descriptors or memory the connection
 * stays queued and the socket stays readable: listening pauses this long
 * rather than spinning. */
#define ACCEPT_PAUSE_MS 1000

enum client_state { C_FREE, C_READING, C_WRITING, C_DRAINING };

struct client {
    enum client_state state;
    int fd;
    int64_t deadline; /* ccnx_client_now_ms: closed when reached */
    size_t len;
    char req[CCNR_STATUS_REQUEST_MAX];
    struct ccnx_buf out; /* the reply */
    size_t sent;
};

struct ccnr_status {
    struct ccnr *r;
    int lfd[CCNR_STATUS_MAX_LISTEN];
    size_t nlisten;
    struct client cl[CCNR_STATUS_MAX_CLIENTS];
    time_t started;
    int64_t started_ms;
    int64_t accept_paused_until; /* ms; 0 while accepting */
};

/* ---- Listening ---- */

/* One listening socket on addr: its fd, or -1 with errno set. */
static int listen_one(const char *addr, unsigned port)
{
    char service[8];
    snprintf(service, sizeof service, "%u", port);
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
                             .ai_socktype = SOCK_STREAM};
    struct addrinfo *ai = NULL;
    if (getaddrinfo(addr, service, &hints, &ai) != 0) {
        errno = EINVAL;
        return -1;
    }
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    int ok = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0;
    /* "::" and "0.0.0.0" may both be listed: each takes its own family */
    if (ok && ai->ai_family == AF_INET6) {
        ok = setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) == 0;
    }
    ok = ok && bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, LISTEN_BACKLOG) == 0;
    int saved = errno;
    freeaddrinfo(ai);
    if (!ok) {
        if (fd >= 0) {
            close(fd);
        }
        errno = saved;
        return -1;
    }
    return fd;
}

/* The default, localhost: ::1 only where the host has IPv6. */
static int listen_default(struct ccnr_status *st, char *err, size_t errlen)
{
    unsigned port = st->r->set.status.port;
    int fd = listen_one(DEFAULT_LISTEN1, port);
    if (fd < 0) {
        snprintf(err, errlen,
                 "CCNR_STATUS_PORT=%u: cannot listen on %s: %s: choose another port or unset "
                 "CCNR_STATUS_PORT",
                 port, DEFAULT_LISTEN1, strerror(errno));
        return -1;
    }
    st->lfd[st->nlisten++] = fd;
    fd = listen_one(DEFAULT_LISTEN2, port);
    if (fd >= 0) {
        st->lfd[st->nlisten++] = fd;
    } else {
        ccnr_log(CCNR_INFO, "status not served on %s: %s", DEFAULT_LISTEN2, strerror(errno));
    }
    return 0;
}

static int listen_all(struct ccnr_status *st, char *err, size_t errlen)
{
    const struct ccnr_settings *s = &st->r->set;
    if (s->status.listen_count == 0) {
        return listen_default(st, err, errlen);
    }
    for (int i = 0; i < s->status.listen_count; i++) {
        int fd = listen_one(s->status.listen_on[i], s->status.port);
        if (fd < 0) {
            snprintf(err, errlen,
                     "CCNR_STATUS_PORT=%u, CCNR_LISTEN_ON=%s: cannot listen on %s: %s: choose "
                     "another port, or addresses of this host in CCNR_LISTEN_ON",
                     s->status.port, s->status.listen_on_text, s->status.listen_on[i],
                     strerror(errno));
            return -1;
        }
        st->lfd[st->nlisten++] = fd;
    }
    return 0;
}

int ccnr_status_open(struct ccnr *r, struct ccnr_status **out, char *err, size_t errlen)
{
    *out = NULL;
    if (r->set.status.port == 0) {
        return 0;
    }
    struct ccnr_status *st = calloc(1, sizeof *st);
    if (st == NULL) {
        snprintf(err, errlen, "out of memory starting the status server");
        return -1;
    }
    st->r = r;
    st->started = time(NULL);
    st->started_ms = ccnx_client_now_ms();
    for (size_t i = 0; i < CCNR_STATUS_MAX_CLIENTS; i++) {
        st->cl[i].fd = -1;
        ccnx_buf_init(&st->cl[i].out);
    }
    if (listen_all(st, err, errlen) != 0) {
        ccnr_status_close(st);
        return -1;
    }
    ccnr_log(CCNR_INFO, "status served on port %u", r->set.status.port);
    *out = st;
    return 0;
}

static void client_close(struct client *c)
{
    if (c->fd >= 0) {
        close(c->fd);
    }
    c->fd = -1;
    c->state = C_FREE;
    c->len = 0;
    c->sent = 0;
    ccnx_buf_reset(&c->out);
}

void ccnr_status_close(struct ccnr_status *st)
{
    if (st == NULL) {
        return;
    }
    for (size_t i = 0; i < st->nlisten; i++) {
        close(st->lfd[i]);
    }
    for (size_t i = 0; i < CCNR_STATUS_MAX_CLIENTS; i++) {
        client_close(&st->cl[i]);
        ccnx_buf_free(&st->cl[i].out);
    }
    free(st);
}

/* ---- Escaping ---- */

/* Bytes that are not UTF-8 cannot go into JSON as they are. */
static int utf8_valid(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k = c < 0x80             ? 0
                   : (c & 0xE0) == 0xC0 ? 1
                   : (c & 0xF0) == 0xE0 ? 2
                   : (c & 0xF8) == 0xF0 ? 3
                                        : 4;
        if (k == 4 || (k == 1 && c < 0xC2) || k >= n - i) {
            return 0;
        }
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xC0) != 0x80) {
                return 0;
            }
        }
        i += k + 1;
    }
    return 1;
}

/* A JSON string, quoted; a string that is not UTF-8 (a directory's name
 * can be any bytes) goes byte by byte as \u00XX, so the page stays JSON. */
static void json_str(struct ccnx_buf *b, const char *s)
{
    size_t n = strlen(s);
    int raw_ok = utf8_valid((const unsigned char *)s, n);
    ccnx_buf_append_byte(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            ccnx_buf_printf(b, "\\%c", c);
        } else if (c < 0x20 || c == 0x7F || (c >= 0x80 && !raw_ok)) {
            ccnx_buf_printf(b, "\\u%04x", c);
        } else {
            ccnx_buf_append_byte(b, c);
        }
    }
    ccnx_buf_append_byte(b, '"');
}

static void html_str(struct ccnx_buf *b, const char *s)
{
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '<':
            ccnx_buf_append_str(b, "&lt;");
            break;
        case '>':
            ccnx_buf_append_str(b, "&gt;");
            break;
        case '&':
            ccnx_buf_append_str(b, "&amp;");
            break;
        case '"':
            ccnx_buf_append_str(b, "&quot;");
            break;
        case '\'':
            ccnx_buf_append_str(b, "&#39;");
            break;
        default:
            ccnx_buf_append_byte(b, (uint8_t)*s);
            break;
        }
    }
}

/* ---- The pages ---- */

struct view {
    struct ccnr_store_stats s;
    struct ccnx_buf prefix_buf;
    const char *prefix; /* the global prefix as a URI */
    char key_id[65];    /* the repository key's digest, hex */
    char started[32];   /* UTC, ISO 8601 */
    uint64_t uptime_s;
};

static void view_get(const struct ccnr_status *st, struct view *v)
{
    const struct ccnr *r = st->r;
    ccnr_store_get_stats(r->store, &v->s);
    ccnx_buf_init(&v->prefix_buf);
    if (ccnx_uri_append_name(&v->prefix_buf, &r->set.global_prefix) != 0) {
        ccnx_buf_reset(&v->prefix_buf);
    }
    v->prefix = ccnx_buf_cstr(&v->prefix_buf);
    const uint8_t *d = ccnx_keystore_digest(r->ks);
    for (int i = 0; i < 32; i++) {
        snprintf(v->key_id + 2 * i, 3, "%02x", d[i]);
    }
    struct tm tm;
    if (gmtime_r(&st->started, &tm) == NULL ||
        strftime(v->started, sizeof v->started, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        snprintf(v->started, sizeof v->started, "unknown");
    }
    v->uptime_s = (uint64_t)(ccnx_client_now_ms() - st->started_ms) / 1000u;
}

struct write_row {
    struct ccnx_buf *b;
    int count;
    int json;
};

static void write_row(void *arg, const char *uri, uint64_t stored)
{
    struct write_row *w = arg;
    if (w->json) {
        ccnx_buf_append_str(w->b, w->count > 0 ? ",\n  {\"name\":" : "\n  {\"name\":");
        json_str(w->b, uri);
        ccnx_buf_printf(w->b, ",\"stored\":%llu}", (unsigned long long)stored);
    } else {
        ccnx_buf_append_str(w->b, "<tr><td>");
        html_str(w->b, uri);
        ccnx_buf_printf(w->b, "</td><td>%llu</td></tr>\n", (unsigned long long)stored);
    }
    w->count++;
}

static void slice_row(void *arg, const char *topo, const char *prefix, size_t names,
                      const char *root)
{
    struct write_row *w = arg;
    if (w->json) {
        ccnx_buf_append_str(w->b, w->count > 0 ? ",\n  {\"topo\":" : "\n  {\"topo\":");
        json_str(w->b, topo);
        ccnx_buf_append_str(w->b, ",\"prefix\":");
        json_str(w->b, prefix);
        ccnx_buf_printf(w->b, ",\"names\":%zu,\"root\":\"%s\"}", names, root);
    } else {
        ccnx_buf_append_str(w->b, "<tr><td>");
        html_str(w->b, topo);
        ccnx_buf_append_str(w->b, "</td><td>");
        html_str(w->b, prefix);
        ccnx_buf_printf(w->b, "</td><td>%zu</td><td><tt>%s</tt></td></tr>\n", names, root);
    }
    w->count++;
}

static void render_sync_json(const struct ccnr *r, struct ccnx_buf *b)
{
    struct ccnr_sync_counts n;
    ccnr_sync_get_counts(r, &n);
    ccnx_buf_printf(b,
                    "\"sync\":{\"enabled\":%s,\"names_fetched\":%llu,\"nodes_fetched\":%llu,"
                    "\"refused\":%llu,\"advises_answered\":%llu,\"nodes_answered\":%llu,"
                    "\"slices\":[",
                    n.enabled ? "true" : "false", (unsigned long long)n.names_fetched,
                    (unsigned long long)n.nodes_fetched, (unsigned long long)n.refused,
                    (unsigned long long)n.advises_answered, (unsigned long long)n.nodes_answered);
    struct write_row w = {b, 0, 1};
    ccnr_sync_foreach(r, slice_row, &w);
    ccnx_buf_append_str(b, w.count > 0 ? "\n]},\n" : "]},\n");
}

static void render_json(const struct ccnr_status *st, const struct view *v, struct ccnx_buf *b)
{
    const struct ccnr *r = st->r;
    ccnx_buf_append_str(b, "{\"repository\":{\"directory\":");
    json_str(b, r->set.dir);
    ccnx_buf_append_str(b, ",\"global_prefix\":");
    json_str(b, v->prefix);
    ccnx_buf_printf(b, ",\"key_id\":\"%s\",\"pid\":%ld,\"started\":\"%s\",\"uptime_s\":%llu},\n",
                    v->key_id, (long)getpid(), v->started, (unsigned long long)v->uptime_s);
    ccnx_buf_printf(b,
                    "\"store\":{\"objects\":%llu,\"bytes\":%llu,\"capacity_bytes\":%llu,"
                    "\"used_bytes\":%llu},\n",
                    (unsigned long long)v->s.objects, (unsigned long long)v->s.bytes,
                    (unsigned long long)v->s.map_bytes, (unsigned long long)v->s.used_bytes);
    ccnx_buf_printf(b,
                    "\"since_start\":{\"stored\":%llu,\"duplicates\":%llu,\"refused\":%llu,"
                    "\"lookups\":%llu,\"hits\":%llu,\"start_writes\":%llu,"
                    "\"start_writes_refused\":%llu,\"imports\":%llu,\"imported\":%llu},\n",
                    (unsigned long long)v->s.added, (unsigned long long)v->s.duplicates,
                    (unsigned long long)r->refused, (unsigned long long)v->s.lookups,
                    (unsigned long long)v->s.hits, (unsigned long long)r->start_writes,
                    (unsigned long long)r->start_writes_refused, (unsigned long long)r->imports,
                    (unsigned long long)r->imported);
    render_sync_json(r, b);
    ccnx_buf_append_str(b, "\"writes\":[");
    struct write_row w = {b, 0, 1};
    ccnr_write_foreach(r, write_row, &w);
    ccnx_buf_append_str(b, w.count > 0 ? "\n]}\n" : "]}\n");
}

static void html_head(const struct view *v, int refresh, struct ccnx_buf *b)
{
    ccnx_buf_append_str(b, "<!DOCTYPE html>\n<html><head><meta charset='utf-8'/><title>ccnr ");
    html_str(b, v->prefix);
    ccnx_buf_append_str(b, "</title>");
    if (refresh > 0) {
        ccnx_buf_printf(b, "<meta http-equiv='refresh' content='%d'/>", refresh);
    }
    ccnx_buf_append_str(b, "<style>th {text-align: left} td, th {border: 1px solid #808080; "
                           "padding: 4px}</style></head>\n<body>\n<h1>ccnr ");
    html_str(b, v->prefix);
    ccnx_buf_append_str(b, "</h1>\n");
}

static void html_row(struct ccnx_buf *b, const char *label, unsigned long long n)
{
    ccnx_buf_printf(b, "<tr><th>%s</th><td>%llu</td></tr>\n", label, n);
}

static void render_html(const struct ccnr_status *st, const struct view *v, int refresh,
                        struct ccnx_buf *b)
{
    const struct ccnr *r = st->r;
    html_head(v, refresh, b);
    ccnx_buf_append_str(b, "<table>\n<tr><th>Directory</th><td>");
    html_str(b, r->set.dir);
    ccnx_buf_printf(b,
                    "</td></tr>\n<tr><th>Key id</th><td><tt>%s</tt></td></tr>\n"
                    "<tr><th>Process</th><td>%ld</td></tr>\n"
                    "<tr><th>Started</th><td>%s (up %llu s)</td></tr>\n",
                    v->key_id, (long)getpid(), v->started, (unsigned long long)v->uptime_s);
    html_row(b, "Objects held", v->s.objects);
    html_row(b, "Bytes held", v->s.bytes);
    html_row(b, "Capacity (bytes)", v->s.map_bytes);
    html_row(b, "Used (bytes)", v->s.used_bytes);
    html_row(b, "Objects stored since start", v->s.added);
    html_row(b, "Duplicates since start", v->s.duplicates);
    html_row(b, "Objects refused since start", r->refused);
    html_row(b, "Lookups", v->s.lookups);
    html_row(b, "Hits", v->s.hits);
    html_row(b, "Start-writes since start", r->start_writes);
    html_row(b, "Start-writes not answered (too many running)", r->start_writes_refused);
    html_row(b, "Bulk imports", r->imports);
    html_row(b, "Objects imported", r->imported);
    ccnx_buf_append_str(b, "</table>\n<h2>Start-writes running</h2>\n<table>\n"
                           "<tr><th>Name</th><th>Objects stored</th></tr>\n");
    struct write_row w = {b, 0, 0};
    ccnr_write_foreach(r, write_row, &w);
    if (w.count == 0) {
        ccnx_buf_append_str(b, "<tr><td colspan='2'>none</td></tr>\n");
    }
    ccnx_buf_append_str(b, "</table>\n<h2>Sync</h2>\n<table>\n"
                           "<tr><th>Topological prefix</th><th>Naming prefix</th><th>Names</th>"
                           "<th>Root hash</th></tr>\n");
    struct write_row sw = {b, 0, 0};
    ccnr_sync_foreach(r, slice_row, &sw);
    if (sw.count == 0) {
        ccnx_buf_append_str(b, "<tr><td colspan='4'>no slice</td></tr>\n");
    }
    struct ccnr_sync_counts n;
    ccnr_sync_get_counts(r, &n);
    ccnx_buf_printf(b,
                    "</table>\n<p>Fetched from neighbours: %llu names, %llu nodes; refused: "
                    "%llu; answered: %llu Root Advise, %llu Node Fetch.</p>\n",
                    (unsigned long long)n.names_fetched, (unsigned long long)n.nodes_fetched,
                    (unsigned long long)n.refused, (unsigned long long)n.advises_answered,
                    (unsigned long long)n.nodes_answered);
    ccnx_buf_append_str(b, "</body></html>\n");
}

/* ---- Requests ---- */

struct request {
    int status; /* 200, 400, 404 or 405 */
    int json;
    int refresh; /* seconds, 0: none */
};

/* The query of GET /?...: f=html or f=json, r=<seconds> to refresh the
 * page; anything else is a page that does not exist. */
static int parse_query(const char *q, size_t n, struct request *rq)
{
    while (n > 0) {
        size_t k = 0;
        while (k < n && q[k] != '&') {
            k++;
        }
        if (k == 6 && memcmp(q, "f=json", 6) == 0) {
            rq->json = 1;
        } else if (k == 6 && memcmp(q, "f=html", 6) == 0) {
            rq->json = 0;
        } else if (k >= 3 && k <= 6 && memcmp(q, "r=", 2) == 0) {
            int v = 0;
            for (size_t i = 2; i < k; i++) {
                if (q[i] < '0' || q[i] > '9') {
                    return -1;
                }
                v = v * 10 + (q[i] - '0');
            }
            if (v > MAX_REFRESH_S) {
                return -1;
            }
            rq->refresh = v;
        } else if (k > 0) {
            return -1;
        }
        q += k + (k < n);
        n -= k + (k < n);
    }
    return 0;
}

/* The request line of req[0..len), which holds a whole header: "GET
 * <target> HTTP/<version>", printable ASCII, single spaces. */
static void parse_request(const char *req, size_t len, struct request *rq)
{
    memset(rq, 0, sizeof *rq);
    rq->status = 400;
    const char *nl = memchr(req, '\n', len);
    size_t n = nl != NULL ? (size_t)(nl - req) : 0;
    n -= n > 0 && req[n - 1] == '\r';
    size_t sp[2] = {0, 0}, nsp = 0;
    for (size_t i = 0; i < n; i++) {
        if (req[i] < ' ' || req[i] > '~') {
            return;
        }
        if (req[i] == ' ') {
            if (nsp == 2) {
                return;
            }
            sp[nsp++] = i;
        }
    }
    if (nsp != 2 || sp[0] == 0 || sp[1] == sp[0] + 1 || n - sp[1] - 1 < 6 ||
        memcmp(req + sp[1] + 1, "HTTP/", 5) != 0) {
        return;
    }
    if (sp[0] != 3 || memcmp(req, "GET", 3) != 0) {
        rq->status = 405;
        return;
    }
    const char *t = req + sp[0] + 1;
    size_t tn = sp[1] - sp[0] - 1;
    int root = tn == 1 || t[1] == '?';
    rq->status = t[0] == '/' && root && parse_query(t + 2, tn - (tn > 1) - 1, rq) == 0 ? 200 : 404;
}

static const char *reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    default:
        return "Bad Request";
    }
}

/* The whole reply into c->out; the client then only writes. */
static void reply(struct ccnr_status *st, struct client *c)
{
    struct request rq;
    parse_request(c->req, c->len, &rq);
    struct ccnx_buf body = CCNX_BUF_INIT;
    const char *type = "text/plain";
    if (rq.status == 200) {
        struct view v;
        view_get(st, &v);
        type = rq.json ? "application/json" : "text/html";
        if (rq.json) {
            render_json(st, &v, &body);
        } else {
            render_html(st, &v, rq.refresh, &body);
        }
        ccnx_buf_free(&v.prefix_buf);
    } else {
        ccnx_buf_printf(&body, "%d %s\n", rq.status, reason(rq.status));
    }
    ccnx_buf_reset(&c->out);
    ccnx_buf_printf(&c->out,
                    "HTTP/1.0 %d %s\r\nContent-Type: %s; charset=utf-8\r\nContent-Length: %zu\r\n"
                    "Cache-Control: no-cache\r\n%sConnection: close\r\n\r\n",
                    rq.status, reason(rq.status), type, body.len,
                    rq.status == 405 ? "Allow: GET\r\n" : "");
    ccnx_buf_append(&c->out, body.data, body.len);
    if (ccnx_buf_status(&body) != 0 || ccnx_buf_status(&c->out) != 0) {
        ccnr_log(CCNR_ERROR, "out of memory writing the status page");
        client_close(c);
    } else {
        c->state = C_WRITING;
        c->sent = 0;
    }
    ccnx_buf_free(&body);
}

/* 1 when req[0..len) holds a whole header (ends with an empty line). */
static int header_complete(const char *req, size_t len)
{
    for (size_t i = 1; i < len; i++) {
        if (req[i] == '\n' &&
            (req[i - 1] == '\n' || (i >= 2 && req[i - 1] == '\r' && req[i - 2] == '\n'))) {
            return 1;
        }
    }
    return 0;
}

static void client_read(struct ccnr_status *st, struct client *c)
{
    ssize_t n = recv(c->fd, c->req + c->len, sizeof c->req - c->len, 0);
    if (n < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            client_close(c);
        }
        return;
    }
    if (n == 0 && c->len == 0) {
        client_close(c); /* connected and left */
        return;
    }
    c->len += (size_t)n;
    /* a request cut short by the end of input or too long is answered
     * with 400, as is one whose line does not parse */
    if (n == 0 || c->len == sizeof c->req || header_complete(c->req, c->len)) {
        reply(st, c);
    }
}

/* After the reply the connection is shut for writing and read until the
 * client closes, so that unread request bytes do not turn the close into
 * a reset that could destroy the reply in flight. */
static void client_write(struct client *c)
{
    ssize_t n = send(c->fd, c->out.data + c->sent, c->out.len - c->sent, MSG_NOSIGNAL);
    if (n < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            client_close(c);
        }
        return;
    }
    c->sent += (size_t)n;
    if (c->sent == c->out.len) {
        shutdown(c->fd, SHUT_WR);
        c->state = C_DRAINING;
    }
}

static void client_drain(struct client *c)
{
    char sink[512];
    ssize_t n = recv(c->fd, sink, sizeof sink, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        client_close(c);
    }
}

static struct client *free_client(struct ccnr_status *st)
{
    for (size_t i = 0; i < CCNR_STATUS_MAX_CLIENTS; i++) {
        if (st->cl[i].state == C_FREE) {
            return &st->cl[i];
        }
    }
    return NULL;
}

static void accept_clients(struct ccnr_status *st, int lfd)
{
    struct client *c;
    while ((c = free_client(st)) != NULL) {
        int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
                errno != ECONNABORTED) {
                ccnr_log(CCNR_WARNING, "status: accept failed: %s; not accepting for %d ms",
                         strerror(errno), ACCEPT_PAUSE_MS);
                st->accept_paused_until = ccnx_client_now_ms() + ACCEPT_PAUSE_MS;
            }
            return;
        }
        c->fd = fd;
        c->state = C_READING;
        c->deadline = ccnx_client_now_ms() + CCNR_STATUS_CLIENT_MS;
    }
}

/* ---- The main loop's part ---- */

size_t ccnr_status_poll_fill(const struct ccnr_status *st, struct pollfd *p)
{
    if (st == NULL) {
        return 0;
    }
    /* with every client place taken, or accept paused, new connections
     * wait in the queue */
    int room = 0;
    for (size_t i = 0; i < CCNR_STATUS_MAX_CLIENTS; i++) {
        const struct client *c = &st->cl[i];
        room |= c->state == C_FREE;
        p[CCNR_STATUS_MAX_LISTEN + i] = (struct pollfd){
            c->state == C_FREE ? -1 : c->fd, c->state == C_WRITING ? POLLOUT : POLLIN, 0};
    }
    room &= st->accept_paused_until == 0;
    for (size_t i = 0; i < CCNR_STATUS_MAX_LISTEN; i++) {
        p[i] = (struct pollfd){i < st->nlisten && room ? st->lfd[i] : -1, POLLIN, 0};
    }
    return CCNR_STATUS_MAX_FDS;
}

int ccnr_status_timeout_ms(const struct ccnr_status *st)
{
    int wait = -1;
    int64_t now = ccnx_client_now_ms();
    if (st != NULL && st->accept_paused_until != 0) {
        int64_t left = st->accept_paused_until - now;
        wait = left <= 0 ? 0 : left > ACCEPT_PAUSE_MS ? ACCEPT_PAUSE_MS : (int)left;
    }
    for (size_t i = 0; st != NULL && i < CCNR_STATUS_MAX_CLIENTS; i++) {
        if (st->cl[i].state != C_FREE) {
            int64_t left = st->cl[i].deadline - now;
            int w = left <= 0                      ? 0
                    : left > CCNR_STATUS_CLIENT_MS ? CCNR_STATUS_CLIENT_MS
                                                   : (int)left;
            wait = wait < 0 || w < wait ? w : wait;
        }
    }
    return wait;
}

void ccnr_status_process(struct ccnr_status *st, const struct pollfd *p)
{
    if (st == NULL) {
        return;
    }
    int64_t now = ccnx_client_now_ms();
    if (st->accept_paused_until != 0 && now >= st->accept_paused_until) {
        st->accept_paused_until = 0;
    }
    for (size_t i = 0; i < CCNR_STATUS_MAX_CLIENTS; i++) {
        struct client *c = &st->cl[i];
        short ev = p[CCNR_STATUS_MAX_LISTEN + i].revents;
        if (c->state != C_FREE && now >= c->deadline) {
            client_close(c); /* too slow: its place goes to another */
        } else if (ev == 0) {
            continue;
        } else if (c->state == C_READING) {
            client_read(st, c);
        } else if (c->state == C_WRITING) {
            client_write(c);
        } else if (c->state == C_DRAINING) {
            client_drain(c);
        }
    }
    for (size_t i = 0; i < st->nlisten; i++) {
        if (p[i].fd >= 0 && (p[i].revents & POLLIN) != 0) {
            accept_clients(st, p[i].fd);
        }
    }
}
