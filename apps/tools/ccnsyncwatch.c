/* ccnsyncwatch: print the names of a Sync collection as they appear
 * (<ccnx/sync_follow.h>), one line each: the name, the start root hash
 * (or "none") and the root hash it was found under, as the reference's
 * ccnsyncwatch prints them. */
#define _POSIX_C_SOURCE 200809L

#include <ccnx/client.h>
#include <ccnx/error.h>
#include <ccnx/sync.h>
#include <ccnx/sync_follow.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"
#include "tool_signal.h"

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: %s [-h] [-t topo-uri] [-p prefix-uri] [-f filter-uri] [-r roothash-hex]\n"
            "       [-s scope] [-w timeout-secs]\n"
            "Prints the names of the Sync collection (slice) topo-uri, prefix-uri, with the\n"
            "given filter clauses, as the repositories holding it learn them: one line per\n"
            "name with the start root hash (or \"none\") and the root hash it was found in.\n"
            "\n"
            "  -t topo-uri      the slice's topological prefix (default ccnx:/)\n"
            "  -p prefix-uri    its naming prefix (default ccnx:/)\n"
            "  -f filter-uri    a filter clause; may be repeated\n"
            "  -r roothash-hex  names under this root hash are not printed\n"
            "  -s scope         1: ask the local repository (default); 2: also neighbours'\n"
            "  -w timeout-secs  stop after this long; -1 (default): until interrupted\n"
            "  -h, --help       show this help\n"
            "\n"
            "Exit status: 0 stopped by the timeout or a signal, 1 failure (no ccnd),\n"
            "2 usage.\n",
            tool_name());
}

struct watch {
    const char *start_hex;
    long count;
};

static void on_name(void *arg, const uint8_t *name, size_t len, const struct ccnx_sync_hash *root)
{
    struct watch *w = arg;
    struct ccnx_buf line = CCNX_BUF_INIT;
    ccnx_uri_append(&line, name, len);
    ccnx_buf_printf(&line, " %s ", w->start_hex);
    ccnx_sync_hash_hex(root, &line);
    ccnx_buf_append_byte(&line, '\n');
    fwrite(line.data, 1, line.len, stdout);
    fflush(stdout);
    ccnx_buf_free(&line);
    w->count++;
}

static void parse_uri(struct ccnx_name *n, const char *uri, const char *what)
{
    ccnx_name_truncate(n, 0);
    if (ccnx_uri_parse_str(n, uri) != 0) {
        tool_usage_error("'%s' is not a ccnx URI (%s)", uri, what);
    }
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    tool_help_first(argc, argv, usage);
    struct ccnx_sync_slice s;
    struct ccnx_sync_hash start;
    struct watch w = {"none", 0};
    long wait_s = -1, scope = 1;
    int ch;
    ccnx_sync_slice_init(&s);
    ccnx_sync_hash_clear(&start);
    while ((ch = getopt(argc, argv, "ht:p:f:r:s:w:")) != -1) {
        struct ccnx_name f;
        switch (ch) {
        case 't':
            parse_uri(&s.topo, optarg, "topo-uri");
            break;
        case 'p':
            parse_uri(&s.prefix, optarg, "prefix-uri");
            break;
        case 'f':
            ccnx_name_init(&f);
            parse_uri(&f, optarg, "filter-uri");
            ccnx_sync_slice_add_clause(&s, &f);
            ccnx_name_free(&f);
            break;
        case 'r':
            if (ccnx_sync_hash_from_hex(&start, optarg) != 0) {
                tool_usage_error("'%s' is not an even number of hex digits", optarg);
            }
            w.start_hex = optarg;
            break;
        case 's':
            scope = tool_number(optarg, "scope", 1, 2);
            break;
        case 'w':
            wait_s = tool_number(optarg, "timeout-secs", -1, 1000000);
            break;
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind != argc) {
        tool_usage_error("unexpected argument '%s'", argv[optind]);
    }
    tool_catch_stop();
    struct ccnx_client *c = NULL;
    if (ccnx_client_open(&c) != 0) {
        tool_die("%s", c != NULL ? ccnx_client_error(c) : "out of memory");
    }
    struct ccnx_sync_follow_params p;
    ccnx_sync_follow_params_init(&p);
    p.slice = &s;
    p.start = &start;
    p.on_name = on_name;
    p.arg = &w;
    p.scope = (int)scope;
    struct ccnx_sync_follow *f = NULL;
    int rc = ccnx_sync_follow_start(c, &p, &f);
    if (rc != 0) {
        tool_die("cannot follow the slice: %s", ccnx_strerror(rc));
    }
    int64_t end = wait_s < 0 ? -1 : ccnx_client_now_ms() + wait_s * 1000;
    while (!tool_stop_requested && (end < 0 || ccnx_client_now_ms() < end)) {
        if (ccnx_client_run(c, 100) != 0 && !ccnx_client_connected(c)) {
            tool_die("lost the connection to ccnd at %s", ccnx_client_where(c));
        }
    }
    ccnx_sync_follow_destroy(f);
    ccnx_sync_slice_free(&s);
    ccnx_client_destroy(c);
    return 0;
}
