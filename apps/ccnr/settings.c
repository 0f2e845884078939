/* Settings: environment variables, overridden by NAME=VALUE lines in
 * $CCNR_DIRECTORY/config, as the reference's manual describes; and the log. */
#include "ccnr.h"

#include <ccnx/uri.h>

#include <errno.h>
#include <stddef.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define DEFAULT_GLOBAL_PREFIX "ccnx:/parc.com/csl/ccn/Repos"
#define CONFIG_LINE_MAX       4096
#define MIN_MAX_BYTES         ((uint64_t)1 << 20)

static const char *const level_names[] = {"NONE", "SEVERE", "ERROR", "WARNING",
                                          "INFO", "FINE",   "FINER", "FINEST"};

/* ---- The log ---- */

static enum ccnr_level log_level = CCNR_WARNING;

void ccnr_log_set_level(enum ccnr_level level)
{
    log_level = level;
}

static int log_enabled(enum ccnr_level level)
{
    return level != CCNR_NONE && level <= log_level;
}

void ccnr_log(enum ccnr_level level, const char *fmt, ...)
{
    if (!log_enabled(level)) {
        return;
    }
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ccnr_log_line(level, line);
}

void ccnr_log_line(enum ccnr_level level, const char *line)
{
    /* one write per line, so lines of a daemon sharing a log stay whole */
    fprintf(stderr, "ccnr: %s: %s\n", level_names[level], line);
}

/* ---- Collecting the values ---- */

enum setting {
    S_DEBUG,
    S_GLOBAL_PREFIX,
    S_SCOPE_LIMIT,
    S_MAX_BYTES,
    S_STATUS_PORT,
    S_LISTEN_ON,
    S_VERIFY,
    S_SYNC_ENABLE, /* the Sync agent's, in the order of sync_ints */
    S_SYNC_HEARTBEAT,
    S_SYNC_RA_LIFETIME,
    S_SYNC_NF_LIFETIME,
    S_SYNC_FETCH_BUSY,
    S_SYNC_SCOPE,
    S_SYNC_DEBUG,
    S_COUNT
};

static const char *const setting_names[S_COUNT] = {"CCNR_DEBUG",
                                                   "CCNR_GLOBAL_PREFIX",
                                                   "CCNR_START_WRITE_SCOPE_LIMIT",
                                                   "CCNR_MAX_BYTES",
                                                   "CCNR_STATUS_PORT",
                                                   "CCNR_LISTEN_ON",
                                                   "CCNR_VERIFY",
                                                   "CCNS_ENABLE",
                                                   "CCNS_HEARTBEAT_MICROS",
                                                   "CCNS_ROOT_ADVISE_LIFETIME",
                                                   "CCNS_NODE_FETCH_LIFETIME",
                                                   "CCNS_MAX_FETCH_BUSY",
                                                   "CCNS_SYNC_SCOPE",
                                                   "CCNS_DEBUG"};

/* The Sync agent's numeric settings: name order as in enum setting. */
struct sync_int {
    long min, max, dflt;
    size_t field;
    const char *meaning;
};
#define SYNC_FIELD(f) offsetof(struct ccnr_sync_set, f)
static const struct sync_int sync_ints[] = {
    {0, 1, 1, SYNC_FIELD(enable), "0 (no Sync) or 1"},
    {10000, 10000000, 200000, SYNC_FIELD(heartbeat_us), "microseconds from 10000 to 10000000"},
    {1, 3600, 20, SYNC_FIELD(ra_lifetime_s), "seconds from 1 to 3600"},
    {1, 300, 4, SYNC_FIELD(nf_lifetime_s), "seconds from 1 to 300"},
    {1, 256, 6, SYNC_FIELD(fetch_busy), "a count from 1 to 256"},
    {0, 3, 2, SYNC_FIELD(scope), "0 to 3 (2: neighbours only)"},
};

/* Settings of the reference that this repository has no use for (its index
 * B-tree, caches, Sync): accepted in a config file written for the
 * reference, with a warning. */
static const char *const foreign_prefixes[] = {"CCNR_BTREE_", "CCNR_CONTENT_CACHE",
                                               "CCNR_MIN_SEND_BUFSIZE", "CCNR_PROTO", "CCNS_"};
