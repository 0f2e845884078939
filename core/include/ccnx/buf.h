/* Growable byte buffers.
 *
 * Appends never fail silently: on allocation failure the buffer keeps its
 * old contents, sets `failed`, and every later append is a no-op returning
 * CCNX_E_NOMEM. Builders can therefore append freely and check once.
 */
#ifndef CCNX_BUF_H
#define CCNX_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

struct ccnx_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    int failed;
};

#define CCNX_BUF_INIT                                                                              \
    {                                                                                              \
        NULL, 0, 0, 0                                                                              \
    }

void ccnx_buf_init(struct ccnx_buf *b);
void ccnx_buf_free(struct ccnx_buf *b);
/* Forget the contents (keeps the allocation, clears `failed`). */
void ccnx_buf_reset(struct ccnx_buf *b);
/* Make room for `extra` more bytes; returns a pointer to the free space or NULL. */
uint8_t *ccnx_buf_reserve(struct ccnx_buf *b, size_t extra);
int ccnx_buf_append(struct ccnx_buf *b, const void *p, size_t n);
int ccnx_buf_append_byte(struct ccnx_buf *b, uint8_t c);
int ccnx_buf_append_str(struct ccnx_buf *b, const char *s);
int ccnx_buf_printf(struct ccnx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ccnx_buf_vprintf(struct ccnx_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* NUL-terminate without counting the NUL in len; returns the data as a string or NULL. */
const char *ccnx_buf_cstr(struct ccnx_buf *b);
/* 0 when every append so far succeeded, else CCNX_E_NOMEM. */
int ccnx_buf_status(const struct ccnx_buf *b);

/* Read a whole file ("-" is standard input) into b; CCNX_E_IO with errno set on failure. */
int ccnx_buf_read_file(struct ccnx_buf *b, const char *path);

CCNX_API_END

#endif
