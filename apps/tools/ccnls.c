/* ccnls: list the name components available one level below a prefix.
 *
 * Two sources are asked at once. Caches: an Interest for the prefix
 * returns some object below it; its next component is noted and excluded
 * from the next Interest, until a round stays unanswered (Exclude rounds,
 * as the reference tool does). Repositories: the name enumeration request
 * <prefix>/%C1.E.be (NameEnumerationProtocol.txt) returns a Collection of
 * Links naming the children they hold. */
#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/interest.h>
#include <ccnx/link.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "tool_client.h"

#define LINGER_MS_DEFAULT 500

struct seen {
    uint8_t **p;
    size_t *n;
    size_t count, cap;
};

struct lister {
    struct ccnx_client *c;
    struct ccnx_verifier *v; /* every object's signature is checked */
    int require_verified;    /* CCN_VERIFY: what does not verify is not listed */
    struct ccnx_name prefix;
    int scope;
    int linger_ms;
    struct seen seen;
    int rounds_open; /* Exclude round or enumeration waiting */
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s ccnxname\n"
            "List the name components available one level below ccnxname: what caches\n"
            "hold (by Exclude rounds) and what repositories hold (by name enumeration).\n"
            "\n"
            "Environment:\n"
            "  CCN_SCOPE   Scope of the Interests (0, 1 or 2; default none)\n"
            "  CCN_LINGER  seconds to wait for more answers (default 0.5)\n"
            "  CCN_VERIFY  when set and not 0, list only what verifies\n"
            "\n"
            "Each name is followed by [verified] when the signature of the object that\n"
            "named it verified with its publisher's key (fetched as other tools do), or\n"
            "[unverified], with the reason on standard error.\n"
            "\n"
            "Exit status: 0 listed (possibly nothing), 1 failure, 2 usage.\n",
            tool_name());
}

/* Adds a component unless known; 1 when it is new. */
static int seen_add(struct seen *s, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < s->count; i++) {
        if (s->n[i] == n && memcmp(s->p[i], p, n) == 0) {
            return 0;
        }
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        uint8_t **np = realloc(s->p, cap * sizeof *np);
        s->p = np != NULL ? np : s->p;
        size_t *nn = realloc(s->n, cap * sizeof *nn);
        s->n = nn != NULL ? nn : s->n;
        if (np == NULL || nn == NULL) {
            tool_die("out of memory");
        }
        s->cap = cap;
    }
    uint8_t *copy = malloc(n ? n : 1);
    if (copy == NULL) {
        tool_die("out of memory");
    }
    memcpy(copy, p, n);
    s->p[s->count] = copy;
    s->n[s->count++] = n;
    return 1;
}

/* Prints one listed name, marked as its object's check came out; not
 * printed when it did not verify and CCN_VERIFY requires it. */
static void print_component(struct lister *l, const uint8_t *p, size_t n, int verified)
{
    if (!verified && l->require_verified) {
        return;
    }
    struct ccnx_buf text = CCNX_BUF_INIT;
    ccnx_uri_append_comp(&text, p, n);
    printf("%s%s\n", text.len ? ccnx_buf_cstr(&text) : ".",
           verified ? " [verified]" : " [unverified]");
    fflush(stdout);
    ccnx_buf_free(&text);
}

/* 1 when (p, n) is new and to be listed. Either way it is excluded from
 * the next rounds; a repository's enumeration replies, cached by ccnd, sit
 * under %C1.E.be: they are the listing machinery, not something listed. */
static int first_seen(struct lister *l, const uint8_t *p, size_t n)
{
    return seen_add(&l->seen, p, n) && !ccnx_naming_command_is(p, n, "E.be");
}

static void list_collection(struct lister *l, const uint8_t *p, size_t n, int ok);

/* The component of obj one level below the prefix; obj's digest (in
 * digest) when the prefix itself names it. 0, or -1 when there is none. */
