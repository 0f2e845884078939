/* The status page in its three forms, XML (the reference's layout), JSON
 * and HTML, from one status_view. */
#include "mgmt/status.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <ccnx/ccnb.h>
#include <ccnx/error.h>
#include <ccnx/uri.h>

#include "face/face.h"
#include "table/cs.h"
#include "table/fib.h"
#include "table/nonce.h"
#include "table/pit.h"

static const char *const meter_names[STATUS_METERS] = {"bytein",  "byteout", "datain",
                                                       "introut", "dataout", "intrin"};

/* ---- shared figures ---- */

struct figures {
    uint64_t accessioned, stored, stale, duplicate, cobs_sent;
    uint64_t names, pending, propagating, noted, accepted, dropped, sent;
    struct cs_stats cs;
};

static void figures_get(const struct status_view *v, struct figures *g)
{
    memset(g, 0, sizeof(*g));
    if (v->cs != NULL) {
        cs_get_stats(v->cs, &g->cs);
        for (const struct cs_entry *e = cs_first(v->cs); e != NULL; e = cs_next(e)) {
            g->stale += cs_entry_is_stale(e, v->mono_now) != 0;
        }
    }
    g->accessioned = g->cs.inserts;
    g->stored = g->cs.entries;
    g->duplicate = g->cs.duplicates;
    g->cobs_sent = v->fw.content_out;
    g->names = v->fib != NULL ? fib_prefix_count(v->fib) : 0;
    /* The reference's meanings: pending counts each face waiting on an
     * entry, propagating the entries, noted the nonces remembered. */
    if (v->pit != NULL) {
        struct pit_stats ps;
        pit_get_stats(v->pit, &ps);
        g->pending = ps.pending;
        g->propagating = pit_count(v->pit);
    }
    g->noted = v->nonces != NULL ? nonce_count(v->nonces) : 0;
    const struct fw_stats *s = &v->fw;
    g->dropped = s->interests_malformed + s->interests_out_of_scope + s->interests_nonlocal +
                 s->interests_duplicate + s->interests_pit_full;
    g->accepted = s->interests_in > g->dropped ? s->interests_in - g->dropped : 0;
    g->sent = s->interests_out;
}

/* The summary figures, one row each, in the reference's groups and order:
 * XML and JSON name each figure, the HTML page writes the name after the
 * number. A row with no field is always 0 (what the reference counts and
 * this forwarder never does). */
enum fig_group { FIG_COBS, FIG_INTERESTS, FIG_TOTALS };

struct fig_row {
    enum fig_group group;
    const char *name;
    size_t off; /* in struct figures; NO_FIELD: always 0 */
};

#define NO_FIELD SIZE_MAX
#define FIG(g, name, f)                                                                            \
    {                                                                                              \
        g, name, offsetof(struct figures, f)                                                       \
    }
#define FIG_ZERO(g, name)                                                                          \
    {                                                                                              \
        g, name, NO_FIELD                                                                          \
    }

static const struct fig_row fig_rows[] = {
    FIG(FIG_COBS, "accessioned", accessioned),
    FIG(FIG_COBS, "stored", stored),
    FIG(FIG_COBS, "stale", stale),
    FIG_ZERO(FIG_COBS, "sparse"),
    FIG(FIG_COBS, "duplicate", duplicate),
    FIG(FIG_COBS, "sent", cobs_sent),
    FIG(FIG_INTERESTS, "names", names),
    FIG(FIG_INTERESTS, "pending", pending),
    FIG(FIG_INTERESTS, "propagating", propagating),
    FIG(FIG_INTERESTS, "noted", noted),
    FIG(FIG_TOTALS, "accepted", accepted),
    FIG(FIG_TOTALS, "dropped", dropped),
    FIG(FIG_TOTALS, "sent", sent),
    FIG_ZERO(FIG_TOTALS, "stuffed"),
};

/* Appends the rows of groups first..last: "<name>v</name>" (XML),
 * "\"name\":v" separated by commas (JSON), "v name" separated by commas
 * (HTML). */
