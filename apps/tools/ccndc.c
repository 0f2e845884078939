/* ccndc: manage the faces, prefix registrations and strategies of the local
 * ccnd with signed control requests, one command from the command line or a
 * list of them from a file (~/.ccnx/ccnd.conf). A file is checked as a whole
 * before any of it is applied, so a typo never leaves half a configuration. */
#include <ccnx/error.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ccnd_link.h"
#include "dns_srv.h"
#include "tool.h"

#define DEFAULT_PORT_TEXT "9695"
#define MAX_TOKENS        12
#define FOREVER           INT32_MAX /* the lifetime the reference asks for when none is given */

enum verb {
    V_ADD,
    V_DEL,
    V_RENEW,
    V_CREATE,
    V_DESTROY,
    V_DESTROYFACE,
    V_SETSTRATEGY,
    V_GETSTRATEGY,
    V_REMOVESTRATEGY,
    V_SRV,
};

struct cmd {
    enum verb verb;
    const char *uri;
    int by_faceid; /* "face <faceid>" instead of (udp|tcp) host ... */
    long faceid;
    int ipproto; /* 6 or 17 */
    const char *host, *port, *mcastif;
    long flags; /* -1: let ccnd choose */
    long ttl;   /* -1: absent */
    const char *strategy, *params;
    long strategy_lifetime; /* -1: absent */
};

struct run {
    int verbose;
    long lifetime; /* of registrations, seconds */
    int linked;
    struct ccnd_link link;
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-v] [-t LIFETIME] -f CONFIGFILE\n"
            "       %s [-v] [-t LIFETIME] (add|del|renew) URI (udp|tcp) HOST [PORT [FLAGS\n"
            "                 [MCASTTTL [MCASTIF]]]]\n"
            "       %s [-v] [-t LIFETIME] (add|del) URI face FACEID\n"
            "       %s [-v] (create|destroy) (udp|tcp) HOST [PORT [MCASTTTL [MCASTIF]]]\n"
            "       %s [-v] destroy face FACEID\n"
            "       %s [-v] destroyface FACEID\n"
            "       %s [-v] setstrategy URI STRATEGY [PARAMETERS [LIFETIME]]\n"
            "       %s [-v] (getstrategy|removestrategy) URI\n"
            "       %s [-v] [-t LIFETIME] srv\n"
            "Manage the forwarding table of the local ccnd.\n"
            "\n"
            "  add      register URI on a face, creating the face when needed\n"
            "  del      unregister URI from a face (the face stays)\n"
            "  renew    destroy the face, make it again and register URI on it\n"
            "  create, destroy, destroyface   manage faces without prefixes\n"
            "  setstrategy, getstrategy, removestrategy   print 'Strategy at URI is ID PARAMS'\n"
            "  srv      route ccnx:/ and ccnx:/autoconf-route to the hub named by a DNS SRV\n"
            "           record of _ccnx._tcp or _ccnx._udp in a search domain\n"
            "\n"
            "  -f FILE  run the commands in FILE, one per line ('#' starts a comment);\n"
            "           the whole file is checked before anything is applied\n"
            "  -t SECS  lifetime of the registrations made (default: unlimited)\n"
            "  -v       say what is done\n"
            "  -h, --help  show this help\n"
            "PORT defaults to 9695; FLAGS is a sum of forwarding flags (1 active, 2 child\n"
            "inherit, 4 advertise, 8 last, 16 capture, 32 local, 64 tap, 128 capture ok).\n"
            "The local ccnd is found as every client finds it: CCN_LOCAL_SOCKNAME,\n"
            "CCN_LOCAL_PORT, CCN_LOCAL_TRANSPORT=tcp. Requests are signed with the user's\n"
            "key ($CCNX_DIR or ~/.ccnx/.ccnx_keystore, created on first use).\n"
            "\n"
            "Exit status: 0 success, 1 a command failed or no ccnd, 2 usage error.\n",
            tool_name(), tool_name(), tool_name(), tool_name(), tool_name(), tool_name(),
            tool_name(), tool_name(), tool_name());
}

/* ---- Parsing (no network) ---- */

