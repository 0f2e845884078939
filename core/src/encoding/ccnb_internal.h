/* What the encoding layer shares with the layers above it inside libccnx:
 * the DTAG table and the fast header writers. Not installed. */
#ifndef CCNX_CCNB_INTERNAL_H
#define CCNX_CCNB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>

/* Generated from core/dtag.csv, sorted by number. */
extern const struct ccnx_dtag_entry ccnx_dtag_table[CCNX_DTAG_COUNT];

/* Fast path for the one-byte DTAG headers of common elements (numbers < 16). */
#define CCNX_DTAG_BYTE(n) ((uint8_t)(0x80 | ((n) << 3) | 2))

/* Longest ccnb header: 64-bit number, 7 bits a byte after the first 4. */
#define CCNX_CCNB_MAX_HEADER 10

/* Writes the header for (numval, tt) at dst (room for CCNX_CCNB_MAX_HEADER
 * bytes) and returns its length: for builders that reserve space once. */
size_t ccnx_ccnb_put_header(uint8_t *dst, uint64_t numval, enum ccnx_tt tt);

#endif
