/* Writes a stream of bytes to a file descriptor on a second thread, so
 * that the write(2) calls (page cache, file system) overlap the caller's
 * own work. The bytes are gathered into FILE_WRITER_BUFFER-sized writes;
 * the caller copies into one buffer while the thread writes the others, and
 * blocks only when every buffer is waiting to be written. One caller thread
 * only. */
#ifndef CCNX_TOOL_FILE_WRITER_H
#define CCNX_TOOL_FILE_WRITER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* ext4 (and the page cache generally) costs several times more per byte in
 * 4 KB writes than in large ones. */
#define FILE_WRITER_BUFFER  (1 << 20)
#define FILE_WRITER_BUFFERS 3

struct file_writer {
    int fd;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t filled;  /* a buffer was handed over, or closing */
    pthread_cond_t emptied; /* the thread finished writing a buffer */
    uint8_t *buf[FILE_WRITER_BUFFERS];
    size_t len[FILE_WRITER_BUFFERS]; /* owned by whoever owns the buffer */
    /* Under mu: */
    unsigned head;   /* the next buffer the thread writes */
    unsigned queued; /* buffers handed over and not yet written */
    int closing;
    int thread_errno; /* the first failed write; later buffers are dropped */
    /* The caller's own: */
    unsigned fill; /* the buffer being filled */
    int error;     /* thread_errno as last seen */
};

/* Allocates the buffers and starts the thread writing to fd, with every
 * signal blocked so that handlers keep running on the calling thread.
 * 0, or an errno value (nothing to finish then). */
int file_writer_start(struct file_writer *w, int fd);
/* Copies p[0..n). 0, or the errno of a failed write (then again on every
 * later call): the caller should stop producing. */
int file_writer_append(struct file_writer *w, const uint8_t *p, size_t n);
/* Writes out everything appended, joins the thread and frees the buffers;
 * does not close fd. 0, or the errno of the first failed write. */
int file_writer_finish(struct file_writer *w);

#endif
