/* The repository policy: its ccnb form, its stored object, and finding the
 * one in force in the store (see policy.h). */
#include "policy.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POLICY_FRESHNESS 600 /* seconds, as the reference's policy object */
#define LOAD_MAX_TRIES   64  /* stored versions looked at before giving up */

int ccnr_policy_init(struct ccnr_policy *p)
{
    memset(p, 0, sizeof *p);
    return ccnx_name_init(&p->global_prefix);
}

void ccnr_policy_free(struct ccnr_policy *p)
{
    free(p->version);
    free(p->local_name);
    free(p->global_text);
    ccnx_name_free(&p->global_prefix);
    for (size_t i = 0; i < p->count; i++) {
        free(p->space_text[i]);
        ccnx_name_free(&p->spaces[i]);
    }
    free(p->space_text);
    free(p->spaces);
    memset(p, 0, sizeof *p);
}

/* The whole text must be the URI: the parser stops quietly at '?', '#'
 * or NUL, which in a policy would silently widen a namespace. */
static int parse_uri_exact(struct ccnx_name *n, const char *text)
{
    size_t len = strlen(text), used = 0;
    int rc = ccnx_uri_parse(n, text, len, &used);
    return rc == 0 && used != len ? CCNX_E_URI : rc;
}

int ccnr_policy_add_namespace(struct ccnr_policy *p, const char *uri)
{
    if (p->count >= CCNR_POLICY_MAX_SPACES) {
        return CCNX_E_TOOBIG;
    }
    char **t = realloc(p->space_text, (p->count + 1) * sizeof *t);
    if (t != NULL) {
        p->space_text = t;
    }
    struct ccnx_name *s = realloc(p->spaces, (p->count + 1) * sizeof *s);
    if (s != NULL) {
        p->spaces = s;
    }
    char *text = strdup(uri);
    if (t == NULL || s == NULL || text == NULL || ccnx_name_init(&s[p->count]) != 0) {
        free(text);
        return CCNX_E_NOMEM;
    }
    int rc = parse_uri_exact(&s[p->count], text);
    if (rc != 0) {
        ccnx_name_free(&s[p->count]);
        free(text);
        return rc;
    }
    t[p->count++] = text;
    return 0;
}

int ccnr_policy_default(struct ccnr_policy *p, const struct ccnx_name *global_prefix)
{
    struct ccnx_buf u = CCNX_BUF_INIT;
    int rc = ccnr_policy_init(p);
    rc = rc == 0 ? ccnx_uri_append_name(&u, global_prefix) : rc;
    rc = rc == 0 ? ccnx_name_copy(&p->global_prefix, global_prefix) : rc;
    if (rc == 0) {
        p->version = strdup(CCNR_POLICY_VERSION);
        p->local_name = strdup(CCNR_POLICY_LOCAL_NAME);
        p->global_text = strdup(ccnx_buf_cstr(&u));
        if (p->version == NULL || p->local_name == NULL || p->global_text == NULL) {
            rc = CCNX_E_NOMEM;
        }
    }
    rc = rc == 0 ? ccnr_policy_add_namespace(p, "/") : rc;
    ccnx_buf_free(&u);
    return rc;
}

