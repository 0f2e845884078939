/* ccnpoke: read standard input and publish it as one signed ContentObject,
 * answering the first Interest that it satisfies. */
#define _POSIX_C_SOURCE 200809L

#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "tool.h"
#include "tool_signal.h"

#define POKE_MAX_CONTENT 8192 /* the reference's limit */
#define REGISTER_WAIT_MS 5000
#define DRAIN_WAIT_MS    2000

struct poke_opts {
    const char *uri;
    const char *extopt_file;
    const char *key_uri;
    const char *version_suffix;
    int force;
    int set_final;
    int verbose;
    int prefix_comps; /* -1: the whole name */
    uint32_t type;
    long wait_s; /* -1: forever */
    long freshness;
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-hflv] [-e FILE] [-k KEYURI] [-p N] [-t TYPE] [-V SEG] [-w SECONDS]\n"
            "       [-x FRESHNESS] URI\n"
            "Read standard input (at most %d bytes) and publish it as one signed ContentObject\n"
            "named URI, sent to the local ccnd in answer to the first Interest it satisfies.\n"
            "\n"
            "  -e FILE       put the contents of FILE in the ExtOpt element\n"
            "  -f            send the object at once without waiting for an Interest (testing)\n"
            "  -l            set FinalBlockID to the last component of the name\n"
            "  -v            print the name of the object written on standard output\n"
            "  -k KEYURI     name the key in the KeyLocator instead of carrying it\n"
            "  -p N          register only the first N components of URI (0: ccnx:/)\n"
            "  -t TYPE       DATA (default), ENCR, GONE, KEY, LINK, NACK or a number\n"
            "  -V SEG        append a version for now, then SEG (e.g. %%00, which also sets\n"
            "                FinalBlockID)\n"
            "  -w SECONDS    give up when no Interest arrives within SECONDS (default: wait)\n"
            "  -x SECONDS    FreshnessSeconds of the object\n"
            "  -h, --help    show this help\n"
            "\n"
            "ccnd is found as every client finds it (CCN_LOCAL_SOCKNAME, CCN_LOCAL_PORT);\n"
            "the object is signed with the user key ($CCNX_DIR/.ccnx_keystore, created when\n"
            "missing).\n"
            "Exit status: 0 the object was sent, 1 failure (no Interest in time, no ccnd,\n"
            "input too long), 2 usage.\n",
            tool_name(), POKE_MAX_CONTENT);
}

static uint32_t parse_type(const char *s)
{
    static const char *names[] = {"DATA", "ENCR", "GONE", "KEY", "LINK", "NACK"};
    static const uint32_t types[] = {CCNX_TYPE_DATA, CCNX_TYPE_ENCR, CCNX_TYPE_GONE,
                                     CCNX_TYPE_KEY,  CCNX_TYPE_LINK, CCNX_TYPE_NACK};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcasecmp(s, names[i]) == 0) {
            return types[i];
        }
    }
    return (uint32_t)tool_number(s, "-t TYPE", 1, 0xFFFFFF);
}