static int child_of(const struct lister *l, const uint8_t *obj, size_t len,
                    const struct ccnx_content_parsed *pc, uint8_t *digest, struct ccnx_comp *out)
{
    struct ccnx_name_iter it;
    struct ccnx_comp comp = {NULL, 0};
    ccnx_name_iter_init(&it, obj + pc->name.off, pc->name.len);
    for (size_t i = 0; i <= l->prefix.count; i++) {
        if (ccnx_name_iter_next(&it, &comp) != 1) {
            if (ccnx_content_digest(obj, len, digest) != 0) {
                return -1;
            }
            comp = (struct ccnx_comp){digest, CCNX_DIGEST_LEN};
            break;
        }
    }
    *out = comp;
    return 0;
}

/* A check under way: what the object answered (an Exclude round or the
 * name enumeration). Counted in rounds_open, so the listing waits for it:
 * a key fetched by name arrives through the client loop. */
struct check {
    struct lister *l;
    int enumeration;
};

static void checked(void *arg, int result, const char *error, const uint8_t *obj, size_t len,
                    const struct ccnx_content_parsed *pc)
{
    struct check *ck = arg;
    struct lister *l = ck->l;
    int ok = result == 0;
    if (!ok) {
        tool_warn("%s%s", error, l->require_verified ? " (not listed)" : "");
    }
    uint8_t digest[CCNX_DIGEST_LEN];
    struct ccnx_comp comp;
    if (!ck->enumeration) {
        if (child_of(l, obj, len, pc, digest, &comp) == 0) {
            print_component(l, comp.p, comp.n, ok);
        }
    } else if (pc->type == CCNX_TYPE_DATA) {
        /* Only the first segment is read: a listing longer than one
         * segment's worth of links (thousands of names) is cut there. */
        list_collection(l, obj + pc->content_value.off, pc->content_value.len, ok);
    }
    l->rounds_open--;
    free(ck);
}

/* Checks obj's signature, fetching its key as other tools do, then lists
 * what it names. */
static void check_then_list(struct lister *l, int enumeration, const uint8_t *obj, size_t len,
                            const struct ccnx_content_parsed *pc)
{
    struct check *ck = malloc(sizeof *ck);
    if (ck == NULL) {
        tool_die("out of memory");
    }
    *ck = (struct check){l, enumeration};
    l->rounds_open++;
    ccnx_verifier_check(l->v, obj, len, pc, checked, ck); /* calls checked, now or later */
}

static int cmp_comp(const void *a, const void *b)
{
    const struct ccnx_exclude_item *x = a, *y = b;
    return ccnx_comp_compare(x->p, x->n, y->p, y->n);
}

static void next_round(struct lister *l);

static void round_content(void *arg, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc)
{
    struct lister *l = arg;
    l->rounds_open--;
    uint8_t digest[CCNX_DIGEST_LEN];
    struct ccnx_comp comp;
    if (child_of(l, obj, len, pc, digest, &comp) != 0) {
        return;
    }
    if (first_seen(l, comp.p, comp.n)) {
        check_then_list(l, 0, obj, len, pc);
    }
    next_round(l);
}

static void round_timeout(void *arg)
{
    ((struct lister *)arg)->rounds_open--;
}

static void next_round(struct lister *l)
{
    struct ccnx_exclude_item *ex = calloc(l->seen.count + 1, sizeof *ex);
    if (ex == NULL) {
        tool_die("out of memory");
    }
    for (size_t i = 0; i < l->seen.count; i++) {
        ex[i] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, l->seen.p[i], l->seen.n[i]};
    }
    qsort(ex, l->seen.count, sizeof *ex, cmp_comp);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = l->prefix.enc.data;
    ip.name_len = l->prefix.enc.len;
    ip.exclude = l->seen.count ? ex : NULL;
    ip.exclude_count = l->seen.count;
    ip.answer_origin_kind = l->seen.count ? CCNX_AOK_CS : -1;
    ip.scope = l->scope;
    struct ccnx_buf msg = CCNX_BUF_INIT;
    struct ccnx_express_opts o = {round_content, round_timeout, l, l->linger_ms, 0, 0};
    if (ccnx_interest_build(&msg, &ip) != 0 ||
        ccnx_client_express(l->c, msg.data, msg.len, &o, NULL) != 0) {
        tool_die("cannot express an Interest: %s", ccnx_client_error(l->c));
    }
    l->rounds_open++;
    ccnx_buf_free(&msg);
    free(ex);
}