static int check_uri(const char *uri, char *err, size_t n)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    int res = ccnx_uri_parse_str(&name, uri);
    ccnx_name_free(&name);
    if (res != 0) {
        snprintf(err, n, "'%s' is not a ccnx: URI", uri);
    }
    return res;
}

/* (udp|tcp) host [port [flags [ttl [mcastif]]]]; with_flags is 0 for
 * create/destroy, whose forms have no flags. */
static int parse_face(char **t, int n, int with_flags, struct cmd *c, char *err, size_t en)
{
    if (n < 2) {
        snprintf(err, en, "missing face: (udp|tcp) HOST or face FACEID");
        return -1;
    }
    if (strcasecmp(t[0], "face") == 0) {
        c->by_faceid = 1;
        if (n != 2 || tool_parse_long(t[1], 0, UINT_MAX, &c->faceid) != 0) {
            snprintf(err, en, "'face' takes one face number, not '%s'", t[1]);
            return -1;
        }
        return 0;
    }
    if (strcasecmp(t[0], "udp") == 0) {
        c->ipproto = 17;
    } else if (strcasecmp(t[0], "tcp") == 0) {
        c->ipproto = 6;
    } else {
        snprintf(err, en, "'%s' is not udp, tcp or face", t[0]);
        return -1;
    }
    int i = 1, max = with_flags ? 6 : 5;
    if (n > max) {
        snprintf(err, en, "too many words after '%s'", t[0]);
        return -1;
    }
    c->host = t[i++];
    c->port = i < n ? t[i++] : NULL;
    if (with_flags && i < n && tool_parse_long(t[i++], 0, 255, &c->flags) != 0) {
        snprintf(err, en, "flags '%s' are not a number from 0 to 255", t[i - 1]);
        return -1;
    }
    if (i < n && tool_parse_long(t[i++], 0, 255, &c->ttl) != 0) {
        snprintf(err, en, "multicast TTL '%s' is not a number from 0 to 255", t[i - 1]);
        return -1;
    }
    c->mcastif = i < n ? t[i] : NULL;
    return 0;
}

static int parse_strategy(char **t, int n, struct cmd *c, char *err, size_t en)
{
    int want_max = c->verb == V_SETSTRATEGY ? 4 : 1, want_min = c->verb == V_SETSTRATEGY ? 2 : 1;
    if (n < want_min || n > want_max) {
        snprintf(err, en, "wrong number of arguments");
        return -1;
    }
    c->uri = t[0];
    if (c->verb == V_SETSTRATEGY) {
        c->strategy = t[1];
        c->params = n > 2 ? t[2] : NULL;
        if (strlen(c->strategy) > CCNX_STRATEGY_ID_MAX) {
            snprintf(err, en, "strategy name '%s' is longer than %d characters", c->strategy,
                     CCNX_STRATEGY_ID_MAX);
            return -1;
        }
        if (n > 3 && tool_parse_long(t[3], 0, INT32_MAX, &c->strategy_lifetime) != 0) {
            snprintf(err, en, "lifetime '%s' is not a number of seconds", t[3]);
            return -1;
        }
    }
    return check_uri(c->uri, err, en);
}

static const struct {
    const char *name;
    enum verb verb;
} verbs[] = {
    {"add", V_ADD},
    {"del", V_DEL},
    {"renew", V_RENEW},
    {"create", V_CREATE},
    {"destroy", V_DESTROY},
    {"destroyface", V_DESTROYFACE},
    {"setstrategy", V_SETSTRATEGY},
    {"getstrategy", V_GETSTRATEGY},
    {"removestrategy", V_REMOVESTRATEGY},
    {"srv", V_SRV},
};