static int fail(char *why, size_t whylen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *why, size_t whylen, int rc, const char *fmt, ...)
{
    if (whylen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

/* <dtag>text</dtag> into a NUL-terminated copy. */
static int read_text(struct ccnx_ccnb_reader *rd, uint64_t dtag, const char *what, char **out,
                     char *why, size_t whylen)
{
    size_t off = 0, n = 0;
    if (ccnx_ccnb_peek_dtag(rd) != (int64_t)dtag) {
        return fail(why, whylen, CCNX_E_STRUCTURE, "the Policy has no %s where one belongs", what);
    }
    if (ccnx_ccnb_read_blob(rd, dtag, &off, &n) != 0) {
        return fail(why, whylen, CCNX_E_STRUCTURE, "the Policy's %s is not a text", what);
    }
    if (n > CCNR_POLICY_MAX_TEXT) {
        return fail(why, whylen, CCNX_E_TOOBIG, "the Policy's %s is longer than %d bytes", what,
                    CCNR_POLICY_MAX_TEXT);
    }
    if (memchr(rd->buf + off, 0, n) != NULL) {
        return fail(why, whylen, CCNX_E_VALUE, "the Policy's %s contains a NUL byte", what);
    }
    *out = malloc(n + 1);
    if (*out == NULL) {
        return fail(why, whylen, CCNX_E_NOMEM, "out of memory");
    }
    memcpy(*out, rd->buf + off, n);
    (*out)[n] = '\0';
    return 0;
}

static int read_namespaces(struct ccnr_policy *p, struct ccnx_ccnb_reader *rd, char *why,
                           size_t whylen)
{
    while (ccnx_ccnb_peek_dtag(rd) == CCNX_DTAG_Namespace) {
        char *text = NULL;
        int rc = read_text(rd, CCNX_DTAG_Namespace, "Namespace", &text, why, whylen);
        if (rc != 0) {
            return rc;
        }
        rc = ccnr_policy_add_namespace(p, text);
        if (rc == CCNX_E_TOOBIG) {
            fail(why, whylen, rc, "the Policy has more than %d Namespace elements",
                 CCNR_POLICY_MAX_SPACES);
        } else if (rc != 0) {
            fail(why, whylen, rc, "the Policy's Namespace '%.200s' is not a ccnx: URI", text);
        }
        free(text);
        if (rc != 0) {
            return rc;
        }
    }
    return 0;
}

static int parse_body(struct ccnr_policy *p, const uint8_t *buf, size_t len, char *why,
                      size_t whylen)
{
    size_t end = 0;
    if (len > CCNR_POLICY_MAX_BYTES) {
        return fail(why, whylen, CCNX_E_TOOBIG, "the policy is larger than %d bytes",
                    CCNR_POLICY_MAX_BYTES);
    }
    if (ccnx_ccnb_element_end(buf, len, 0, &end) != 0 || end != len) {
        return fail(why, whylen, CCNX_E_STRUCTURE,
                    "the policy is not one well-formed ccnb element");
    }
    struct ccnx_ccnb_reader rd;
    ccnx_ccnb_reader_init(&rd, buf, len, 0);
    if (ccnx_ccnb_enter(&rd, CCNX_DTAG_Policy) != 0) {
        return fail(why, whylen, CCNX_E_STRUCTURE, "the content is not a Policy element");
    }
    int rc = read_text(&rd, CCNX_DTAG_PolicyVersion, "PolicyVersion", &p->version, why, whylen);
    rc = rc == 0 ? read_text(&rd, CCNX_DTAG_LocalName, "LocalName", &p->local_name, why, whylen)
                 : rc;
    rc = rc == 0
             ? read_text(&rd, CCNX_DTAG_GlobalPrefix, "GlobalPrefix", &p->global_text, why, whylen)
             : rc;
    if (rc == 0 && parse_uri_exact(&p->global_prefix, p->global_text) != 0) {
        rc = fail(why, whylen, CCNX_E_URI, "the Policy's GlobalPrefix '%.200s' is not a ccnx: URI",
                  p->global_text);
    }
    rc = rc == 0 ? read_namespaces(p, &rd, why, whylen) : rc;
    if (rc == 0 && ccnx_ccnb_leave(&rd) != 0) {
        rc = fail(why, whylen, CCNX_E_STRUCTURE,
                  "the Policy holds something other than Namespace elements after GlobalPrefix");
    }
    return rc;
}

int ccnr_policy_parse(struct ccnr_policy *p, const uint8_t *buf, size_t len, char *why,
                      size_t whylen)
{
    int rc = ccnr_policy_init(p);
    if (rc != 0) {
        return fail(why, whylen, rc, "out of memory");
    }
    rc = parse_body(p, buf, len, why, whylen);
    if (rc != 0) {
        ccnr_policy_free(p);
    }
    return rc;
}

static int append_text(struct ccnx_buf *out, uint64_t dtag, const char *text)
{
    if (text == NULL) {
        return CCNX_E_INVAL;
    }
    return ccnx_ccnb_append_udata_element(out, dtag, text, strlen(text));
}

int ccnr_policy_build(struct ccnx_buf *out, const struct ccnr_policy *p)
{
    int rc = ccnx_ccnb_open(out, CCNX_DTAG_Policy);
    rc = rc == 0 ? append_text(out, CCNX_DTAG_PolicyVersion, p->version) : rc;
    rc = rc == 0 ? append_text(out, CCNX_DTAG_LocalName, p->local_name) : rc;
    rc = rc == 0 ? append_text(out, CCNX_DTAG_GlobalPrefix, p->global_text) : rc;
    for (size_t i = 0; rc == 0 && i < p->count; i++) {
        rc = append_text(out, CCNX_DTAG_Namespace, p->space_text[i]);
    }
    rc = rc == 0 ? ccnx_ccnb_append_closer(out) : rc;
    return rc == 0 ? ccnx_buf_status(out) : rc;
}

int ccnr_policy_describe(struct ccnx_buf *out, const struct ccnr_policy *p)
{
    for (size_t i = 0; i < p->count; i++) {
        ccnx_uri_append_name(out, &p->spaces[i]);
        ccnx_buf_append_str(out, " ");
    }
    if (p->count == 0) {
        ccnx_buf_append_str(out, "no namespace ");
    }
    ccnx_buf_append_str(out, "(global prefix ");
    ccnx_uri_append_name(out, &p->global_prefix);
    ccnx_buf_append_str(out, ")");
    return ccnx_buf_status(out);
}

int ccnr_policy_covers(const struct ccnr_policy *p, const uint8_t *name, size_t len)
{
    if (ccnx_name_is_prefix_ccnb(p->global_prefix.enc.data, p->global_prefix.enc.len, name, len) ==
        1) {
        return 1;
    }
    for (size_t i = 0; i < p->count; i++) {
        if (ccnx_name_is_prefix_ccnb(p->spaces[i].enc.data, p->spaces[i].enc.len, name, len) == 1) {
            return 1;
        }
    }
    return 0;
}

int ccnr_policy_name(struct ccnx_name *out, const struct ccnx_name *global_prefix)
{
    int rc = ccnx_name_copy(out, global_prefix);
    rc = rc == 0 ? ccnx_name_append_str(out, "data") : rc;
    return rc == 0 ? ccnx_name_append_str(out, "policy.xml") : rc;
}

int ccnr_policy_is_version_name(const struct ccnx_name *global_prefix, const uint8_t *name,
                                size_t len)
{
    struct ccnx_name pn, n;
    ccnx_name_init(&pn);
    ccnx_name_init(&n);
    struct ccnx_comp last;
    int yes = ccnr_policy_name(&pn, global_prefix) == 0 && ccnx_name_set_ccnb(&n, name, len) == 0 &&
              n.count == pn.count + 1 && ccnx_name_is_prefix(&pn, &n) == 1 &&
              ccnx_name_comp(&n, pn.count, &last) == 0 && ccnx_naming_is_version(last.p, last.n);
    ccnx_name_free(&pn);
    ccnx_name_free(&n);
    return yes;
}

int ccnr_policy_sign(struct ccnx_buf *out, const struct ccnr_policy *p, const struct ccnx_key *key,
                     const struct timespec *when, uint64_t *version)
{
    struct ccnx_buf body = CCNX_BUF_INIT;
    struct ccnx_name n;
    ccnx_name_init(&n);
    uint8_t ver[CCNX_VERSION_MAX_LEN], seg[CCNX_NUMERIC_MAX_LEN];
    int rc = ccnx_naming_timestamp_from_timespec(when, version);
    int vlen = rc == 0 ? ccnx_naming_version_build(*version, ver) : rc;
    int slen = ccnx_naming_segment_build(0, seg);
    rc = vlen < 0 ? vlen : slen < 0 ? slen : 0;
    rc = rc == 0 ? ccnr_policy_name(&n, &p->global_prefix) : rc;
    rc = rc == 0 ? ccnx_name_append(&n, ver, (size_t)vlen) : rc;
    rc = rc == 0 ? ccnx_name_append(&n, seg, (size_t)slen) : rc;
    rc = rc == 0 ? ccnr_policy_build(&body, p) : rc;
    if (rc == 0) {
        struct ccnx_content_params cp;
        ccnx_content_params_init(&cp);
        cp.name = n.enc.data;
        cp.name_len = n.enc.len;
        cp.freshness = POLICY_FRESHNESS;
        cp.final_block_id = seg;
        cp.final_block_id_len = (size_t)slen;
        cp.content = body.data;
        cp.content_len = body.len;
        rc = ccnx_content_sign(out, &cp, key);
    }
    ccnx_name_free(&n);
    ccnx_buf_free(&body);
    return rc;
}

/* The store's answer to an Interest for `name` with the given selectors. */
static int lookup(struct ccnr_store *s, const struct ccnx_name *name, int max_suffix,
                  int child_selector, const struct ccnx_exclude_item *ex, size_t nex,
                  struct ccnx_buf *obj)
{
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = name->enc.data;
    ip.name_len = name->enc.len;
    ip.max_suffix = max_suffix;
    ip.child_selector = child_selector;
    ip.exclude = ex;
    ip.exclude_count = nex;
    struct ccnx_buf ib = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    int rc = ccnx_interest_build(&ib, &ip);
    rc = rc == 0 ? ccnx_interest_parse(ib.data, ib.len, &pi) : rc;
    rc = rc == 0 ? ccnr_store_lookup(s, ib.data, &pi, obj) : rc;
    ccnx_buf_free(&ib);
    return rc;
}

/* Appends the content of the object in obj; 1 when it is the last segment
 * (its FinalBlockID names segment seg), 0 when more follow, or negative. */
static int append_segment(const struct ccnx_buf *obj, const uint8_t *seg, size_t slen,
                          struct ccnx_buf *body)
{
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(obj->data, obj->len, &pc) != 0) {
        return CCNX_E_INVAL; /* the store holds only well-formed objects */
    }
    if (body->len + pc.content_value.len > CCNR_POLICY_MAX_BYTES) {
        return CCNX_E_TOOBIG;
    }
    int rc = ccnx_buf_append(body, obj->data + pc.content_value.off, pc.content_value.len);
    if (rc != 0) {
        return rc;
    }
    return pc.has_final_block_id && pc.final_block_id.len == slen &&
           memcmp(obj->data + pc.final_block_id.off, seg, slen) == 0;
}

int ccnr_policy_read_version(struct ccnr_store *s, const struct ccnx_name *policy_name,
                             const uint8_t *ver, size_t vlen, struct ccnx_buf *body)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    struct ccnx_buf obj = CCNX_BUF_INIT;
    ccnx_buf_reset(body);
    int rc = 0;
    for (uint64_t i = 0; rc == 0 && i < CCNR_POLICY_MAX_SEGMENT; i++) {
        uint8_t seg[CCNX_NUMERIC_MAX_LEN];
        int slen = ccnx_naming_segment_build(i, seg);
        rc = slen < 0 ? slen : ccnx_name_copy(&n, policy_name);
        rc = rc == 0 ? ccnx_name_append(&n, ver, vlen) : rc;
        rc = rc == 0 ? ccnx_name_append(&n, seg, (size_t)slen) : rc;
        /* the segment itself, with only its implicit digest after it */
        rc = rc == 0 ? lookup(s, &n, 1, -1, NULL, 0, &obj) : rc;
        if (rc == 1) {
            rc = append_segment(&obj, seg, (size_t)slen, body);
            rc = rc == 0 ? 0 : rc == 1 ? 2 : rc;
        } else if (rc == 0) {
            rc = 3; /* a segment is missing */
        }
    }
    ccnx_name_free(&n);
    ccnx_buf_free(&obj);
    /* 2: whole; 3 or still 0 after the last segment: missing or too long;
     * a malformed or oversized segment makes the version unusable too */
    if (rc == 2) {
        return 1;
    }
    return rc == 0 || rc == 3 || rc == CCNX_E_TOOBIG || rc == CCNX_E_INVAL ? 0 : rc;
}

