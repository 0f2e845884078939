/* Private helpers shared inside libccnx. Not installed. */
#ifndef CCNX_INTERNAL_H
#define CCNX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>

/* Generated from core/dtag.csv, sorted by number. */
extern const struct ccnx_dtag_entry ccnx_dtag_table[CCNX_DTAG_COUNT];

/* Fast path for the one-byte DTAG headers of common elements (numbers < 16). */
#define CCNX_DTAG_BYTE(n) ((uint8_t)(0x80 | ((n) << 3) | 2))

/* Longest ccnb header: 64-bit number, 7 bits a byte after the first 4. */
#define CCNX_CCNB_MAX_HEADER 10

/* Writes the header for (numval, tt) at dst (room for CCNX_CCNB_MAX_HEADER
 * bytes) and returns its length: for builders that reserve space once. */
size_t ccnx_ccnb_put_header(uint8_t *dst, uint64_t numval, enum ccnx_tt tt);

/* The environment variables the library honours (env.c, the only reader),
 * NULL when unset or empty (the password: only when unset). */
struct ccnx_env {
    const char *transport;         /* CCN_LOCAL_TRANSPORT: "tcp" or the unix socket */
    const char *port;              /* CCN_LOCAL_PORT */
    const char *sockname;          /* CCN_LOCAL_SOCKNAME */
    const char *ccnx_dir;          /* CCNX_DIR: the user's keystore folder */
    const char *home;              /* HOME */
    const char *keystore_password; /* CCNX_KEYSTORE_PASSWORD */
};
void ccnx_env_read(struct ccnx_env *e);

#endif