static void put_figures(struct ccnx_buf *b, const struct figures *g, enum fig_group first,
                        enum fig_group last, enum status_format fmt)
{
    int n = 0;
    for (size_t i = 0; i < sizeof fig_rows / sizeof fig_rows[0]; i++) {
        const struct fig_row *r = &fig_rows[i];
        if (r->group < first || r->group > last) {
            continue;
        }
        unsigned long long v =
            r->off == NO_FIELD ? 0 : *(const uint64_t *)(const void *)((const char *)g + r->off);
        const char *sep = n++ > 0 ? "," : "";
        if (fmt == STATUS_XML) {
            ccnx_buf_printf(b, "<%s>%llu</%s>", r->name, v, r->name);
        } else if (fmt == STATUS_JSON) {
            ccnx_buf_printf(b, "%s\"%s\":%llu", sep, r->name, v);
        } else {
            ccnx_buf_printf(b, "%s %llu %s", sep, v, r->name);
        }
    }
}

/* Seconds left of a registration, as the reference shows them. */
static long expires_s(uint64_t expires, uint64_t now)
{
    if (expires == FIB_NEVER) {
        return INT_MAX;
    }
    uint64_t left = expires > now ? (expires - now) / 1000000u : 0;
    return left > INT_MAX ? INT_MAX : (long)left;
}

static void put_escaped(struct ccnx_buf *b, const char *s, size_t n, int json)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (json && (c == '"' || c == '\\')) {
            ccnx_buf_printf(b, "\\%c", c);
        } else if (json && c < 0x20) {
            ccnx_buf_printf(b, "\\u%04x", c);
        } else if (!json && c == '<') {
            ccnx_buf_append_str(b, "&lt;");
        } else if (!json && c == '>') {
            ccnx_buf_append_str(b, "&gt;");
        } else if (!json && c == '&') {
            ccnx_buf_append_str(b, "&amp;");
        } else if (!json && c == '\'') {
            ccnx_buf_append_str(b, "&#39;");
        } else {
            ccnx_buf_append_byte(b, c);
        }
    }
}

static void put_uri(struct ccnx_buf *b, const uint8_t *name, size_t len, int json)
{
    struct ccnx_buf u = CCNX_BUF_INIT;
    if (ccnx_uri_append(&u, name, len) < 0 || ccnx_buf_status(&u) != 0) {
        ccnx_buf_append_str(b, "ccnx:/?");
    } else {
        put_escaped(b, (const char *)u.data, u.len, json);
    }
    ccnx_buf_free(&u);
}

static void put_ccndid(struct ccnx_buf *b, const uint8_t *id)
{
    for (int i = 0; id != NULL && i < 32; i++) {
        ccnx_buf_printf(b, "%02X", id[i]);
    }
}

/* ---- XML: the reference's layout, element for element ---- */

struct fib_ctx {
    struct ccnx_buf *b;
    uint64_t now;
    int json;
    int html;
    int first;
};

static int xml_fentry(const uint8_t *prefix, size_t len, const struct fib_nexthop *hops,
                      size_t nhops, const char *strategy, const char *params, void *arg)
{
    (void)strategy;
    (void)params;
    struct fib_ctx *c = arg;
    if (nhops == 0) {
        return 0;
    }
    ccnx_buf_append_str(c->b, "<fentry><prefix>");
    put_uri(c->b, prefix, len, 0);
    ccnx_buf_append_str(c->b, "</prefix>");
    for (size_t i = 0; i < nhops; i++) {
        ccnx_buf_printf(c->b,
                        "<dest><faceid>%u</faceid><flags>%x</flags><expires>%ld</expires></dest>",
                        hops[i].faceid, hops[i].flags, expires_s(hops[i].expires, c->now));
    }
    ccnx_buf_append_str(c->b, "</fentry>");
    return 0;
}

