/* The writer thread of file_writer.h. */
#include "file_writer.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes p[0..n) whole: 0, or the errno of the failure. */
static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return w < 0 ? errno : EIO;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Writes the buffers in the order they were handed over until closing and
 * none is left. After a failure it keeps taking buffers without writing
 * them, so the caller never waits for a buffer that will not come back. */
static void *writer_main(void *arg)
{
    struct file_writer *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->queued == 0 && !w->closing) {
            pthread_cond_wait(&w->filled, &w->mu);
        }
        if (w->queued == 0) {
            break;
        }
        unsigned i = w->head;
        int failed = w->thread_errno;
        pthread_mutex_unlock(&w->mu);
        int e = failed != 0 ? failed : write_all(w->fd, w->buf[i], w->len[i]);
        pthread_mutex_lock(&w->mu);
        w->thread_errno = e;
        w->head = (i + 1) % FILE_WRITER_BUFFERS;
        w->queued--;
        pthread_cond_signal(&w->emptied);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static void free_buffers(struct file_writer *w)
{
    for (unsigned i = 0; i < FILE_WRITER_BUFFERS; i++) {
        free(w->buf[i]);
        w->buf[i] = NULL;
    }
}

int file_writer_start(struct file_writer *w, int fd)
{
    memset(w, 0, sizeof *w);
    w->fd = fd;
    for (unsigned i = 0; i < FILE_WRITER_BUFFERS; i++) {
        w->buf[i] = malloc(FILE_WRITER_BUFFER);
        if (w->buf[i] == NULL) {
            free_buffers(w);
            return ENOMEM;
        }
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->filled, NULL);
    pthread_cond_init(&w->emptied, NULL);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&w->thread, NULL, writer_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&w->emptied);
        pthread_cond_destroy(&w->filled);
        pthread_mutex_destroy(&w->mu);
        free_buffers(w);
    }
    return rc;
}

/* Gives the full buffer being filled to the thread and takes the next one,
 * waiting while the thread still holds every buffer. */
static void hand_over(struct file_writer *w)
{
    pthread_mutex_lock(&w->mu);
    w->queued++;
    pthread_cond_signal(&w->filled);
    while (w->queued == FILE_WRITER_BUFFERS) {
        pthread_cond_wait(&w->emptied, &w->mu);
    }
    w->error = w->thread_errno;
    pthread_mutex_unlock(&w->mu);
    w->fill = (w->fill + 1) % FILE_WRITER_BUFFERS;
    w->len[w->fill] = 0;
}

int file_writer_append(struct file_writer *w, const uint8_t *p, size_t n)
{
    while (n > 0 && w->error == 0) {
        size_t room = FILE_WRITER_BUFFER - w->len[w->fill];
        size_t k = n < room ? n : room;
        memcpy(w->buf[w->fill] + w->len[w->fill], p, k);
        w->len[w->fill] += k;
        p += k;
        n -= k;
        if (w->len[w->fill] == FILE_WRITER_BUFFER) {
            hand_over(w);
        }
    }
    return w->error;
}

int file_writer_finish(struct file_writer *w)
{
    pthread_mutex_lock(&w->mu);
    if (w->len[w->fill] > 0) {
        w->queued++; /* the last, partial buffer */
    }
    w->closing = 1;
    pthread_cond_signal(&w->filled);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->emptied);
    pthread_cond_destroy(&w->filled);
    pthread_mutex_destroy(&w->mu);
    free_buffers(w);
    return w->thread_errno;
}