/* ---- Name enumeration ---- */

static void list_collection(struct lister *l, const uint8_t *p, size_t n, int ok)
{
    struct ccnx_collection_iter it;
    struct ccnx_link link;
    if (ccnx_collection_iter_init(&it, p, n) != 0) {
        tool_warn("a repository's name enumeration reply is not a Collection");
        return;
    }
    while (ccnx_collection_iter_next(&it, &link) == 1) {
        struct ccnx_name_iter ni;
        struct ccnx_comp comp;
        if (ccnx_name_iter_init(&ni, link.name, link.name_len) == 0 &&
            ccnx_name_iter_next(&ni, &comp) == 1 && first_seen(l, comp.p, comp.n)) {
            print_component(l, comp.p, comp.n, ok);
        }
    }
}

static void enumeration_content(void *arg, const uint8_t *obj, size_t len,
                                const struct ccnx_content_parsed *pc)
{
    struct lister *l = arg;
    l->rounds_open--;
    check_then_list(l, 1, obj, len, pc);
}

static void start_enumeration(struct lister *l)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    struct ccnx_buf msg = CCNX_BUF_INIT;
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    if (ccnx_name_copy(&n, &l->prefix) != 0 ||
        ccnx_naming_append_command(&n, "E.be", NULL, 0) != 0) {
        tool_die("out of memory");
    }
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ip.scope = l->scope;
    struct ccnx_express_opts o = {enumeration_content, round_timeout, l, l->linger_ms, 0, 0};
    if (ccnx_interest_build(&msg, &ip) != 0 ||
        ccnx_client_express(l->c, msg.data, msg.len, &o, NULL) != 0) {
        tool_die("cannot express an Interest: %s", ccnx_client_error(l->c));
    }
    l->rounds_open++;
    ccnx_name_free(&n);
    ccnx_buf_free(&msg);
}

static void read_environment(struct lister *l)
{
    const char *scope = getenv("CCN_SCOPE");
    const char *linger = getenv("CCN_LINGER");
    const char *verify = getenv("CCN_VERIFY");
    l->scope = -1;
    if (scope != NULL && *scope != '\0') {
        if (strlen(scope) != 1 || scope[0] < '0' || scope[0] > '2') {
            tool_usage_error("CCN_SCOPE must be 0, 1 or 2, not '%s'", scope);
        }
        l->scope = scope[0] - '0';
    }
    l->linger_ms = LINGER_MS_DEFAULT;
    if (linger != NULL && *linger != '\0') {
        char *end = NULL;
        double s = strtod(linger, &end);
        if (end == linger || *end != '\0' || !(s >= 0.01 && s <= 3600)) {
            tool_usage_error("CCN_LINGER wants seconds from 0.01 to 3600, not '%s'", linger);
        }
        l->linger_ms = (int)(s * 1000);
    }
    l->require_verified = verify != NULL && *verify != '\0' && strcmp(verify, "0") != 0;
    if (ccnx_verifier_create(l->c, &l->v) != 0) {
        tool_die("out of memory");
    }
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    if (argc == 2 && tool_is_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    if (argc != 2) {
        tool_usage_error("one ccnx: prefix is needed");
    }
    struct lister l = {0};
    tool_parse_uri(&l.prefix, argv[1]);
    l.c = tool_client_open();
    read_environment(&l);
    start_enumeration(&l);
    next_round(&l);
    while (l.rounds_open > 0) {
        if (ccnx_client_run(l.c, 50) != 0) {
            tool_die("%s", ccnx_client_error(l.c));
        }
    }
    for (size_t i = 0; i < l.seen.count; i++) {
        free(l.seen.p[i]);
    }
    free(l.seen.p);
    free(l.seen.n);
    ccnx_verifier_destroy(l.v);
    ccnx_client_destroy(l.c);
    ccnx_name_free(&l.prefix);
    return 0;
}
