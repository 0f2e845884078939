#include <ccnx/buf.h>
#include <ccnx/error.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ccnx_buf_init(struct ccnx_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->failed = 0;
}

void ccnx_buf_free(struct ccnx_buf *b)
{
    free(b->data);
    ccnx_buf_init(b);
}

void ccnx_buf_reset(struct ccnx_buf *b)
{
    b->len = 0;
    b->failed = 0;
}

uint8_t *ccnx_buf_reserve(struct ccnx_buf *b, size_t extra)
{
    if (b->failed) {
        return NULL;
    }
    /* +1 keeps room for the terminator ccnx_buf_cstr may add. */
    if (extra >= SIZE_MAX / 2 - b->len) {
        b->failed = 1;
        return NULL;
    }
    size_t need = b->len + extra + 1;
    if (need > b->cap) {
        size_t cap = b->cap < 64 ? 64 : b->cap;
        while (cap < need) {
            cap *= 2;
        }
        uint8_t *p = realloc(b->data, cap);
        if (p == NULL) {
            b->failed = 1;
            return NULL;
        }
        b->data = p;
        b->cap = cap;
    }
    return b->data + b->len;
}

int ccnx_buf_append(struct ccnx_buf *b, const void *p, size_t n)
{
    uint8_t *dst = ccnx_buf_reserve(b, n);
    if (dst == NULL) {
        return CCNX_E_NOMEM;
    }
    if (n > 0) {
        memcpy(dst, p, n);
    }
    b->len += n;
    return 0;
}

int ccnx_buf_append_byte(struct ccnx_buf *b, uint8_t c)
{
    if (b->len + 1 < b->cap && !b->failed) {
        b->data[b->len++] = c;
        return 0;
    }
    return ccnx_buf_append(b, &c, 1);
}

int ccnx_buf_append_str(struct ccnx_buf *b, const char *s)
{
    return ccnx_buf_append(b, s, strlen(s));
}

int ccnx_buf_vprintf(struct ccnx_buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0) {
        return CCNX_E_INVAL;
    }
    uint8_t *dst = ccnx_buf_reserve(b, (size_t)n + 1);
    if (dst == NULL) {
        return CCNX_E_NOMEM;
    }
    vsnprintf((char *)dst, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int ccnx_buf_printf(struct ccnx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int res = ccnx_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return res;
}

const char *ccnx_buf_cstr(struct ccnx_buf *b)
{
    if (ccnx_buf_reserve(b, 1) == NULL) {
        return NULL;
    }
    b->data[b->len] = '\0';
    return (const char *)b->data;
}

int ccnx_buf_status(const struct ccnx_buf *b)
{
    return b->failed ? CCNX_E_NOMEM : 0;
}

int ccnx_buf_read_file(struct ccnx_buf *b, const char *path)
{
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return CCNX_E_IO;
    }
    int res = 0;
    for (;;) {
        uint8_t *dst = ccnx_buf_reserve(b, 65536);
        if (dst == NULL) {
            res = CCNX_E_NOMEM;
            break;
        }
        ssize_t got = read(fd, dst, 65536);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            res = CCNX_E_IO;
            break;
        }
        if (got == 0) {
            break;
        }
        b->len += (size_t)got;
    }
    if (fd != STDIN_FILENO) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return res;
}
