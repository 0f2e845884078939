#include "config.h"

#include <ccnx/local.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_STALE_SECONDS (60 * 60 * 24 * 365 * 4ull) /* objects without FreshnessSeconds */
/* Bytes per object assumed when only the byte bound is known: it keeps
 * the per-object overhead (about 300 bytes) within a third of the bound. */
#define CS_BYTES_PER_OBJECT 1024
/* CCND_CAP_BYTES=0: no bound, the reference's default (about half of all
 * unsigned values) */
#define UNBOUNDED_CS_CAPACITY ((size_t)(~0u) / 2)

/* The content store's default bound in bytes: an eighth of the machine's
 * memory, at least 64 MB. The reference set no bound, and a consumer that
 * never stops grew ccnd without end. */
static uint64_t default_cs_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    uint64_t mem = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : (uint64_t)1 << 30;
    uint64_t b = mem / 8;
    return b < ((uint64_t)64 << 20) ? (uint64_t)64 << 20 : b;
}

/* A decimal setting; an unset or empty variable keeps *out. */
static int env_number(const char *name, uint64_t max, uint64_t *out, char *err, size_t n)
{
    const char *v = getenv(name);
    if (v == NULL || v[0] == '\0') {
        return 0;
    }
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end != '\0' || v[0] == '-' || x > max) {
        snprintf(err, n, "%s=%s is not a number from 0 to %llu; unset it or fix it", name, v,
                 (unsigned long long)max);
        return -1;
    }
    *out = x;
    return 0;
}

/* 0 when text[0..len) is a ccnx URI of under CCND_URI_MAX characters;
 * copies it (terminated) to out. */
static int check_uri(const char *var, const char *text, size_t len, char *out, char *err, size_t n)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    size_t used = 0;
    int res = len < CCND_URI_MAX ? ccnx_uri_parse(&name, text, len, &used) : -1;
    ccnx_name_free(&name);
    if (res != 0 || used != len) {
        snprintf(err, n, "%s: '%.*s' is not a ccnx URI of under %d characters (e.g. ccnx:/a/b)",
                 var, (int)(len < 80 ? len : 80), text, CCND_URI_MAX);
        return -1;
    }
    memcpy(out, text, len);
    out[len] = '\0';
    return 0;
}

/* CCND_AUTOREG: URIs separated by whitespace, commas or semicolons. */
static int env_autoreg(struct ccnd_config *cfg, char *err, size_t n)
{
    const char *v = getenv("CCND_AUTOREG");
    for (const char *p = v; p != NULL && *p != '\0';) {
        p += strspn(p, " \t\n,;");
        size_t len = strcspn(p, " \t\n,;");
        if (len == 0) {
            break;
        }
        if (cfg->autoreg_count == CCND_MAX_AUTOREG) {
            snprintf(err, n, "CCND_AUTOREG: at most %d prefixes", CCND_MAX_AUTOREG);
            return -1;
        }
        if (check_uri("CCND_AUTOREG", p, len, cfg->autoreg[cfg->autoreg_count], err, n) != 0) {
            return -1;
        }
        cfg->autoreg_count++;
        p += len;
    }
    const char *g = getenv("CCND_PREFIX");
    return g == NULL || g[0] == '\0'
               ? 0
               : check_uri("CCND_PREFIX", g, strlen(g), cfg->guest_prefix, err, n);
}

/* The tuning numbers; out-of-range values are brought into range as the
 * reference does, malformed ones refused. */
static int env_tuning(struct ccnd_config *cfg, char *err, size_t n)
{
    uint64_t rte = 0, mtu = 0, pause = 0;
    if (env_number("CCND_MAX_RTE_MICROSEC", UINT64_MAX, &rte, err, n) != 0 ||
        env_number("CCND_MTU", UINT64_MAX, &mtu, err, n) != 0 ||
        env_number("CCND_DATA_PAUSE_MICROSEC", UINT64_MAX, &pause, err, n) != 0) {
        return -1;
    }
    const char *r = getenv("CCND_MAX_RTE_MICROSEC");
    if (r != NULL && r[0] != '\0') {
        cfg->rte_limit = rte < 2000 ? 2000 : rte > 60000000 ? 60000000 : rte;
    }
    cfg->mtu = (size_t)(mtu > 65500 ? 65500 : mtu); /* what one UDP datagram can carry */
    cfg->data_pause = pause;
    return 0;
}

/* CCND_LISTEN_ON: addresses separated by whitespace, commas or semicolons,
 * optionally in square brackets. */