/* One command from its words; 0, or -1 with a sentence in err. */
static int parse_cmd(char **t, int n, struct cmd *c, char *err, size_t en)
{
    memset(c, 0, sizeof *c);
    c->flags = c->ttl = c->strategy_lifetime = -1;
    size_t i = 0;
    while (i < sizeof verbs / sizeof verbs[0] && strcasecmp(t[0], verbs[i].name) != 0) {
        i++;
    }
    if (i == sizeof verbs / sizeof verbs[0]) {
        snprintf(err, en, "unknown command '%s'", t[0]);
        return -1;
    }
    c->verb = verbs[i].verb;
    t++;
    n--;
    switch (c->verb) {
    case V_ADD:
    case V_DEL:
    case V_RENEW:
        if (n < 1 || parse_face(t + 1, n - 1, 1, c, err, en) != 0) {
            if (n < 1)
                snprintf(err, en, "missing URI");
            return -1;
        }
        if (c->verb == V_RENEW && c->by_faceid) {
            snprintf(err, en, "renew needs (udp|tcp) HOST, not a face number");
            return -1;
        }
        c->uri = t[0];
        return check_uri(c->uri, err, en);
    case V_CREATE:
    case V_DESTROY:
        if (parse_face(t, n, 0, c, err, en) != 0)
            return -1;
        if (c->verb == V_CREATE && c->by_faceid) {
            snprintf(err, en, "create needs (udp|tcp) HOST");
            return -1;
        }
        return 0;
    case V_DESTROYFACE:
        c->by_faceid = 1;
        if (n != 1 || tool_parse_long(t[0], 0, UINT_MAX, &c->faceid) != 0) {
            snprintf(err, en, "destroyface takes one face number");
            return -1;
        }
        return 0;
    case V_SRV:
        if (n != 0) {
            snprintf(err, en, "srv takes no arguments");
            return -1;
        }
        return 0;
    default:
        return parse_strategy(t, n, c, err, en);
    }
}

/* ---- Requests ---- */

static void verbose(const struct run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void verbose(const struct run *r, const char *fmt, ...)
{
    if (r->verbose) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: ", tool_name());
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

/* Connects on first use, so that a file with only syntax errors never needs ccnd. */
static int link_up(struct run *r)
{
    if (!r->linked) {
        if (ccnd_link_open(&r->link) != 0) {
            tool_die("%s", r->link.err);
        }
        if (ccnd_link_ccndid(&r->link) != 0) {
            tool_die("%s", r->link.err);
        }
        r->linked = 1;
    }
    return 0;
}

/* Sends one request; prints why it failed and returns -1, or 0 with reply. */
static int control(struct run *r, const char *verb, const struct ccnx_buf *body,
                   struct ccnx_buf *reply)
{
    link_up(r);
    if (ccnx_buf_status(body) != 0) {
        tool_warn("%s: cannot build the request", verb);
        return -1;
    }
    int res = ccnd_link_control(&r->link, verb, body->data, body->len, reply);
    if (res == CCND_LINK_NACK) {
        tool_warn("%s refused by ccnd: %s", verb, r->link.err);
        return -1;
    }
    if (res != 0) {
        tool_warn("%s: %s", verb, r->link.err);
        return -1;
    }
    return 0;
}

/* Host names become numeric addresses here: ccnd takes only those. */
static int resolve(const char *host, const char *port, int ipproto, char *addr, size_t an,
                   long *portnum)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_flags = AI_ADDRCONFIG};
    hints.ai_socktype = ipproto == 6 ? SOCK_STREAM : SOCK_DGRAM;
    struct addrinfo *ai = NULL;
    int res = getaddrinfo(host, port != NULL ? port : DEFAULT_PORT_TEXT, &hints, &ai);
    if (res != 0) {
        tool_warn("cannot resolve host '%s' port '%s': %s", host,
                  port != NULL ? port : DEFAULT_PORT_TEXT, gai_strerror(res));
        return -1;
    }
    char serv[NI_MAXSERV];
    res = getnameinfo(ai->ai_addr, ai->ai_addrlen, addr, an, serv, sizeof serv,
                      NI_NUMERICHOST | NI_NUMERICSERV);
    freeaddrinfo(ai);
    if (res != 0 || tool_parse_long(serv, 1, 65535, portnum) != 0) {
        tool_warn("cannot use host '%s': %s", host, res != 0 ? gai_strerror(res) : "bad port");
        return -1;
    }
    return 0;
}