static void xml_faces(const struct status *st, const struct status_view *v, struct ccnx_buf *b)
{
    ccnx_buf_append_str(b, "<faces>");
    for (size_t i = 0; i < v->nfaces; i++) {
        const struct status_face *f = &v->faces[i];
        ccnx_buf_printf(b, "<face><faceid>%u</faceid><faceflags>%04x</faceflags>", f->faceid,
                        status_ref_flags(f->flags, f->faceid));
        ccnx_buf_printf(b, "<pending>%llu</pending><recvcount>%llu</recvcount>",
                        (unsigned long long)f->pending, (unsigned long long)f->msgs_in);
        if (f->flags & (FACE_F_INET | FACE_F_INET6)) {
            ccnx_buf_append_str(b, "<ip>");
            put_escaped(b, f->remote, strlen(f->remote), 0);
            ccnx_buf_append_str(b, "</ip>");
        }
        if (!(f->flags & FACE_F_PASSIVE)) {
            ccnx_buf_append_str(b, "<meters>");
            for (int m = 0; m < STATUS_METERS; m++) {
                uint64_t total, rate;
                status_meter(st, f, (enum status_meter)m, &total, &rate);
                ccnx_buf_printf(b, "<%s><total>%llu</total><persec>%llu</persec></%s>",
                                meter_names[m], (unsigned long long)total, (unsigned long long)rate,
                                meter_names[m]);
            }
            ccnx_buf_append_str(b, "</meters>");
        }
        ccnx_buf_append_str(b, "</face>\n");
    }
    ccnx_buf_append_str(b, "</faces>");
}

static void render_xml(const struct status *st, const struct status_view *v, struct ccnx_buf *b)
{
    struct figures g;
    figures_get(v, &g);
    ccnx_buf_append_str(b, "<ccnd><identity><ccndid>");
    put_ccndid(b, v->ccndid);
    ccnx_buf_printf(b,
                    "</ccndid><apiversion>%d</apiversion><starttime>%llu.%06u</starttime>"
                    "<now>%llu.%06u</now></identity>",
                    STATUS_API_VERSION, (unsigned long long)(v->start_us / 1000000u),
                    (unsigned)(v->start_us % 1000000u), (unsigned long long)(v->now_us / 1000000u),
                    (unsigned)(v->now_us % 1000000u));
    ccnx_buf_append_str(b, "<cobs>");
    put_figures(b, &g, FIG_COBS, FIG_COBS, STATUS_XML);
    ccnx_buf_append_str(b, "</cobs><interests>");
    put_figures(b, &g, FIG_INTERESTS, FIG_TOTALS, STATUS_XML);
    ccnx_buf_append_str(b, "</interests>");
    xml_faces(st, v, b);
    ccnx_buf_append_str(b, "<forwarding>");
    struct fib_ctx c = {b, v->mono_now, 0, 0, 1};
    if (v->fib != NULL) {
        fib_foreach(v->fib, xml_fentry, &c);
    }
    /* the reference's layout unchanged when no application registered */
    ccnx_buf_append_str(b, v->npubs > 0 ? "</forwarding><publishers>" : "</forwarding>");
    for (size_t i = 0; i < v->npubs; i++) {
        const struct fw_pub *p = &v->pubs[i];
        ccnx_buf_append_str(b, "<publisher><prefix>");
        put_uri(b, p->name, p->len, 0);
        ccnx_buf_printf(b,
                        "</prefix><seen>%llu</seen><fromstore>%llu</fromstore>"
                        "<toproducer>%llu</toproducer></publisher>",
                        (unsigned long long)p->seen, (unsigned long long)p->from_store,
                        (unsigned long long)p->to_producer);
    }
    ccnx_buf_append_str(b, v->npubs > 0 ? "</publishers></ccnd>\n" : "</ccnd>\n");
}

/* ---- JSON (schema in docs/ccnd-status.md) ---- */

static void json_str(struct ccnx_buf *b, const char *s)
{
    ccnx_buf_append_byte(b, '"');
    put_escaped(b, s, strlen(s), 1);
    ccnx_buf_append_byte(b, '"');
}

