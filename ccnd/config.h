/* ccnd's settings, read from the environment in one place (config.c), with
 * the reference's variable names and defaults (see `man ccnd`). */
#ifndef CCND_CONFIG_H
#define CCND_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define CCND_MAX_LISTEN  8
#define CCND_MAX_AUTOREG 8
#define CCND_URI_MAX     256

struct ccnd_config {
    unsigned port;          /* CCN_LOCAL_PORT: TCP and UDP port (9695) */
    char sockname[108];     /* unix socket path from CCN_LOCAL_SOCKNAME and the port */
    size_t cs_capacity;     /* CCND_CAP: content store objects */
    uint64_t cs_max_bytes;  /* CCND_CAP_BYTES: content store object bytes */
    size_t pit_limit;       /* CCND_PIT_LIMIT: pending Interests; 0: the forwarder's default */
    unsigned debug;         /* CCND_DEBUG bits (-1 means all) */
    uint64_t default_stale; /* CCND_DEFAULT_TIME_TO_STALE, seconds */
    uint64_t max_stale;     /* CCND_MAX_TIME_TO_STALE, seconds */
    char keystore[256];     /* ccnd's own key: CCND_KEYSTORE_DIRECTORY/.ccnd_keystore_<port> */
    size_t listen_count;    /* CCND_LISTEN_ON addresses; 0 means the wildcards */
    char listen_on[CCND_MAX_LISTEN][64];
    size_t autoreg_count; /* CCND_AUTOREG: prefixes given to every new network face */
    char autoreg[CCND_MAX_AUTOREG][CCND_URI_MAX];
    char guest_prefix[CCND_URI_MAX]; /* CCND_PREFIX: stem of guest prefixes; "" for none */
    uint64_t rte_limit;              /* CCND_MAX_RTE_MICROSEC; 0: the forwarder's default */
    size_t mtu;                      /* CCND_MTU: datagram packing budget in bytes; 0: none */
    uint64_t data_pause;             /* CCND_DATA_PAUSE_MICROSEC: accepted, see ccnd(1) */
};

/* Fills cfg from the environment; on a bad value writes a message naming
 * the variable and the fix into err (n bytes) and returns -1. */
int ccnd_config_from_env(struct ccnd_config *cfg, char *err, size_t n);

#endif