/* newface: creates the face, or finds the one ccnd already has. */
static int newface(struct run *r, const struct cmd *c, unsigned *faceid)
{
    char host[NI_MAXHOST], ifaddr[NI_MAXHOST];
    long port;
    if (resolve(c->host, c->port, c->ipproto, host, sizeof host, &port) != 0) {
        return -1;
    }
    struct ccnx_face_instance fi;
    ccnx_face_instance_init(&fi);
    if (c->mcastif != NULL) {
        long ignored;
        if (resolve(c->mcastif, NULL, c->ipproto, ifaddr, sizeof ifaddr, &ignored) != 0) {
            return -1;
        }
        fi.mcast_interface = (struct ccnx_view){(const uint8_t *)ifaddr, strlen(ifaddr)};
    }
    fi.action = (struct ccnx_view){(const uint8_t *)"newface", 7};
    fi.ccndid = (struct ccnx_view){r->link.ccndid, CCNX_DIGEST_LEN};
    fi.ip_proto = c->ipproto;
    fi.host = (struct ccnx_view){(const uint8_t *)host, strlen(host)};
    fi.port = port;
    fi.mcast_ttl = c->ttl;
    fi.lifetime = FOREVER;
    struct ccnx_buf body = CCNX_BUF_INIT, reply = CCNX_BUF_INIT;
    link_up(r);
    ccnx_face_instance_build(&body, &fi);
    int res = control(r, "newface", &body, &reply);
    if (res == 0 && (ccnx_face_instance_parse(reply.data, reply.len, &fi) != 0 || fi.face_id < 0 ||
                     fi.face_id > UINT_MAX)) {
        tool_warn("newface: ccnd's answer carries no face number");
        res = -1;
    }
    if (res == 0) {
        *faceid = (unsigned)fi.face_id;
        verbose(r, "face %u is %s %s port %ld", *faceid, c->ipproto == 6 ? "tcp" : "udp", host,
                port);
    }
    ccnx_buf_free(&body);
    ccnx_buf_free(&reply);
    return res;
}

static int destroyface(struct run *r, unsigned faceid)
{
    struct ccnx_face_instance fi;
    ccnx_face_instance_init(&fi);
    link_up(r);
    fi.action = (struct ccnx_view){(const uint8_t *)"destroyface", 11};
    fi.ccndid = (struct ccnx_view){r->link.ccndid, CCNX_DIGEST_LEN};
    fi.face_id = faceid;
    struct ccnx_buf body = CCNX_BUF_INIT, reply = CCNX_BUF_INIT;
    ccnx_face_instance_build(&body, &fi);
    int res = control(r, "destroyface", &body, &reply);
    if (res == 0) {
        verbose(r, "face %u destroyed", faceid);
    }
    ccnx_buf_free(&body);
    ccnx_buf_free(&reply);
    return res;
}

/* prefixreg or unreg of c->uri on faceid. */
static int forwarding(struct run *r, const char *verb, const struct cmd *c, unsigned faceid)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    ccnx_uri_parse_str(&name, c->uri); /* checked while parsing */
    struct ccnx_forwarding_entry fe;
    ccnx_forwarding_entry_init(&fe);
    link_up(r);
    fe.action = (struct ccnx_view){(const uint8_t *)verb, strlen(verb)};
    fe.name = (struct ccnx_view){name.enc.data, name.enc.len};
    fe.ccndid = (struct ccnx_view){r->link.ccndid, CCNX_DIGEST_LEN};
    fe.face_id = faceid;
    fe.flags = c->flags;
    fe.lifetime = r->lifetime;
    struct ccnx_buf body = CCNX_BUF_INIT, reply = CCNX_BUF_INIT;
    ccnx_forwarding_entry_build(&body, &fe);
    int res = control(r, verb, &body, &reply);
    if (res == 0) {
        verbose(r, "%s %s on face %u", verb, c->uri, faceid);
    }
    ccnx_name_free(&name);
    ccnx_buf_free(&body);
    ccnx_buf_free(&reply);
    return res;
}