static int json_fentry(const uint8_t *prefix, size_t len, const struct fib_nexthop *hops,
                       size_t nhops, const char *strategy, const char *params, void *arg)
{
    struct fib_ctx *c = arg;
    ccnx_buf_append_str(c->b, c->first ? "\n  {\"prefix\":\"" : ",\n  {\"prefix\":\"");
    c->first = 0;
    put_uri(c->b, prefix, len, 1);
    ccnx_buf_append_str(c->b, "\",\"strategy\":");
    if (strategy != NULL) {
        json_str(c->b, strategy);
        ccnx_buf_append_str(c->b, ",\"params\":");
        json_str(c->b, params != NULL ? params : "");
    } else {
        ccnx_buf_append_str(c->b, "null,\"params\":null");
    }
    ccnx_buf_append_str(c->b, ",\"dests\":[");
    for (size_t i = 0; i < nhops; i++) {
        ccnx_buf_printf(c->b, "%s{\"faceid\":%u,\"flags\":%u,\"expires\":%ld}", i ? "," : "",
                        hops[i].faceid, hops[i].flags, expires_s(hops[i].expires, c->now));
    }
    ccnx_buf_append_str(c->b, "]}");
    return 0;
}

static void json_face(const struct status *st, const struct status_face *f, struct ccnx_buf *b)
{
    ccnx_buf_printf(b, "\n  {\"faceid\":%u,\"faceflags\":\"%04x\",\"kind\":", f->faceid,
                    status_ref_flags(f->flags, f->faceid));
    json_str(b, f->kind != NULL ? f->kind : "");
    ccnx_buf_append_str(b, ",\"remote\":");
    json_str(b, f->remote);
    ccnx_buf_printf(b,
                    ",\"passive\":%s,\"http\":%s,\"pending\":%llu,\"msgs_in\":%llu,"
                    "\"msgs_out\":%llu,\"queued\":%llu,\"drops\":%llu,\"malformed\":%llu,"
                    "\"meters\":{",
                    (f->flags & FACE_F_PASSIVE) ? "true" : "false",
                    (f->flags & FACE_F_HTTP) ? "true" : "false", (unsigned long long)f->pending,
                    (unsigned long long)f->msgs_in, (unsigned long long)f->msgs_out,
                    (unsigned long long)f->queued, (unsigned long long)f->drops,
                    (unsigned long long)f->malformed);
    for (int m = 0; m < STATUS_METERS; m++) {
        uint64_t total, rate;
        status_meter(st, f, (enum status_meter)m, &total, &rate);
        ccnx_buf_printf(b, "%s\"%s\":{\"total\":%llu,\"persec\":%llu}", m ? "," : "",
                        meter_names[m], (unsigned long long)total, (unsigned long long)rate);
    }
    ccnx_buf_append_str(b, "}}");
}

static void json_fw(const struct status_view *v, struct ccnx_buf *b)
{
    const struct fw_stats *s = &v->fw;
    const struct {
        const char *name;
        uint64_t v;
    } f[] = {
        {"interests_in", s->interests_in},
        {"interests_out", s->interests_out},
        {"interests_malformed", s->interests_malformed},
        {"interests_out_of_scope", s->interests_out_of_scope},
        {"interests_nonlocal", s->interests_nonlocal},
        {"interests_kept_local", s->interests_kept_local},
        {"interests_duplicate", s->interests_duplicate},
        {"interests_pit_full", s->interests_pit_full},
        {"interests_aggregated", s->interests_aggregated},
        {"interests_retransmitted", s->interests_retransmitted},
        {"interests_suppressed", s->interests_suppressed},
        {"interests_cs_answered", s->interests_cs_answered},
        {"interests_internal", s->interests_internal},
        {"interests_nonce_added", s->interests_nonce_added},
        {"interests_expired", s->interests_expired},
        {"content_in", s->content_in},
        {"content_out", s->content_out},
        {"content_malformed", s->content_malformed},
        {"content_unsolicited", s->content_unsolicited},
        {"content_unsolicited_kept", s->content_unsolicited_kept},
        {"other_dropped", s->other_dropped},
        {"send_failures", s->send_failures},
        {"input_malformed", v->input_malformed},
    };
    ccnx_buf_append_str(b, "\"forwarder\":{");
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        ccnx_buf_printf(b, "%s\"%s\":%llu", i ? "," : "", f[i].name, (unsigned long long)f[i].v);
    }
    ccnx_buf_append_str(b, "},\n");
}