/* (CCNS_ names not in setting_names: the reference's tuning of its own
 * agent's internals, such as CCNS_MAX_COMPARES_BUSY or CCNS_FAUX_ERROR.) */

struct raw {
    char *value[S_COUNT];
    char where[S_COUNT][PATH_MAX + 48]; /* "environment" or "<dir>/config line 3" */
};

static int find_setting(const char *name)
{
    for (int i = 0; i < S_COUNT; i++) {
        if (strcmp(name, setting_names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

static int is_foreign(const char *name)
{
    for (size_t i = 0; i < sizeof foreign_prefixes / sizeof foreign_prefixes[0]; i++) {
        if (strncmp(name, foreign_prefixes[i], strlen(foreign_prefixes[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

static int set_raw(struct raw *r, int i, const char *value, const char *where)
{
    free(r->value[i]);
    r->value[i] = strdup(value);
    snprintf(r->where[i], sizeof r->where[i], "%s", where);
    return r->value[i] != NULL ? 0 : -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') {
        s++;
    }
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) {
        s[--n] = '\0';
    }
    return s;
}

/* One line of the config file: blank, a # comment, or NAME=VALUE. */
static int config_line(struct raw *r, char *line, const char *where, char *err, size_t errlen)
{
    char *s = trim(line);
    if (*s == '\0' || *s == '#') {
        return 0;
    }
    char *eq = strchr(s, '=');
    if (eq == NULL) {
        snprintf(err, errlen, "%s: expected NAME=VALUE, found \"%s\": fix or remove the line",
                 where, s);
        return -1;
    }
    *eq = '\0';
    char *name = trim(s), *value = trim(eq + 1);
    int i = find_setting(name);
    if (i >= 0) {
        return set_raw(r, i, value, where);
    }
    if (strcmp(name, "CCNR_DIRECTORY") == 0) {
        ccnr_log(CCNR_WARNING, "%s: CCNR_DIRECTORY is ignored in the config file", where);
    } else if (is_foreign(name)) {
        ccnr_log(CCNR_INFO, "%s: %s is not used by this repository", where, name);
    } else {
        snprintf(err, errlen, "%s: unknown setting %s: remove the line (see ccnr(1))", where, name);
        return -1;
    }
    return 0;
}

static int read_config(struct raw *r, const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/config", dir);
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        if (errno == ENOENT) {
            return 0;
        }
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char line[CONFIG_LINE_MAX];
    char where[PATH_MAX + 48];
    int rc = 0;
    for (unsigned no = 1; rc == 0 && fgets(line, sizeof line, fp) != NULL; no++) {
        snprintf(where, sizeof where, "%s line %u", path, no);
        if (strchr(line, '\n') == NULL && !feof(fp)) {
            snprintf(err, errlen, "%s: line longer than %d bytes", where, CONFIG_LINE_MAX - 2);
            rc = -1;
        } else {
            rc = config_line(r, line, where, err, errlen);
        }
    }
    fclose(fp);
    return rc;
}

/* ---- Checking them ---- */

static int parse_level(const char *v, enum ccnr_level *out)
{
    for (int i = CCNR_NONE; i <= CCNR_FINEST; i++) {
        if (strcasecmp(v, level_names[i]) == 0) {
            *out = (enum ccnr_level)i;
            return 0;
        }
    }
    return -1;
}

/* A byte count with an optional K, M or G (powers of 1024). */
static int parse_bytes(const char *v, uint64_t *out)
{
    if (*v < '0' || *v > '9') {
        return -1;
    }
    errno = 0;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k') {
        shift = 10;
    } else if (*end == 'M' || *end == 'm') {
        shift = 20;
    } else if (*end == 'G' || *end == 'g') {
        shift = 30;
    }
    end += shift != 0;
    if (errno != 0 || *end != '\0' || n > (UINT64_MAX >> shift)) {
        return -1;
    }
    *out = (uint64_t)n << shift;
    return 0;
}

static int check_sync(struct ccnr_settings *s, const struct raw *r, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof sync_ints / sizeof sync_ints[0]; i++) {
        const struct sync_int *d = &sync_ints[i];
        const char *v = r->value[S_SYNC_ENABLE + i];
        long n = d->dflt;
        if (v != NULL && *v != '\0') {
            char *end;
            errno = 0;
            n = strtol(v, &end, 10);
            if (errno != 0 || *end != '\0' || n < d->min || n > d->max) {
                snprintf(err, errlen, "%s: %s=%s is out of range: use %s",
                         r->where[S_SYNC_ENABLE + i], setting_names[S_SYNC_ENABLE + i], v,
                         d->meaning);
                return -1;
            }
        }
        *(long *)((char *)&s->sync + d->field) = n;
    }
    const char *v = r->value[S_SYNC_DEBUG];
    s->sync.debug = s->debug;
    if (v != NULL && *v != '\0' && parse_level(v, &s->sync.debug) != 0) {
        snprintf(err, errlen, "%s: CCNS_DEBUG=%s is not a level: use those of CCNR_DEBUG",
                 r->where[S_SYNC_DEBUG], v);
        return -1;
    }
    return 0;
}

static int check_values(struct ccnr_settings *s, const struct raw *r, char *err, size_t errlen)
{
    const char *v = r->value[S_DEBUG];
    if (v != NULL && *v != '\0' && parse_level(v, &s->debug) != 0) {
        snprintf(err, errlen,
                 "%s: CCNR_DEBUG=%s is not a level: use NONE, SEVERE, ERROR, WARNING, INFO, "
                 "FINE, FINER or FINEST",
                 r->where[S_DEBUG], v);
        return -1;
    }
    v = r->value[S_SCOPE_LIMIT];
    if (v != NULL && *v != '\0') {
        if (v[0] < '0' || v[0] > '3' || v[1] != '\0') {
            snprintf(err, errlen,
                     "%s: CCNR_START_WRITE_SCOPE_LIMIT=%s is out of range: use 0 (read-only), "
                     "1, 2 or 3 (unlimited)",
                     r->where[S_SCOPE_LIMIT], v);
            return -1;
        }
        s->start_write_scope_limit = v[0] - '0';
    }
    v = r->value[S_VERIFY];
    s->verify = 1;
    if (v != NULL && *v != '\0') {
        if ((v[0] != '0' && v[0] != '1') || v[1] != '\0') {
            snprintf(err, errlen,
                     "%s: CCNR_VERIFY=%s is not 0 or 1: use 1 (check every object's signature, "
                     "the default) or 0 (store objects unchecked)",
                     r->where[S_VERIFY], v);
            return -1;
        }
        s->verify = v[0] == '1';
    }
    v = r->value[S_MAX_BYTES];
    if (v != NULL && *v != '\0' &&
        (parse_bytes(v, &s->max_bytes) != 0 || s->max_bytes < MIN_MAX_BYTES)) {
        snprintf(err, errlen,
                 "%s: CCNR_MAX_BYTES=%s is not a size of at least 1M: use a byte count, "
                 "optionally with K, M or G (e.g. 4G)",
                 r->where[S_MAX_BYTES], v);
        return -1;
    }
    v = r->value[S_GLOBAL_PREFIX];
    if (v == NULL || *v == '\0') {
        v = DEFAULT_GLOBAL_PREFIX;
    }
    if (ccnx_uri_parse_str(&s->global_prefix, v) != 0) {
        snprintf(err, errlen,
                 "%s: CCNR_GLOBAL_PREFIX=%s is not a ccnx URI: use a name such as "
                 "ccnx:/example.com/repo",
                 r->where[S_GLOBAL_PREFIX], v);
        return -1;
    }
    return 0;
}

/* CCNR_LISTEN_ON: numeric IPv4 or IPv6 addresses separated by spaces,
 * commas or semicolons, as the reference's manual says. */
static int parse_listen_on(struct ccnr_settings *s, const char *v, const char *where, char *err,
                           size_t errlen)
{
    snprintf(s->status.listen_on_text, sizeof s->status.listen_on_text, "%s", v);
    for (const char *p = v; *p != '\0';) {
        size_t n = strcspn(p, " \t,;");
        if (n > 0) {
            struct addrinfo hints = {.ai_flags = AI_NUMERICHOST, .ai_socktype = SOCK_STREAM};
            struct addrinfo *ai = NULL;
            char addr[sizeof s->status.listen_on[0]];
            int bad = n >= sizeof addr || s->status.listen_count == CCNR_LISTEN_MAX;
            snprintf(addr, sizeof addr, "%.*s", (int)n, p);
            bad = bad || getaddrinfo(addr, NULL, &hints, &ai) != 0;
            if (ai != NULL) {
                freeaddrinfo(ai);
            }
            if (bad) {
                snprintf(err, errlen,
                         "%s: CCNR_LISTEN_ON=%s: \"%.*s\" is not an IP address, or more than "
                         "%d were given: list at most %d numeric addresses (e.g. 127.0.0.1 ::1)",
                         where, v, (int)n, p, CCNR_LISTEN_MAX, CCNR_LISTEN_MAX);
                return -1;
            }
            memcpy(s->status.listen_on[s->status.listen_count++], addr, sizeof addr);
        }
        p += n + (p[n] != '\0');
    }
    return 0;
}

/* The status server's two settings: no server without a port. */
static int check_status(struct ccnr_settings *s, const struct raw *r, char *err, size_t errlen)
{
    const char *v = r->value[S_STATUS_PORT];
    if (v != NULL && *v != '\0') {
        char *end;
        errno = 0;
        unsigned long port = strtoul(v, &end, 10);
        if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || port < 1 || port > 65535) {
            snprintf(err, errlen,
                     "%s: CCNR_STATUS_PORT=%s is not a TCP port: use a number from 1 to 65535, "
                     "or leave it unset for no status server",
                     r->where[S_STATUS_PORT], v);
            return -1;
        }
        s->status.port = (unsigned)port;
    }
    v = r->value[S_LISTEN_ON];
    if (v != NULL) {
        return parse_listen_on(s, v, r->where[S_LISTEN_ON], err, errlen);
    }
    return 0;
}

static int find_directory(struct ccnr_settings *s, char *err, size_t errlen)
{
    const char *d = getenv("CCNR_DIRECTORY");
    if (d == NULL || *d == '\0') {
        d = ".";
    }
    struct stat st;
    const char *why = NULL;
    if (stat(d, &st) != 0) {
        why = strerror(errno);
    } else if (!S_ISDIR(st.st_mode)) {
        why = "not a directory";
    }
    if (why != NULL) {
        snprintf(err, errlen,
                 "CCNR_DIRECTORY=%s: %s: create the directory first (mkdir -p %s) or set "
                 "CCNR_DIRECTORY to an existing one",
                 d, why, d);
        return -1;
    }
    if (realpath(d, s->dir) == NULL) {
        snprintf(err, errlen, "CCNR_DIRECTORY=%s: %s", d, strerror(errno));
        return -1;
    }
    return 0;
}

int ccnr_settings_load(struct ccnr_settings *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->debug = CCNR_WARNING;
    s->start_write_scope_limit = 3;
    ccnx_name_init(&s->global_prefix);
    struct raw r;
    memset(&r, 0, sizeof r);
    int rc = 0;
    for (int i = 0; rc == 0 && i < S_COUNT; i++) {
        const char *v = getenv(setting_names[i]);
        if (v != NULL) {
            rc = set_raw(&r, i, v, "environment");
        }
    }
    if (rc != 0) {
        snprintf(err, errlen, "out of memory reading the settings");
    }
    rc = rc == 0 ? find_directory(s, err, errlen) : rc;
    rc = rc == 0 ? read_config(&r, s->dir, err, errlen) : rc;
    rc = rc == 0 ? check_values(s, &r, err, errlen) : rc;
    rc = rc == 0 ? check_status(s, &r, err, errlen) : rc;
    rc = rc == 0 ? check_sync(s, &r, err, errlen) : rc;
    for (int i = 0; i < S_COUNT; i++) {
        free(r.value[i]);
    }
    return rc;
}

void ccnr_settings_free(struct ccnr_settings *s)
{
    ccnx_name_free(&s->global_prefix);
}