static int env_listen(struct ccnd_config *cfg, char *err, size_t n)
{
    const char *v = getenv("CCND_LISTEN_ON");
    cfg->listen_count = 0;
    for (const char *p = v; p != NULL && *p != '\0';) {
        size_t skip = strspn(p, " \t\n,;");
        p += skip;
        size_t len = strcspn(p, " \t\n,;");
        if (len == 0) {
            break;
        }
        const char *a = p;
        size_t alen = len;
        if (alen >= 2 && a[0] == '[' && a[alen - 1] == ']') {
            a++;
            alen -= 2;
        }
        if (cfg->listen_count == CCND_MAX_LISTEN || alen >= sizeof cfg->listen_on[0]) {
            snprintf(err, n, "CCND_LISTEN_ON: at most %d addresses of under 64 characters",
                     CCND_MAX_LISTEN);
            return -1;
        }
        memcpy(cfg->listen_on[cfg->listen_count], a, alen);
        cfg->listen_on[cfg->listen_count++][alen] = '\0';
        p += len;
    }
    return 0;
}

/* CCND_KEYSTORE_DIRECTORY when absolute, else a private folder under
 * /var/tmp per user, as the reference: ccnd keeps its identity across runs. */
static int env_keystore(struct ccnd_config *cfg, char *err, size_t n)
{
    const char *dir = getenv("CCND_KEYSTORE_DIRECTORY");
    char fallback[64];
    if (dir == NULL || dir[0] != '/') {
        snprintf(fallback, sizeof fallback, "/var/tmp/.ccnx-user%d", (int)geteuid());
        dir = fallback;
    }
    int len = snprintf(cfg->keystore, sizeof cfg->keystore, "%s/.ccnd_keystore_%u", dir, cfg->port);
    if (len < 0 || (size_t)len >= sizeof cfg->keystore) {
        snprintf(err, n, "CCND_KEYSTORE_DIRECTORY is too long (at most %zu characters)",
                 sizeof cfg->keystore - 32);
        return -1;
    }
    return 0;
}

int ccnd_config_from_env(struct ccnd_config *cfg, char *err, size_t n)
{
    memset(cfg, 0, sizeof *cfg);
    const char *port = getenv(CCNX_ENV_PORT);
    cfg->port = ccnx_local_port(port);
    char *end = NULL;
    unsigned long given = port != NULL ? strtoul(port, &end, 10) : 0;
    if (port != NULL && port[0] != '\0' && (*end != '\0' || cfg->port != given)) {
        snprintf(err, n, "%s=%s is not a port number (1 to 65535)", CCNX_ENV_PORT, port);
        return -1;
    }
    if (ccnx_local_sockname(cfg->sockname, sizeof cfg->sockname, getenv(CCNX_ENV_SOCKNAME), port) !=
        0) {
        snprintf(err, n, "%s is too long for a unix socket path", CCNX_ENV_SOCKNAME);
        return -1;
    }
    uint64_t cap_bytes = default_cs_bytes();
    uint64_t cap = cap_bytes / CS_BYTES_PER_OBJECT;
    uint64_t stale = DEFAULT_STALE_SECONDS, max = DEFAULT_STALE_SECONDS;
    uint64_t debug = 1;
    const char *d = getenv("CCND_DEBUG");
    if (d != NULL && strcmp(d, "-1") == 0) {
        debug = ~0u;
    } else if (env_number("CCND_DEBUG", ~0u, &debug, err, n) != 0) {
        return -1;
    }
    if (env_number("CCND_CAP_BYTES", UINT64_MAX / 2, &cap_bytes, err, n) != 0) {
        return -1;
    }
    const char *cb = getenv("CCND_CAP_BYTES");
    if (cb != NULL && cb[0] != '\0') { /* CCND_CAP below may still set the count */
        cap = cap_bytes > 0 ? cap_bytes / CS_BYTES_PER_OBJECT : UNBOUNDED_CS_CAPACITY;
    }
    if (env_number("CCND_CAP", SIZE_MAX / 2, &cap, err, n) != 0 ||
        env_number("CCND_DEFAULT_TIME_TO_STALE", DEFAULT_STALE_SECONDS, &stale, err, n) != 0 ||
        env_number("CCND_MAX_TIME_TO_STALE", DEFAULT_STALE_SECONDS, &max, err, n) != 0) {
        return -1;
    }
    uint64_t pit = 0;
    if (env_number("CCND_PIT_LIMIT", SIZE_MAX / 2, &pit, err, n) != 0) {
        return -1;
    }
    const char *pit_text = getenv("CCND_PIT_LIMIT");
    if (pit_text != NULL && pit_text[0] != '\0' && pit == 0) {
        snprintf(err, n, "CCND_PIT_LIMIT must be at least 1");
        return -1;
    }
    cfg->pit_limit = (size_t)pit;
    if (stale == 0 || max == 0) {
        snprintf(err, n, "CCND_DEFAULT_TIME_TO_STALE and CCND_MAX_TIME_TO_STALE must be positive");
        return -1;
    }
    cfg->cs_capacity = (size_t)cap;
    cfg->cs_max_bytes = cap_bytes;
    cfg->debug = (unsigned)debug;
    cfg->default_stale = stale;
    cfg->max_stale = max;
    if (env_keystore(cfg, err, n) != 0 || env_autoreg(cfg, err, n) != 0 ||
        env_tuning(cfg, err, n) != 0) {
        return -1;
    }
    return env_listen(cfg, err, n);
}