static void render_json(const struct status *st, const struct status_view *v, struct ccnx_buf *b)
{
    struct figures g;
    figures_get(v, &g);
    ccnx_buf_append_str(b, "{\"identity\":{\"ccndid\":\"");
    put_ccndid(b, v->ccndid);
    ccnx_buf_printf(b, "\",\"apiversion\":%d,\"starttime\":%llu.%06u,\"now\":%llu.%06u,\"host\":",
                    STATUS_API_VERSION, (unsigned long long)(v->start_us / 1000000u),
                    (unsigned)(v->start_us % 1000000u), (unsigned long long)(v->now_us / 1000000u),
                    (unsigned)(v->now_us % 1000000u));
    json_str(b, v->host != NULL ? v->host : "");
    ccnx_buf_printf(b, ",\"pid\":%ld,\"port\":%u,\"debug\":%d},\n", v->pid, v->port, v->debug);
    ccnx_buf_append_str(b, "\"cobs\":{");
    put_figures(b, &g, FIG_COBS, FIG_COBS, STATUS_JSON);
    ccnx_buf_append_str(b, "},\n\"interests\":{");
    put_figures(b, &g, FIG_INTERESTS, FIG_TOTALS, STATUS_JSON);
    ccnx_buf_append_str(b, "},\n");
    ccnx_buf_printf(b,
                    "\"tables\":{\"cs_entries\":%llu,\"cs_bytes\":%llu,\"cs_charged\":%llu,"
                    "\"cs_capacity\":%llu,\"cs_capacity_bytes\":%llu,\"cs_hits\":%llu,"
                    "\"cs_misses\":%llu,\"cs_evictions\":%llu,\"pit_entries\":%llu,"
                    "\"fib_prefixes\":%llu},\n",
                    (unsigned long long)g.cs.entries, (unsigned long long)g.cs.bytes,
                    (unsigned long long)g.cs.charged, (unsigned long long)g.cs.capacity,
                    (unsigned long long)(g.cs.max_bytes == UINT64_MAX ? 0 : g.cs.max_bytes),
                    (unsigned long long)g.cs.hits, (unsigned long long)g.cs.misses,
                    (unsigned long long)g.cs.evictions, (unsigned long long)g.propagating,
                    (unsigned long long)g.names);
    json_fw(v, b);
    ccnx_buf_append_str(b, "\"faces\":[");
    for (size_t i = 0; i < v->nfaces; i++) {
        if (i > 0) {
            ccnx_buf_append_byte(b, ',');
        }
        json_face(st, &v->faces[i], b);
    }
    ccnx_buf_append_str(b, "],\n\"forwarding\":[");
    struct fib_ctx c = {b, v->mono_now, 1, 0, 1};
    if (v->fib != NULL) {
        fib_foreach(v->fib, json_fentry, &c);
    }
    ccnx_buf_append_str(b, "],\n\"publishers\":[");
    for (size_t i = 0; i < v->npubs; i++) {
        const struct fw_pub *p = &v->pubs[i];
        ccnx_buf_append_str(b, i > 0 ? ",{\"prefix\":\"" : "{\"prefix\":\"");
        put_uri(b, p->name, p->len, 1);
        ccnx_buf_printf(b, "\",\"seen\":%llu,\"from_store\":%llu,\"to_producer\":%llu}",
                        (unsigned long long)p->seen, (unsigned long long)p->from_store,
                        (unsigned long long)p->to_producer);
    }
    ccnx_buf_append_str(b, "]}\n");
}

/* ---- HTML: readable in a browser, and as text once the tags are gone ---- */

static int html_fentry(const uint8_t *prefix, size_t len, const struct fib_nexthop *hops,
                       size_t nhops, const char *strategy, const char *params, void *arg)
{
    struct fib_ctx *c = arg;
    ccnx_buf_append_str(c->b, " <li>");
    put_uri(c->b, prefix, len, 0);
    for (size_t i = 0; i < nhops; i++) {
        ccnx_buf_printf(c->b, " <b>face:</b> %u <b>flags:</b> 0x%x <b>expires:</b> %ld",
                        hops[i].faceid, hops[i].flags, expires_s(hops[i].expires, c->now));
    }
    if (strategy != NULL) {
        ccnx_buf_append_str(c->b, " <b>strategy:</b> ");
        put_escaped(c->b, strategy, strlen(strategy), 0);
        if (params != NULL && params[0] != '\0') {
            ccnx_buf_append_byte(c->b, ' ');
            put_escaped(c->b, params, strlen(params), 0);
        }
    }
    ccnx_buf_append_str(c->b, "</li>\n");
    return 0;
}

