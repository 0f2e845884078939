/* ccnsyncslice: create or delete a Sync slice in the local repository
 * (docs/sync.md). The slice's encoding is stored, as a Create Slice
 * request, under /%C1.M.S.localhost/%C1.S.cs/<slice hash>/<version>/%00 by
 * a start-write to the repository; a delete stores a GONE object at a newer
 * version. The repository's Sync agent follows what it finds there. */
#define _POSIX_C_SOURCE 200809L

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/content_sign.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/naming.h>
#include <ccnx/repo.h>
#include <ccnx/sync.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

#define REGISTER_WAIT_MS 5000
#define FETCH_WAIT_MS    10000 /* for the repository to fetch the object */

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: %s [-hv] (create|delete) topo-uri prefix-uri [filter-uri]...\n"
            "Creates (or deletes) a Sync slice in the local repository: every repository\n"
            "holding the same slice keeps the content under prefix-uri (that matches one\n"
            "filter-uri, when any is given; a %%FF component matches any one component)\n"
            "the same as its neighbours', advising its collection under topo-uri.\n"
            "\n"
            "  -v          say what was stored\n"
            "  -h, --help  show this help\n"
            "\n"
            "Exit status: 0 the repository stored the request, 1 failure (no ccnd, no\n"
            "repository answered), 2 usage.\n",
            tool_name());
}

struct request {
    struct ccnx_client *c;
    struct ccnx_buf obj; /* the Create Slice (or GONE) object */
    struct ccnx_name versioned;
    int fetched;
};

static void parse_slice(int argc, char **argv, struct ccnx_sync_slice *s)
{
    ccnx_sync_slice_init(s);
    if (ccnx_uri_parse_str(&s->topo, argv[0]) != 0) {
        tool_usage_error("'%s' is not a ccnx URI (topo-uri)", argv[0]);
    }
    if (ccnx_uri_parse_str(&s->prefix, argv[1]) != 0) {
        tool_usage_error("'%s' is not a ccnx URI (prefix-uri)", argv[1]);
    }
    for (int i = 2; i < argc; i++) {
        struct ccnx_name f;
        ccnx_name_init(&f);
        if (ccnx_uri_parse_str(&f, argv[i]) != 0) {
            tool_usage_error("'%s' is not a ccnx URI (filter-uri)", argv[i]);
        }
        ccnx_sync_slice_add_clause(s, &f);
        ccnx_name_free(&f);
    }
}

/* The object: <config name>/<version now>/%00, the slice or a GONE. */
static void make_request(struct ccnx_client *c, const struct ccnx_sync_slice *s, int delete,
                         struct request *q)
{
    struct ccnx_buf body = CCNX_BUF_INIT;
    struct ccnx_name seg;
    ccnx_name_init(&q->versioned);
    ccnx_name_init(&seg);
    int rc = ccnx_sync_slice_config_name(s, &q->versioned);
    rc = rc == 0 ? ccnx_naming_append_version(&q->versioned, NULL) : rc;
    rc = rc == 0 ? ccnx_name_copy(&seg, &q->versioned) : rc;
    rc = rc == 0 ? ccnx_naming_append_segment(&seg, 0) : rc;
    rc = rc == 0 && !delete ? ccnx_sync_slice_encode(s, &body) : rc;
    const uint8_t zero = 0;
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = seg.enc.data;
    p.name_len = seg.enc.len;
    p.type = delete ? CCNX_TYPE_GONE : CCNX_TYPE_DATA;
    p.final_block_id = &zero;
    p.final_block_id_len = 1;
    p.content = body.data;
    p.content_len = body.len;
    rc = rc == 0 ? ccnx_content_sign(&q->obj, &p, ccnx_client_key(c)) : rc;
    if (rc != 0) {
        tool_die("cannot make the request: %s (%s)", ccnx_strerror(rc), ccnx_client_error(c));
    }
    ccnx_buf_free(&body);
    ccnx_name_free(&seg);
}

/* The repository fetching the object. */
static int on_interest(void *arg, const uint8_t *ibuf, size_t len,
                       const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct request *q = arg;
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(q->obj.data, q->obj.len, &pc) != 0 ||
        !ccnx_match(ibuf, pi, q->obj.data, q->obj.len, &pc, NULL)) {
        return 0;
    }
    ccnx_client_put(q->c, q->obj.data, q->obj.len);
    q->fetched = 1;
    return 1;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    tool_help_first(argc, argv, usage);
    int verbose = 0, ch;
    while ((ch = getopt(argc, argv, "hv")) != -1) {
        if (ch == 'v') {
            verbose = 1;
        } else {
            tool_bad_option(ch, argv);
        }
    }
    if (argc - optind < 3) {
        tool_usage_error("expected create or delete, a topo-uri and a prefix-uri");
    }
    int delete = strcmp(argv[optind], "delete") == 0;
    if (!delete &&strcmp(argv[optind], "create") != 0) {
        tool_usage_error("'%s' is neither create nor delete", argv[optind]);
    }
    struct ccnx_sync_slice s;
    parse_slice(argc - optind - 1, argv + optind + 1, &s);
    struct ccnx_client *c = NULL;
    if (ccnx_client_open(&c) != 0) {
        tool_die("%s", c != NULL ? ccnx_client_error(c) : "out of memory");
    }
    static struct request q;
    q.c = c;
    make_request(c, &s, delete, &q);
    uint64_t id;
    if (ccnx_client_set_filter(c, &q.versioned, CCNX_FILTER_REGISTER, 0, on_interest, &q, &id) !=
            0 ||
        ccnx_client_wait_registered(c, id, REGISTER_WAIT_MS) != 0) {
        tool_die("cannot register with ccnd: %s", ccnx_client_error(c));
    }
    struct ccnx_repo_write_opts ro;
    ccnx_repo_write_opts_init(&ro);
    int rc = ccnx_repo_start_write(c, &q.versioned, &ro, NULL, NULL);
    if (rc != 0) {
        tool_die("no repository took the request (%s): is ccnr running on this ccnd?",
                 ccnx_strerror(rc));
    }
    int64_t end = ccnx_client_now_ms() + FETCH_WAIT_MS;
    while (!q.fetched && ccnx_client_now_ms() < end) {
        ccnx_client_run(c, 50);
    }
    end = ccnx_client_now_ms() + 2000;
    while (ccnx_client_output_pending(c) > 0 && ccnx_client_now_ms() < end) {
        ccnx_client_run(c, 10);
    }
    struct ccnx_buf uri = CCNX_BUF_INIT;
    ccnx_uri_append_name(&uri, &q.versioned);
    if (!q.fetched) {
        tool_die("the repository did not fetch %s", ccnx_buf_cstr(&uri));
    }
    if (verbose) {
        tool_warn("%s slice %s succeeded", delete ? "delete" : "create", ccnx_buf_cstr(&uri));
    }
    ccnx_buf_free(&uri);
    ccnx_buf_free(&q.obj);
    ccnx_name_free(&q.versioned);
    ccnx_sync_slice_free(&s);
    ccnx_client_destroy(c);
    return 0;
}