static void parse_args(int argc, char **argv, struct poke_opts *o)
{
    memset(o, 0, sizeof *o);
    o->prefix_comps = -1;
    o->type = CCNX_TYPE_DATA;
    o->wait_s = -1;
    o->freshness = -1;
    tool_help_first(argc, argv, usage);
    int ch;
    while ((ch = getopt(argc, argv, ":e:fhk:lp:t:vV:w:x:")) != -1) {
        switch (ch) {
        case 'e':
            o->extopt_file = optarg;
            break;
        case 'f':
            o->force = 1;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        case 'k':
            o->key_uri = optarg;
            break;
        case 'l':
            o->set_final = 1;
            break;
        case 'p':
            o->prefix_comps = (int)tool_number(optarg, "-p N", 0, CCNX_NAME_MAX_COMPONENTS);
            break;
        case 't':
            o->type = parse_type(optarg);
            break;
        case 'v':
            o->verbose = 1;
            break;
        case 'V':
            o->version_suffix = optarg;
            break;
        case 'w':
            o->wait_s = tool_number(optarg, "-w SECONDS", 1, 86400L * 365);
            break;
        case 'x':
            o->freshness = tool_number(optarg, "-x FRESHNESS", 0, INT32_MAX);
            break;
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind != argc - 1) {
        tool_usage_error(optind == argc ? "a URI is needed" : "only one URI, please");
    }
    o->uri = argv[optind];
}

/* Appends a version for now and the -V suffix (a relative URI). */
static void add_version(struct ccnx_name *name, const char *suffix)
{
    struct ccnx_comp last;
    if (name->count > 0 && ccnx_name_comp(name, name->count - 1, &last) == 0 &&
        ccnx_naming_is_version(last.p, last.n)) {
        ccnx_name_truncate(name, name->count - 1); /* a new version replaces it */
    }
    if (ccnx_naming_append_version(name, NULL) != 0) {
        tool_die("cannot make a version component (clock or memory)");
    }
    struct ccnx_buf text = CCNX_BUF_INIT;
    ccnx_buf_printf(&text, "/%s", suffix);
    struct ccnx_name tail;
    ccnx_name_init(&tail);
    const char *s = ccnx_buf_cstr(&text);
    if (s == NULL || ccnx_uri_parse_str(&tail, s) != 0 ||
        ccnx_name_append_ccnb(name, tail.enc.data, tail.enc.len) != 0) {
        tool_usage_error("-V %s: not a valid name component", suffix);
    }
    ccnx_name_free(&tail);
    ccnx_buf_free(&text);
}

static void read_input(struct ccnx_buf *in)
{
    uint8_t *p = ccnx_buf_reserve(in, POKE_MAX_CONTENT + 1);
    if (p == NULL) {
        tool_die("out of memory");
    }
    size_t got = 0;
    while (got <= POKE_MAX_CONTENT) {
        ssize_t n = read(0, p + got, POKE_MAX_CONTENT + 1 - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            tool_die("cannot read standard input: %s", strerror(errno));
        }
        if (n == 0) {
            break;
        }
        got += (size_t)n;
    }
    if (got > POKE_MAX_CONTENT) {
        tool_die("standard input holds more than %d bytes; publish larger data with "
                 "ccnputfile or ccnseqwriter",
                 POKE_MAX_CONTENT);
    }
    in->len = got;
}

struct object {
    struct ccnx_buf enc;
    struct ccnx_content_parsed pc;
};

static void build_object(const struct poke_opts *o, const struct ccnx_name *name,
                         const struct ccnx_buf *content, const struct ccnx_key *key,
                         struct object *obj)
{
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = name->enc.data;
    p.name_len = name->enc.len;
    p.type = o->type;
    p.freshness = o->freshness;
    p.content = content->data;
    p.content_len = content->len;
    struct ccnx_comp last;
    if (o->set_final && name->count > 0 && ccnx_name_comp(name, name->count - 1, &last) == 0) {
        p.final_block_id = last.p;
        p.final_block_id_len = last.n;
    }
    struct ccnx_name key_name;
    ccnx_name_init(&key_name);
    if (o->key_uri != NULL) {
        if (ccnx_uri_parse_str(&key_name, o->key_uri) != 0) {
            tool_usage_error("-k %s: not a valid ccnx URI", o->key_uri);
        }
        p.key_locator = CCNX_KEYLOC_KEYNAME;
        p.key_locator_value = key_name.enc.data;
        p.key_locator_value_len = key_name.enc.len;
    }
    struct ccnx_buf extopt = CCNX_BUF_INIT;
    if (o->extopt_file != NULL) {
        if (ccnx_buf_read_file(&extopt, o->extopt_file) != 0) {
            tool_die("cannot read %s: %s", o->extopt_file, strerror(errno));
        }
        p.ext_opt = extopt.data;
        p.ext_opt_len = extopt.len;
    }
    int rc = ccnx_content_sign(&obj->enc, &p, key);
    if (rc == 0) {
        rc = ccnx_content_parse(obj->enc.data, obj->enc.len, &obj->pc);
    }
    if (rc != 0) {
        tool_die("cannot build the ContentObject: %s", ccnx_strerror(rc));
    }
    ccnx_buf_free(&extopt);
    ccnx_name_free(&key_name);
}

struct server {
    struct ccnx_client *c;
    struct object *obj;
    int sent;
};

static int on_interest(void *arg, const uint8_t *interest, size_t len,
                       const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct server *s = arg;
    if (s->sent ||
        !ccnx_match(interest, pi, s->obj->enc.data, s->obj->enc.len, &s->obj->pc, NULL)) {
        return 0;
    }
    if (ccnx_client_put(s->c, s->obj->enc.data, s->obj->enc.len) != 0) {
        return 0;
    }
    s->sent = 1;
    ccnx_client_stop(s->c);
    return 1;
}

/* Runs the loop until ccnd has taken every queued byte (bounded). */
static void drain(struct ccnx_client *c)
{
    int64_t end = ccnx_client_now_ms() + DRAIN_WAIT_MS;
    while (ccnx_client_output_pending(c) > 0 && ccnx_client_now_ms() < end) {
        if (ccnx_client_run(c, 10) != 0) {
            tool_die("lost the connection to ccnd at %s", ccnx_client_where(c));
        }
    }
}

/* Registers the prefix and waits for one matching Interest. */
static void serve(struct server *s, const struct poke_opts *o, const struct ccnx_name *prefix)
{
    uint64_t id;
    int rc = ccnx_client_set_filter(s->c, prefix, CCNX_FILTER_REGISTER, 0, on_interest, s, &id);
    if (rc == 0) {
        rc = ccnx_client_wait_registered(s->c, id, REGISTER_WAIT_MS);
    }
    if (rc != 0) {
        tool_die("cannot register the prefix with ccnd: %s", ccnx_client_error(s->c));
    }
    int64_t end = o->wait_s > 0 ? ccnx_client_now_ms() + o->wait_s * 1000 : INT64_MAX;
    while (!s->sent && !tool_stop_requested && ccnx_client_now_ms() < end) {
        int64_t left = end - ccnx_client_now_ms();
        if (ccnx_client_run(s->c, left < 200 ? (int)left : 200) != 0) {
            tool_die("lost the connection to ccnd at %s", ccnx_client_where(s->c));
        }
    }
    if (!s->sent && tool_stop_requested) {
        tool_die("interrupted before any Interest for %s arrived", o->uri);
    }
    if (!s->sent) {
        tool_die("no Interest for %s arrived within %ld s", o->uri, o->wait_s);
    }
}

static struct ccnx_client *connect_ccnd(void)
{
    struct ccnx_client *c = NULL;
    if (ccnx_client_open(&c) != 0) {
        if (c == NULL) {
            tool_die("out of memory");
        }
        tool_die("%s", ccnx_client_error(c));
    }
    return c;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct poke_opts o;
    parse_args(argc, argv, &o);
    struct ccnx_name name, prefix;
    ccnx_name_init(&name);
    ccnx_name_init(&prefix);
    if (ccnx_uri_parse_str(&name, o.uri) != 0) {
        tool_usage_error("'%s' is not a valid ccnx URI", o.uri);
    }
    ccnx_name_copy(&prefix, &name);
    if (o.prefix_comps >= 0) {
        if ((size_t)o.prefix_comps > name.count) {
            tool_usage_error("-p %d: the name has only %zu components", o.prefix_comps, name.count);
        }
        ccnx_name_truncate(&prefix, (size_t)o.prefix_comps);
    }
    if (o.version_suffix != NULL) {
        o.set_final |= strncmp(o.version_suffix, "%00", 3) == 0;
        add_version(&name, o.version_suffix);
    }
    tool_catch_stop();

    struct ccnx_buf content = CCNX_BUF_INIT;
    read_input(&content);
    struct ccnx_client *c = connect_ccnd();
    const struct ccnx_key *key = ccnx_client_key(c);
    if (key == NULL) {
        tool_die("no signing key: %s", ccnx_client_error(c));
    }
    struct object obj;
    memset(&obj, 0, sizeof obj);
    build_object(&o, &name, &content, key, &obj);
    struct server s = {c, &obj, 0};
    if (o.force) {
        if (ccnx_client_put(c, obj.enc.data, obj.enc.len) != 0) {
            tool_die("cannot send the object to ccnd: %s", ccnx_client_error(c));
        }
    } else {
        serve(&s, &o, &prefix);
    }
    drain(c);
    if (o.verbose) {
        struct ccnx_buf uri = CCNX_BUF_INIT;
        ccnx_uri_append_name(&uri, &name);
        printf("wrote %s\n", ccnx_buf_cstr(&uri));
        ccnx_buf_free(&uri);
    }
    ccnx_client_destroy(c);
    ccnx_buf_free(&obj.enc);
    ccnx_buf_free(&content);
    ccnx_name_free(&name);
    ccnx_name_free(&prefix);
    return fflush(stdout) == 0 ? 0 : TOOL_EXIT_FAILURE;
}
