/* ccnsrc's model: rebuilds the buffers ccnsink received from the data
 * stream and the metadata stream (streammeta.h), both delivered in segment
 * order from the same first segment. No GStreamer types. */
#ifndef CCNGST_STREAMREADER_H
#define CCNGST_STREAMREADER_H

#include "streammeta.h"

#include <stddef.h>
#include <stdint.h>

struct ccngst_reader;

struct ccngst_reader *ccngst_reader_new(void);
void ccngst_reader_free(struct ccngst_reader *r);

/* Data segment bytes, in order. 0 or CCNX_E_NOMEM. */
int ccngst_reader_data(struct ccngst_reader *r, const uint8_t *p, size_t n);
/* A meta segment, in order. 0, or CCNX_E_VALUE when it does not parse or
 * does not follow the previous one (segment numbers, offsets), with a
 * sentence in err. */
int ccngst_reader_meta(struct ccngst_reader *r, const uint8_t *p, size_t n, char *err, size_t room);

struct ccngst_out {
    const uint8_t *data; /* valid until the next call */
    size_t size;
    struct ccngst_buf_rec rec;
    const char *caps; /* new caps before this buffer (terminated), else NULL */
};
/* 1 with the next whole buffer; 0 when its bytes or its record have not
 * arrived yet. */
int ccngst_reader_next(struct ccngst_reader *r, struct ccngst_out *out);

/* The header of the first meta segment given (NULL before). */
const struct ccngst_seg_info *ccngst_reader_first(const struct ccngst_reader *r);
/* Bytes held (data not yet returned). */
size_t ccngst_reader_buffered(const struct ccngst_reader *r);

#endif
