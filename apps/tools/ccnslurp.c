/* ccnslurp: print the names of all content under a prefix.
 *
 * Each prefix being explored keeps one Interest out at a time, excluding
 * the next-level components already seen under it. Every answer names one
 * object (printed once, known by its digest) and one child component, which
 * is excluded from now on and becomes a prefix to explore in turn. A prefix
 * is done when a round stays unanswered (see round_ms); the tool ends when
 * every prefix is done. */
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"
#include "tool_client.h"

#define ROUND_MS      1000 /* wait for an answer before anything was measured */
#define MIN_ROUND_MS  100
#define MAX_EXPLORING 64 /* prefixes with an Interest out at once */

static const uint8_t no_digest[CCNX_DIGEST_LEN]; /* an empty slot of the set */

struct comp {
    uint8_t *p;
    size_t n;
};

struct prefix {
    struct ccnx_name name;
    struct comp *excl; /* kept in canonical order */
    size_t nexcl, cap;
    struct prefix *next; /* in the waiting list */
    int64_t asked_at;    /* ms, when the current Interest went out */
    struct slurp *owner;
};

struct slurp {
    struct ccnx_client *c;
    struct prefix *waiting; /* not yet started */
    size_t exploring;
    uint8_t (*digests)[CCNX_DIGEST_LEN]; /* open addressing set */
    size_t dcap, dcount;
    unsigned long printed;
    int64_t slowest; /* longest answer time seen, ms; -1 before the first */
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-h] URI\n"
            "Print the names of all content found under URI, one per line, as ccnx: URIs.\n"
            "Ends when nothing new has come for a while under any prefix.\n"
            "\n"
            "Exit status: 0 done, 1 failure, 2 usage.\n",
            tool_name());
}

/* 1 when the digest was new (and is now known). */
static int digest_add(struct slurp *s, const uint8_t *d)
{
    if (2 * (s->dcount + 1) > s->dcap) {
        size_t cap = s->dcap ? 2 * s->dcap : 1024;
        uint8_t(*grown)[CCNX_DIGEST_LEN] = calloc(cap, CCNX_DIGEST_LEN);
        if (grown == NULL) {
            tool_die("out of memory");
        }
        uint8_t(*old)[CCNX_DIGEST_LEN] = s->digests;
        size_t oldcap = s->dcap;
        s->digests = grown;
        s->dcap = cap;
        s->dcount = 0;
        for (size_t i = 0; i < oldcap; i++) {
            if (memcmp(old[i], no_digest, CCNX_DIGEST_LEN) != 0) {
                digest_add(s, old[i]);
            }
        }
        free(old);
    }
    size_t h;
    memcpy(&h, d, sizeof h); /* digests are uniformly distributed already */
    for (size_t i = h & (s->dcap - 1);; i = (i + 1) & (s->dcap - 1)) {
        if (memcmp(s->digests[i], d, CCNX_DIGEST_LEN) == 0) {
            return 0;
        }
        if (memcmp(s->digests[i], no_digest, CCNX_DIGEST_LEN) == 0) {
            memcpy(s->digests[i], d, CCNX_DIGEST_LEN);
            s->dcount++;
            return 1;
        }
    }
}

static void exclude_add(struct prefix *p, const uint8_t *c, size_t n)
{
    size_t at = 0;
    while (at < p->nexcl && ccnx_comp_compare(p->excl[at].p, p->excl[at].n, c, n) < 0) {
        at++;
    }
    if (at < p->nexcl && ccnx_comp_compare(p->excl[at].p, p->excl[at].n, c, n) == 0) {
        return;
    }
    if (p->nexcl == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 8;
        struct comp *grown = realloc(p->excl, cap * sizeof *grown);
        if (grown == NULL) {
            tool_die("out of memory");
        }
        p->excl = grown;
        p->cap = cap;
    }
    uint8_t *copy = malloc(n ? n : 1);
    if (copy == NULL) {
        tool_die("out of memory");
    }
    memcpy(copy, c, n);
    memmove(p->excl + at + 1, p->excl + at, (p->nexcl - at) * sizeof *p->excl);
    p->excl[at] = (struct comp){copy, n};
    p->nexcl++;
}

static void prefix_free(struct prefix *p)
{
    for (size_t i = 0; i < p->nexcl; i++) {
        free(p->excl[i].p);
    }
    free(p->excl);
    ccnx_name_free(&p->name);
    free(p);
}

static void queue_prefix(struct slurp *s, const struct ccnx_name *name)
{
    struct prefix *p = calloc(1, sizeof *p);
    if (p == NULL || ccnx_name_copy(&p->name, name) != 0) {
        tool_die("out of memory");
    }
    p->owner = s;
    p->next = s->waiting;
    s->waiting = p;
}