static int strategy(struct run *r, const struct cmd *c)
{
    static const char *const names[] = {"setstrategy", "getstrategy", "removestrategy"};
    const char *verb = names[c->verb - V_SETSTRATEGY];
    struct ccnx_name name;
    ccnx_name_init(&name);
    ccnx_uri_parse_str(&name, c->uri);
    struct ccnx_strategy_selection ss;
    ccnx_strategy_selection_init(&ss);
    link_up(r);
    ss.action = (struct ccnx_view){(const uint8_t *)verb, strlen(verb)};
    ss.name = (struct ccnx_view){name.enc.data, name.enc.len};
    ss.ccndid = (struct ccnx_view){r->link.ccndid, CCNX_DIGEST_LEN};
    if (c->strategy != NULL)
        ss.strategy_id = (struct ccnx_view){(const uint8_t *)c->strategy, strlen(c->strategy)};
    if (c->params != NULL)
        ss.parameters = (struct ccnx_view){(const uint8_t *)c->params, strlen(c->params)};
    ss.lifetime = c->strategy_lifetime;
    struct ccnx_buf body = CCNX_BUF_INIT, reply = CCNX_BUF_INIT, uri = CCNX_BUF_INIT;
    ccnx_strategy_selection_build(&body, &ss);
    int res = control(r, verb, &body, &reply);
    if (res == 0 && (ccnx_strategy_selection_parse(reply.data, reply.len, &ss) != 0 ||
                     ss.name.p == NULL || ccnx_uri_append(&uri, ss.name.p, ss.name.n) != 0)) {
        tool_warn("%s: ccnd's answer is not a StrategySelection", verb);
        res = -1;
    }
    if (res == 0) {
        printf("Strategy at %s is %.*s %.*s\n", ccnx_buf_cstr(&uri), (int)ss.strategy_id.n,
               ss.strategy_id.p ? (const char *)ss.strategy_id.p : "", (int)ss.parameters.n,
               ss.parameters.p ? (const char *)ss.parameters.p : "");
        fflush(stdout);
    }
    ccnx_name_free(&name);
    ccnx_buf_free(&body);
    ccnx_buf_free(&reply);
    ccnx_buf_free(&uri);
    return res;
}

/* The face a command names: its number, or the face ccnd has (or makes) for the address. */
static int face_of(struct run *r, const struct cmd *c, unsigned *faceid)
{
    if (c->by_faceid) {
        *faceid = (unsigned)c->faceid;
        return 0;
    }
    return newface(r, c, faceid);
}

/* srv: ccnx:/ and ccnx:/autoconf-route on a face to the hub that the DNS
 * search domains name (TCP preferred: such a hub may be far), the routes
 * that ccnd-autoconfig takes away again before it looks anew. */
static int srv_routes(struct run *r)
{
    static const char *const services[] = {"_ccnx._tcp", "_ccnx._udp"};
    char host[256], port_text[8], why[2][160];
    unsigned port = 0;
    size_t i = 0;
    while (i < 2 && dns_srv_find(services[i], host, sizeof host, &port, why[i], sizeof why[i]) != 0)
        i++;
    if (i == 2) {
        tool_warn("srv: no CCNx hub in DNS (%s; %s); a hub is named by an SRV record of "
                  "_ccnx._tcp or _ccnx._udp in a search domain of /etc/resolv.conf",
                  why[0], why[1]);
        return -1;
    }
    snprintf(port_text, sizeof port_text, "%u", port);
    struct cmd c = {.verb = V_ADD,
                    .uri = "ccnx:/",
                    .ipproto = i == 0 ? 6 : 17,
                    .host = host,
                    .port = port_text,
                    .flags = -1,
                    .ttl = -1,
                    .strategy_lifetime = -1};
    unsigned face;
    verbose(r, "srv: %s names %s port %s", services[i], host, port_text);
    if (newface(r, &c, &face) != 0 || forwarding(r, "prefixreg", &c, face) != 0)
        return -1;
    c.uri = "ccnx:/autoconf-route";
    return forwarding(r, "prefixreg", &c, face);
}

static int run_cmd(struct run *r, const struct cmd *c)
{
    unsigned face = 0;
    switch (c->verb) {
    case V_ADD:
        return face_of(r, c, &face) != 0 ? -1 : forwarding(r, "prefixreg", c, face);
    case V_DEL:
        return face_of(r, c, &face) != 0 ? -1 : forwarding(r, "unreg", c, face);
    case V_RENEW:
        /* The old face goes with its queues and registrations; a fresh one
         * replaces it (a new TCP connection, say, after the peer restarted). */
        if (newface(r, c, &face) != 0 || destroyface(r, face) != 0 || newface(r, c, &face) != 0)
            return -1;
        return forwarding(r, "prefixreg", c, face);
    case V_CREATE:
        return newface(r, c, &face);
    case V_DESTROY:
    case V_DESTROYFACE:
        return face_of(r, c, &face) != 0 ? -1 : destroyface(r, face);
    case V_SRV:
        return srv_routes(r);
    default:
        return strategy(r, c);
    }
}

