#include "config.h"

#include <ccnx/local.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The reference keeps at most about half of all unsigned values: effectively unlimited. */
#define DEFAULT_CS_CAPACITY   ((size_t)(~0u) / 2)
#define DEFAULT_STALE_SECONDS (60 * 60 * 24 * 365 * 4ull) /* objects without FreshnessSeconds */

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
    if (port != NULL && port[0] != '\0' && cfg->port != (unsigned)atoi(port)) {
        snprintf(err, n, "%s=%s is not a port number (1 to 65535)", CCNX_ENV_PORT, port);
        return -1;
    }
    if (ccnx_local_sockname(cfg->sockname, sizeof cfg->sockname, getenv(CCNX_ENV_SOCKNAME), port) !=
        0) {
        snprintf(err, n, "%s is too long for a unix socket path", CCNX_ENV_SOCKNAME);
        return -1;
    }
    uint64_t cap = DEFAULT_CS_CAPACITY, stale = DEFAULT_STALE_SECONDS, max = DEFAULT_STALE_SECONDS;
    uint64_t debug = 1;
    const char *d = getenv("CCND_DEBUG");
    if (d != NULL && strcmp(d, "-1") == 0) {
        debug = ~0u;
    } else if (env_number("CCND_DEBUG", ~0u, &debug, err, n) != 0) {
        return -1;
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
    cfg->debug = (unsigned)debug;
    cfg->default_stale = stale;
    cfg->max_stale = max;
    return env_keystore(cfg, err, n) != 0 ? -1 : env_listen(cfg, err, n);
}
