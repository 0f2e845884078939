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

#endif