static void html_faces(const struct status *st, const struct status_view *v, struct ccnx_buf *b)
{
    ccnx_buf_append_str(b, "<h4>Faces</h4>\n<ul>\n");
    for (size_t i = 0; i < v->nfaces; i++) {
        const struct status_face *f = &v->faces[i];
        ccnx_buf_printf(b, " <li><b>face:</b> %u <b>flags:</b> 0x%x <b>kind:</b> %s", f->faceid,
                        status_ref_flags(f->flags, f->faceid), f->kind != NULL ? f->kind : "");
        ccnx_buf_printf(b, " <b>pending:</b> %llu <b>activity:</b> %llu",
                        (unsigned long long)f->pending, (unsigned long long)f->msgs_in);
        if (f->malformed > 0) {
            ccnx_buf_printf(b, " <b>malformed:</b> %llu", (unsigned long long)f->malformed);
        }
        if (f->remote[0] != '\0') {
            ccnx_buf_append_str(b, (f->flags & FACE_F_PASSIVE) ? " <b>local:</b> "
                                                               : " <b>remote:</b> ");
            put_escaped(b, f->remote, strlen(f->remote), 0);
        }
        ccnx_buf_append_str(b, "</li>\n");
    }
    ccnx_buf_append_str(b, "</ul>\n<h4>Face Activity Rates</h4>\n<table class='tbl' "
                           "summary='face activity rates'><tbody>\n <tr><td>face</td>\t"
                           "<td>Bytes/sec In/Out</td>\t<td>recv data/intr sent</td>\t"
                           "<td>sent data/intr recv</td>\t<td>totals in/out</td></tr>\n");
    for (size_t i = 0; i < v->nfaces; i++) {
        const struct status_face *f = &v->faces[i];
        if (f->flags & FACE_F_PASSIVE) {
            continue;
        }
        uint64_t t[STATUS_METERS], r[STATUS_METERS];
        for (int m = 0; m < STATUS_METERS; m++) {
            status_meter(st, f, (enum status_meter)m, &t[m], &r[m]);
        }
        ccnx_buf_printf(
            b,
            " <tr><td><b>face:</b> %u</td>\t<td>%llu / %llu</td>\t<td>%llu / %llu</td>"
            "\t<td>%llu / %llu</td>\t<td>%llu B %llu d %llu i / %llu B %llu d %llu "
            "i</td></tr>\n",
            f->faceid, (unsigned long long)r[0], (unsigned long long)r[1], (unsigned long long)r[2],
            (unsigned long long)r[3], (unsigned long long)r[4], (unsigned long long)r[5],
            (unsigned long long)t[0], (unsigned long long)t[2], (unsigned long long)t[5],
            (unsigned long long)t[1], (unsigned long long)t[4], (unsigned long long)t[3]);
    }
    ccnx_buf_append_str(b, "</tbody></table>\n");
}

static void html_head(const struct status_view *v, struct ccnx_buf *b)
{
    const char *host = v->host != NULL ? v->host : "";
    ccnx_buf_append_str(b, "<html xmlns='http://www.w3.org/1999/xhtml'><head><title>");
    put_escaped(b, host, strlen(host), 0);
    ccnx_buf_printf(b, " ccnd[%ld]</title>", v->pid);
    if (v->refresh > 0) {
        ccnx_buf_printf(b, "<meta http-equiv='refresh' content='%d'/>", v->refresh);
    }
    unsigned color =
        v->ccndid != NULL
            ? ((unsigned)v->ccndid[0] << 16 | (unsigned)v->ccndid[1] << 8 | v->ccndid[2]) |
                  0xC0C0C0u
            : 0xFFFFFFu;
    ccnx_buf_printf(b,
                    "<style type='text/css'>p.header {color: white; background-color: blue} "
                    "td {border: 1px solid #808080; padding: 6px; text-align: center}</style>"
                    "</head>\n<body bgcolor='#%06X'>\n<p class='header'>",
                    color);
    put_escaped(b, host, strlen(host), 0);
    ccnx_buf_printf(
        b, " ccnd[%ld] local port %u api %d start %llu.%06u now %llu.%06u debug %d</p>\n", v->pid,
        v->port, STATUS_API_VERSION, (unsigned long long)(v->start_us / 1000000u),
        (unsigned)(v->start_us % 1000000u), (unsigned long long)(v->now_us / 1000000u),
        (unsigned)(v->now_us % 1000000u), v->debug);
}

