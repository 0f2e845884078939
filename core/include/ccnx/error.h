/* Error codes shared by every libccnx module.
 *
 * Functions return 0 (or a count) on success and a negative CCNX_E* code on
 * failure; a function that makes an object returns the code and hands the
 * object back through its last argument (`struct ccnx_x **out`). The few
 * that return a pointer (lookups, accessors) return NULL for "none", which
 * is not an error. ccnx_strerror() names the reason.
 */
#ifndef CCNX_ERROR_H
#define CCNX_ERROR_H

#include <ccnx/api.h>

CCNX_API_BEGIN

enum ccnx_error {
    CCNX_OK = 0,
    CCNX_E_NOMEM = -1,        /* allocation failed or a size would overflow */
    CCNX_E_INVAL = -2,        /* caller passed an invalid argument */
    CCNX_E_TRUNCATED = -3,    /* input ends inside an element */
    CCNX_E_BADTT = -4,        /* a ccnb header has a type we do not accept here */
    CCNX_E_NUMVAL = -5,       /* a ccnb header number is too large */
    CCNX_E_TOODEEP = -6,      /* elements nested beyond CCNX_CCNB_MAX_DEPTH */
    CCNX_E_TOOBIG = -7,       /* element larger than the configured bound */
    CCNX_E_STRUCTURE = -8,    /* elements not in the order the schema requires */
    CCNX_E_TRAILING = -9,     /* bytes after the end of a complete element */
    CCNX_E_VALUE = -10,       /* an element's value is out of range */
    CCNX_E_URI = -11,         /* malformed ccnx: URI */
    CCNX_E_NOTFOUND = -12,    /* no such component, key, file or entry */
    CCNX_E_CRYPTO = -13,      /* the crypto library reported a failure */
    CCNX_E_BADSIG = -14,      /* signature does not verify */
    CCNX_E_NOKEY = -15,       /* no key available to verify or sign */
    CCNX_E_IO = -16,          /* system call failed (see errno) */
    CCNX_E_UNSUPPORTED = -17, /* valid but not supported (e.g. digest algorithm) */
    CCNX_E_XML = -18,         /* malformed XML text */
    CCNX_E_KEYSTORE = -19,    /* keystore unreadable or wrong password */
    CCNX_E_KEYNOTFOUND = -20, /* the key an object names could not be fetched */
    CCNX_E_REFUSED = -21,     /* the other side answered that it will not do it */
};

/* A short English description of a CCNX_E* code; never NULL. */
const char *ccnx_strerror(int code);

CCNX_API_END

#endif
