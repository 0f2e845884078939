/* ccnrm: mark as stale every object the local ccnd caches under the given
 * prefixes. Each Interest (Scope 0, AnswerOriginKind with the expire bit)
 * makes ccnd answer with one matching fresh object and mark it stale, so
 * the tool asks again until nothing fresh is left. */
#include <ccnx/error.h>
#include <ccnx/interest.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"
#include "tool_client.h"

#define ROUND_MS   500     /* a local cache answers at once; this is plenty */
#define MAX_ROUNDS 1000000 /* bounds the loop should ccnd never stop answering */

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-o outfile] [-q] ccnxname...\n"
            "Mark as stale the objects the local ccnd caches under each prefix, so that\n"
            "ordinary Interests no longer get them. Neighbours and applications keep theirs.\n"
            "\n"
            "  -o file     append the objects made stale to file ('-' for standard output)\n"
            "  -q          do not print how many objects were marked\n"
            "  -h, --help  show this help\n"
            "\n"
            "Exit status: 0 done (even when nothing matched), 1 failure, 2 usage.\n",
            tool_name());
}

static void build_interest(struct ccnx_buf *out, const struct ccnx_name *name)
{
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = name->enc.data;
    ip.name_len = name->enc.len;
    ip.answer_origin_kind = CCNX_AOK_EXPIRE | CCNX_AOK_DEFAULT;
    ip.scope = 0;
    ccnx_buf_reset(out);
    if (ccnx_interest_build(out, &ip) != 0) {
        tool_die("out of memory");
    }
}

/* Returns how many objects were marked under uri. */
static long remove_prefix(struct ccnx_client *c, const char *uri, FILE *out)
{
    struct ccnx_name name;
    tool_parse_uri(&name, uri);
    struct ccnx_buf msg = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    build_interest(&msg, &name);
    long n = 0;
    int res = 0;
    while (n < MAX_ROUNDS && (res = ccnx_client_get(c, msg.data, msg.len, ROUND_MS, &obj)) == 0) {
        n++;
        if (out != NULL && fwrite(obj.data, 1, obj.len, out) != obj.len) {
            tool_die("cannot write the removed objects: %s", strerror(errno));
        }
    }
    if (res != 0 && res != CCNX_E_NOTFOUND) {
        tool_die("%s", ccnx_client_error(c));
    }
    ccnx_name_free(&name);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&obj);
    return n;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    const char *outfile = NULL;
    int quiet = 0;
    tool_help_first(argc, argv, usage);
    int ch;
    while ((ch = getopt(argc, argv, ":o:qh")) != -1) {
        switch (ch) {
        case 'o':
            outfile = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind == argc) {
        tool_usage_error("at least one ccnx: prefix is needed");
    }
    FILE *out = NULL;
    if (outfile != NULL) {
        out = strcmp(outfile, "-") == 0 ? stdout : fopen(outfile, "ab");
        if (out == NULL) {
            tool_die("cannot open %s: %s", outfile, strerror(errno));
        }
    }
    struct ccnx_client *c = tool_client_open();
    for (int i = optind; i < argc; i++) {
        long n = remove_prefix(c, argv[i], out);
        if (!quiet) {
            fprintf(stderr, "%s: %ld object%s marked stale under %s\n", tool_name(), n,
                    n == 1 ? "" : "s", argv[i]);
        }
    }
    if (out != NULL && (fflush(out) != 0 || (out != stdout && fclose(out) != 0))) {
        tool_die("cannot write %s: %s", outfile, strerror(errno));
    }
    ccnx_client_destroy(c);
    return 0;
}