static void ask(struct prefix *p);
static void start_waiting(struct slurp *s);

static void print_name(struct slurp *s, const uint8_t *obj, const struct ccnx_content_parsed *pc)
{
    struct ccnx_buf text = CCNX_BUF_INIT;
    if (ccnx_uri_append(&text, obj + pc->name.off, pc->name.len) == 0) {
        printf("%s\n", ccnx_buf_cstr(&text));
        s->printed++;
    }
    ccnx_buf_free(&text);
}

static void answered(void *arg, const uint8_t *obj, size_t len,
                     const struct ccnx_content_parsed *pc)
{
    struct prefix *p = arg;
    struct slurp *s = p->owner;
    int64_t took = ccnx_client_now_ms() - p->asked_at;
    if (took > s->slowest) {
        s->slowest = took;
    }
    uint8_t digest[CCNX_DIGEST_LEN];
    if (ccnx_content_digest(obj, len, digest) != 0) {
        return;
    }
    if (digest_add(s, digest)) {
        print_name(s, obj, pc);
    }
    /* The child component under this prefix, or the digest for an object
     * named by the prefix itself. */
    struct ccnx_name_iter it;
    struct ccnx_comp comp = {digest, sizeof digest};
    ccnx_name_iter_init(&it, obj + pc->name.off, pc->name.len);
    for (size_t i = 0; i <= p->name.count; i++) {
        if (ccnx_name_iter_next(&it, &comp) != 1) {
            comp = (struct ccnx_comp){digest, sizeof digest};
            break;
        }
    }
    exclude_add(p, comp.p, comp.n);
    if (comp.p != digest) {
        struct ccnx_name child;
        ccnx_name_init(&child);
        if (ccnx_name_copy(&child, &p->name) != 0 || ccnx_name_append(&child, comp.p, comp.n)) {
            tool_die("out of memory");
        }
        queue_prefix(s, &child);
        ccnx_name_free(&child);
    }
    ask(p);
    start_waiting(s);
}

static void start_waiting(struct slurp *s)
{
    while (s->waiting != NULL && s->exploring < MAX_EXPLORING) {
        struct prefix *p = s->waiting;
        s->waiting = p->next;
        s->exploring++;
        ask(p);
    }
}

static void round_over(void *arg)
{
    struct prefix *p = arg;
    struct slurp *s = p->owner;
    s->exploring--;
    prefix_free(p);
    start_waiting(s);
}

/* How long a round waits: a full second until answers have been timed,
 * then a few times the slowest answer seen (a prefix with nothing more under
 * it would otherwise cost a second each). */
static int round_ms(const struct slurp *s)
{
    if (s->slowest < 0) {
        return ROUND_MS;
    }
    int64_t ms = 4 * s->slowest + 50;
    return ms < MIN_ROUND_MS ? MIN_ROUND_MS : ms > ROUND_MS ? ROUND_MS : (int)ms;
}

static void ask(struct prefix *p)
{
    struct ccnx_exclude_item *ex = calloc(p->nexcl + 1, sizeof *ex);
    if (ex == NULL) {
        tool_die("out of memory");
    }
    for (size_t i = 0; i < p->nexcl; i++) {
        ex[i] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, p->excl[i].p, p->excl[i].n};
    }
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = p->name.enc.data;
    ip.name_len = p->name.enc.len;
    ip.exclude = p->nexcl ? ex : NULL;
    ip.exclude_count = p->nexcl;
    struct ccnx_buf msg = CCNX_BUF_INIT;
    struct ccnx_express_opts o = {answered, round_over, p, round_ms(p->owner), 0, 0};
    p->asked_at = ccnx_client_now_ms();
    if (ccnx_interest_build(&msg, &ip) != 0 ||
        ccnx_client_express(p->owner->c, msg.data, msg.len, &o, NULL) != 0) {
        tool_die("cannot express an Interest: %s", ccnx_client_error(p->owner->c));
    }
    ccnx_buf_free(&msg);
    free(ex);
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    if (argc == 2 && tool_is_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    if (argc != 2) {
        tool_usage_error("one ccnx: URI is needed");
    }
    struct ccnx_name root;
    tool_parse_uri(&root, argv[1]);
    struct slurp s = {0};
    s.slowest = -1;
    s.c = tool_client_open();
    queue_prefix(&s, &root);
    start_waiting(&s);
    while (s.exploring > 0) {
        if (ccnx_client_run(s.c, 100) != 0) {
            tool_die("%s", ccnx_client_error(s.c));
        }
    }
    fflush(stdout);
    free(s.digests);
    ccnx_client_destroy(s.c);
    ccnx_name_free(&root);
    return 0;
}