/* ---- Configuration files ---- */

struct line {
    int lineno;
    char *copy; /* the words point into it */
    int ntok;
    char *tok[MAX_TOKENS];
    struct cmd cmd;
};

/* Splits on blanks after cutting a '#' comment; 0 words means nothing to do. */
static int split(char *s, char **tok, int max)
{
    char *hash = strchr(s, '#');
    if (hash != NULL)
        *hash = '\0';
    int n = 0;
    for (char *w = strtok(s, " \t\r\n"); w != NULL; w = strtok(NULL, " \t\r\n")) {
        if (n == max)
            return -1;
        tok[n++] = w;
    }
    return n;
}

static int run_file(struct run *r, const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (f == NULL)
        tool_die("cannot read %s: %s", path, strerror(errno));
    struct line *lines = NULL;
    size_t count = 0, cap = 0;
    char *text = NULL;
    size_t textcap = 0;
    int errors = 0;
    for (int lineno = 1; getline(&text, &textcap, f) >= 0; lineno++) {
        if (count == cap) {
            cap = cap ? 2 * cap : 16;
            lines = realloc(lines, cap * sizeof *lines);
            if (lines == NULL)
                tool_die("out of memory");
        }
        struct line *l = &lines[count];
        char *copy = strdup(text);
        char err[256];
        l->lineno = lineno;
        l->copy = copy;
        l->ntok = copy != NULL ? split(copy, l->tok, MAX_TOKENS) : -1;
        if (l->ntok == 0) {
            free(copy);
            continue;
        }
        if (l->ntok < 0) {
            snprintf(err, sizeof err, "too many words");
        }
        if (l->ntok < 0 || parse_cmd(l->tok, l->ntok, &l->cmd, err, sizeof err) != 0) {
            tool_warn("%s:%d: %s", path, lineno, err);
            errors++;
            free(copy);
            continue;
        }
        count++;
    }
    free(text);
    if (f != stdin)
        fclose(f);
    if (errors > 0)
        tool_die("%s: %d bad line%s; nothing was applied", path, errors, errors > 1 ? "s" : "");
    int failed = 0;
    for (size_t i = 0; i < count; i++) {
        if (run_cmd(r, &lines[i].cmd) != 0) {
            tool_warn("%s:%d: failed", path, lines[i].lineno);
            failed++;
        }
        free(lines[i].copy);
    }
    free(lines);
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct run r = {.lifetime = FOREVER};
    const char *file = NULL;
    if (argc > 1 && tool_is_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    int opt;
    while ((opt = getopt(argc, argv, "+hvdt:f:")) != -1) {
        switch (opt) {
        case 'h':
            usage(stdout);
            return 0;
        case 'v':
            r.verbose = 1;
            break;
        case 't':
            if (tool_parse_long(optarg, 1, INT32_MAX, &r.lifetime) != 0)
                tool_usage_error("-t wants a positive number of seconds, not '%s'", optarg);
            break;
        case 'f':
            file = optarg;
            break;
        case 'd':
            tool_usage_error("-d (dynamic routes from DNS for each Interest) is not supported; "
                             "'srv' routes ccnx:/ to the hub DNS names");
        default:
            tool_usage_error("unknown option");
        }
    }
    if (file != NULL && optind < argc)
        tool_usage_error("-f cannot be combined with a command");
    if (file == NULL && optind == argc)
        tool_usage_error("missing command");
    int res;
    if (file != NULL) {
        res = run_file(&r, file);
    } else {
        struct cmd c;
        char err[256];
        if (parse_cmd(argv + optind, argc - optind, &c, err, sizeof err) != 0)
            tool_usage_error("%s", err);
        res = run_cmd(&r, &c);
    }
    if (r.linked)
        ccnd_link_close(&r.link);
    return res == 0 ? 0 : TOOL_EXIT_FAILURE;
}
