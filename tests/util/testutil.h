/* Helpers shared by the unit tests: vector files and cmocka includes. */
#ifndef CCNX_TESTUTIL_H
#define CCNX_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ccnx/buf.h>

/* Folder of the reference vectors (env CCNX_VECTORS overrides the build-time path). */
const char *tu_vectors_dir(void);
/* Reads vectors/<name> into b (fails the test if missing). */
void tu_read_vector(const char *name, struct ccnx_buf *b);
/* Reads tests/data/<name> into b (fails the test if missing). */
void tu_read_data(const char *name, struct ccnx_buf *b);
/* Sorted list of vector file names ending in `suffix`; free with tu_free_list. */
char **tu_list_vectors(const char *suffix, size_t *count);
void tu_free_list(char **list, size_t count);
/* Parses a hex string (whitespace ignored) into b. */
void tu_hex(const char *hex, struct ccnx_buf *b);
/* Removes dir/names[0..n) in order (files, then the folders they emptied),
 * then dir itself: 0, or -1 when any could not be removed (so a test also
 * learns of files it did not expect). */
int tu_remove_files(const char *dir, const char *const *names, size_t n);

/* Exclude items for ccnx_interest_params: a component given as a string
 * literal, and Any. */
#define COMP(s)                                                                                    \
    {                                                                                              \
        CCNX_EXCLUDE_COMPONENT, (const uint8_t *)(s), sizeof(s) - 1                                \
    }
#define ANY                                                                                        \
    {                                                                                              \
        CCNX_EXCLUDE_ANY, NULL, 0                                                                  \
    }

#endif
