/* The ccnb DTAG dictionary (element names <-> numbers).
 * The enum is generated from core/dtag.csv into <ccnx/dtag_values.h>. */
#ifndef CCNX_DTAG_H
#define CCNX_DTAG_H

#include <stddef.h>
#include <stdint.h>
#include <ccnx/dtag_values.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

struct ccnx_dtag_entry {
    uint32_t number;
    const char *name;
};

/* Element name for a DTAG number, or NULL when the dictionary has none. */
const char *ccnx_dtag_name(uint64_t number);
/* DTAG number for an element name, or -1 when the dictionary has none. */
int64_t ccnx_dtag_lookup(const char *name, size_t len);

/* A dictionary that extends the built-in one (the tools' -d option). */
struct ccnx_dtag_dict;
struct ccnx_dtag_dict *ccnx_dtag_dict_create(void);
void ccnx_dtag_dict_destroy(struct ccnx_dtag_dict *d);
/* Adds "number,Name[,...]" lines from a csv file; returns 0 or a CCNX_E* code
 * (line number of the first bad line in *bad_line when not NULL). */
int ccnx_dtag_dict_load(struct ccnx_dtag_dict *d, const char *path, int *bad_line);
/* Same lookups, trying the extension first, then the built-in table. d may be NULL. */
const char *ccnx_dtag_dict_name(const struct ccnx_dtag_dict *d, uint64_t number);
int64_t ccnx_dtag_dict_lookup(const struct ccnx_dtag_dict *d, const char *name, size_t len);

CCNX_API_END

#endif