static void render_html(const struct status *st, const struct status_view *v, struct ccnx_buf *b)
{
    struct figures g;
    figures_get(v, &g);
    html_head(v, b);
    ccnx_buf_append_str(b, "<div><b>Content items:</b>");
    put_figures(b, &g, FIG_COBS, FIG_COBS, STATUS_HTML);
    ccnx_buf_append_str(b, "</div>\n<div><b>Interests:</b>");
    put_figures(b, &g, FIG_INTERESTS, FIG_INTERESTS, STATUS_HTML);
    ccnx_buf_append_str(b, "</div>\n<div><b>Interest totals:</b>");
    put_figures(b, &g, FIG_TOTALS, FIG_TOTALS, STATUS_HTML);
    ccnx_buf_printf(b,
                    "</div>\n<div><b>Malformed input:</b> %llu (faces closed for it "
                    "included)</div>\n",
                    (unsigned long long)v->input_malformed);
    ccnx_buf_printf(b,
                    "<div><b>Tables:</b> CS %llu objects (%llu bytes, %llu with their entries; "
                    "at most %llu objects, %llu bytes with their entries; %llu hits, %llu misses, "
                    "%llu evicted), PIT %llu entries, FIB %llu prefixes</div>\n",
                    (unsigned long long)g.cs.entries, (unsigned long long)g.cs.bytes,
                    (unsigned long long)g.cs.charged, (unsigned long long)g.cs.capacity,
                    (unsigned long long)(g.cs.max_bytes == UINT64_MAX ? 0 : g.cs.max_bytes),
                    (unsigned long long)g.cs.hits, (unsigned long long)g.cs.misses,
                    (unsigned long long)g.cs.evictions, (unsigned long long)g.propagating,
                    (unsigned long long)g.names);
    html_faces(st, v, b);
    ccnx_buf_append_str(b, "<h4>Forwarding and strategies</h4>\n<ul>\n");
    struct fib_ctx c = {b, v->mono_now, 0, 1, 1};
    if (v->fib != NULL) {
        fib_foreach(v->fib, html_fentry, &c);
    }
    ccnx_buf_append_str(b, "</ul>\n");
    if (v->npubs > 0) {
        ccnx_buf_append_str(b, "<h4>Publishers (prefixes this host's applications registered)</h4>"
                               "\n<ul>\n");
    }
    for (size_t i = 0; i < v->npubs; i++) {
        const struct fw_pub *p = &v->pubs[i];
        ccnx_buf_append_str(b, " <li>");
        put_uri(b, p->name, p->len, 0);
        ccnx_buf_printf(b,
                        " <b>Interests:</b> %llu <b>from the store:</b> %llu <b>to the "
                        "producer:</b> %llu</li>\n",
                        (unsigned long long)p->seen, (unsigned long long)p->from_store,
                        (unsigned long long)p->to_producer);
    }
    ccnx_buf_append_str(b, v->npubs > 0 ? "</ul>\n</body></html>\n" : "</body></html>\n");
}

int status_render(const struct status *st, const struct status_view *v, enum status_format fmt,
                  struct ccnx_buf *out)
{
    if (fmt == STATUS_XML) {
        render_xml(st, v, out);
    } else if (fmt == STATUS_JSON) {
        render_json(st, v, out);
    } else {
        render_html(st, v, out);
    }
    return ccnx_buf_status(out) == 0 ? 0 : CCNX_E_NOMEM;
}

int status_render_log(int level, struct ccnx_buf *out)
{
    ccnx_buf_printf(out, "<title>CCND_DEBUG=%d</title><tt>CCND_DEBUG=%d</tt>\r\n", level, level);
    return ccnx_buf_status(out) == 0 ? 0 : CCNX_E_NOMEM;
}
