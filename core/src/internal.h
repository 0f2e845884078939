/* Private helpers shared inside libccnx. Not installed. */
#ifndef CCNX_INTERNAL_H
#define CCNX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/dtag.h>
#include <ccnx/error.h>

/* Generated from core/dtag.csv, sorted by number. */
extern const struct ccnx_dtag_entry ccnx_dtag_table[CCNX_DTAG_COUNT];

/* Fast path for the one-byte DTAG headers of common elements (numbers < 16). */
#define CCNX_DTAG_BYTE(n) ((uint8_t)(0x80 | ((n) << 3) | 2))

#endif