static void note(void (*fn)(void *, const char *), void *arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(void (*fn)(void *, const char *), void *arg, const char *fmt, ...)
{
    if (fn != NULL) {
        char line[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
        fn(arg, line);
    }
}

/* Whether the stored version ver qualifies: 1 with p set, 0, or negative. */
static int try_version(struct ccnr_store *s, const struct ccnx_name *pn,
                       const struct ccnx_name *global_prefix, const struct ccnx_comp *ver,
                       struct ccnr_policy *p, void (*fn)(void *, const char *), void *arg)
{
    struct ccnx_buf body = CCNX_BUF_INIT, u = CCNX_BUF_INIT;
    ccnx_uri_append_comp(&u, ver->p, ver->n);
    int rc = ccnr_policy_read_version(s, pn, ver->p, ver->n, &body);
    if (rc == 0) {
        note(fn, arg, "stored policy version %s is incomplete: not used", ccnx_buf_cstr(&u));
    } else if (rc == 1) {
        char why[300];
        rc = ccnr_policy_parse(p, body.data, body.len, why, sizeof why) == 0 ? 1 : 0;
        if (rc == 0) {
            note(fn, arg, "stored policy version %s is malformed: %s", ccnx_buf_cstr(&u), why);
        } else if (ccnx_name_compare(&p->global_prefix, global_prefix) != 0) {
            note(fn, arg, "stored policy version %s names another GlobalPrefix, %s: not used",
                 ccnx_buf_cstr(&u), p->global_text);
            ccnr_policy_free(p);
            rc = 0;
        }
    }
    ccnx_buf_free(&body);
    ccnx_buf_free(&u);
    return rc;
}

int ccnr_policy_load(struct ccnr_store *s, const struct ccnx_name *global_prefix,
                     struct ccnr_policy *p, uint64_t *version,
                     void (*fn)(void *arg, const char *why), void *arg)
{
    struct ccnx_name pn, found;
    ccnx_name_init(&pn);
    ccnx_name_init(&found);
    struct ccnx_buf obj = CCNX_BUF_INIT, below = CCNX_BUF_INIT;
    int rc = ccnr_policy_name(&pn, global_prefix);
    /* newest first: the rightmost child, then the rightmost below the
     * versions already tried (excluded from that one on) */
    for (int tries = 0; rc == 0 && tries < LOAD_MAX_TRIES; tries++) {
        struct ccnx_exclude_item ex[2] = {
            {CCNX_EXCLUDE_COMPONENT, below.data, below.len},
            {CCNX_EXCLUDE_ANY, NULL, 0},
        };
        struct ccnx_comp ver;
        rc = lookup(s, &pn, -1, 1, ex, tries > 0 ? 2 : 0, &obj);
        if (rc != 1) {
            break;
        }
        struct ccnx_content_parsed pc;
        rc = ccnx_content_parse(obj.data, obj.len, &pc);
        rc = rc == 0 ? ccnx_name_set_ccnb(&found, obj.data + pc.name.off, pc.name.len) : rc;
        rc = rc == 0 ? ccnx_name_comp(&found, pn.count, &ver) : rc;
        if (rc != 0) {
            break;
        }
        if (ccnx_naming_is_version(ver.p, ver.n) &&
            (rc = try_version(s, &pn, global_prefix, &ver, p, fn, arg)) != 0) {
            if (rc == 1) {
                ccnx_naming_version_decode(ver.p, ver.n, version);
            }
            break;
        }
        ccnx_buf_reset(&below);
        rc = ccnx_buf_append(&below, ver.p, ver.n);
    }
    ccnx_name_free(&pn);
    ccnx_name_free(&found);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&below);
    return rc;
}
