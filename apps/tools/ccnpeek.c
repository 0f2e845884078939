/* ccnpeek: get one ContentObject under a name prefix and write it to
 * standard output, whole (ccnb) or its content only, verified against the
 * key its KeyLocator names unless told otherwise. */
#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/resolve.h>
#include <ccnx/interest.h>
#include <ccnx/fetch.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "tool.h"
#include "tool_client.h"

struct peek_opts {
    int stale;
    int content_only;
    int unverified;
    int resolve;
    int once;
    int scope;
    double lifetime; /* seconds, 0 for the default */
    double wait;     /* seconds */
    const char *uri;
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-a] [-c] [-l lifetime] [-o] [-s scope] [-u] [-v] [-w timeout] ccnxuri\n"
            "Get one ContentObject under the prefix ccnxuri and write it to standard output.\n"
            "While nothing answers, the Interest is sent again after 100 ms, then after\n"
            "waits that double each time, until the timeout.\n"
            "\n"
            "  -a          accept stale content\n"
            "  -c          write the content only, not the whole ccnb ContentObject\n"
            "  -l secs     Interest lifetime, up to 30 s (default 4 s)\n"
            "  -o          send the Interest once, with a Nonce of its own (for counting)\n"
            "  -s scope    Interest Scope: 0 local cache, 1 this host, 2 next host\n"
            "  -u          accept content whose signature does not verify\n"
            "  -v          find the newest version under the prefix first\n"
            "  -w secs     wait at most this long for an answer, 0.001 to 60 (default 3)\n"
            "  -h, --help  show this help\n"
            "\n"
            "Exit status: 0 written, 1 nothing came or it did not verify, 2 usage.\n",
            tool_name());
}

static void parse_args(int argc, char **argv, struct peek_opts *o)
{
    *o = (struct peek_opts){.scope = -1, .wait = 3.0};
    tool_help_first(argc, argv, usage);
    int ch;
    while ((ch = getopt(argc, argv, ":acl:os:uvw:h")) != -1) {
        switch (ch) {
        case 'a':
            o->stale = 1;
            break;
        case 'c':
            o->content_only = 1;
            break;
        case 'l':
            o->lifetime = tool_seconds(optarg, 'l', 1.0 / 4096, 30.0);
            break;
        case 'o':
            o->once = 1;
            break;
        case 's':
            o->scope = (int)tool_seconds(optarg, 's', 0, 2);
            break;
        case 'u':
            o->unverified = 1;
            break;
        case 'v':
            o->resolve = 1;
            break;
        case 'w':
            o->wait = tool_seconds(optarg, 'w', 0.001, 60.0);
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind + 1 != argc) {
        tool_usage_error(optind == argc ? "a ccnx: URI is needed" : "one URI only, please");
    }
    o->uri = argv[optind];
}

static void build_interest(struct ccnx_buf *out, const struct ccnx_name *name,
                           const struct peek_opts *o)
{
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = name->enc.data;
    ip.name_len = name->enc.len;
    ip.scope = o->scope;
    if (o->stale) {
        ip.answer_origin_kind = CCNX_AOK_DEFAULT | CCNX_AOK_STALE;
    }
    if (o->lifetime > 0) {
        ip.lifetime_units = (int64_t)(o->lifetime * 4096 + 0.5);
    }
    /* The client sends an Interest that carries its own Nonce only once:
     * forwarders drop a nonce they have seen. */
    uint8_t nonce[6];
    if (o->once) {
        if (getrandom(nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce) {
            tool_die("cannot make a Nonce: no randomness from the system");
        }
        ip.nonce = nonce;
        ip.nonce_len = sizeof nonce;
    }
    if (ccnx_interest_build(out, &ip) != 0) {
        tool_die("cannot build the Interest: out of memory");
    }
}

static void write_all(const uint8_t *p, size_t n)
{
    if (fwrite(p, 1, n, stdout) != n || fflush(stdout) != 0) {
        tool_die("cannot write to standard output");
    }
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct peek_opts o;
    parse_args(argc, argv, &o);
    struct ccnx_name name;
    tool_parse_uri(&name, o.uri);
    struct ccnx_client *c = tool_client_open();
    struct ccnx_buf err = CCNX_BUF_INIT, msg = CCNX_BUF_INIT, obj = CCNX_BUF_INIT;
    int wait_ms = (int)(o.wait * 1000 + 0.5);
    if (o.resolve && ccnx_resolve_version(c, &name, 0, wait_ms, &err) < 0) {
        tool_die("no version found under %s: %s", o.uri, ccnx_buf_cstr(&err));
    }
    struct ccnx_verifier *v = NULL;
    if (ccnx_verifier_create(c, &v) != 0) {
        tool_die("out of memory");
    }
    ccnx_verifier_set_enabled(v, !o.unverified);
    build_interest(&msg, &name, &o);
    int res = ccnx_fetch_object(c, v, msg.data, msg.len, wait_ms, &obj, &err);
    if (res == CCNX_E_NOTFOUND) {
        tool_die("nothing answered for %s within %g s", o.uri, o.wait);
    } else if (res != 0) {
        tool_die("%s%s", ccnx_buf_cstr(&err),
                 ccnx_verify_refused(res) ? " (-u accepts it anyway)" : "");
    }
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(obj.data, obj.len, &pc) != 0) {
        tool_die("the answer does not parse");
    }
    if (o.content_only) {
        write_all(obj.data + pc.content_value.off, pc.content_value.len);
    } else {
        write_all(obj.data, obj.len);
    }
    ccnx_verifier_destroy(v);
    ccnx_client_destroy(c);
    ccnx_name_free(&name);
    ccnx_buf_free(&err);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&obj);
    return 0;
}
