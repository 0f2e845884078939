/* The metadata that travels beside a ccnsink stream, so that ccnsrc can
 * give back the buffers ccnsink received: their boundaries, timestamps and
 * flags, the caps in force, and where a viewer may join.
 *
 * The data is a plain segmented stream <location>/<version>/%00<n>. Beside
 * it, <location>/<version>/%C1.META/gst/<version>/%00<n> is a second
 * stream in which segment n describes data segment n, so a viewer that
 * starts at data segment n reads meta segment n and nothing before it.
 * A meta segment is UTF-8 text, one record a line:
 *
 *   ccngst 1 <segment> <offset> <key-segment> <key-pts> <live>
 *   C <caps>                                   (segments that start a keyframe)
 *   B <offset> <size> <pts> <dts> <duration> <flags>     (each buffer starting here)
 *
 * Numbers are decimal; offsets count bytes from the start of the stream;
 * times are nanoseconds or -1 for none; flags are GstBufferFlags in hex.
 * <key-segment> is the newest data segment at or before this one that
 * starts with a keyframe (and so with the caps line), and <key-pts> that
 * keyframe's PTS: a viewer joins there, and a seek bisects on it.
 * docs/gstreamer.md has the whole format.
 *
 * No GStreamer types here: the codec is shared by the elements, the VLC
 * module, the unit tests and the fuzz target. The parser is total over
 * arbitrary bytes. */
#ifndef CCNGST_STREAMMETA_H
#define CCNGST_STREAMMETA_H

#include <ccnx/buf.h>
#include <ccnx/name.h>

#include <stddef.h>
#include <stdint.h>

#define CCNGST_META_MARKER      "\xC1.META" /* %C1.META */
#define CCNGST_META_NAME        "gst"
#define CCNGST_META_VERSION     1
#define CCNGST_META_MAX_BUFFERS 256         /* records per segment at most */
#define CCNGST_META_MAX_CAPS    (32 * 1024) /* bytes of a caps string at most */
#define CCNGST_META_BLOCK       (64 * 1024) /* meta segment size: one record set each */

struct ccngst_seg_info {
    uint64_t segment;     /* the data segment described */
    uint64_t offset;      /* stream offset of its first byte */
    uint64_t key_segment; /* newest keyframe segment <= segment */
    int64_t key_pts;      /* PTS of that keyframe, -1 unknown */
    int live;             /* 1 when the sender's source was live */
};

struct ccngst_buf_rec {
    uint64_t offset; /* stream offset of the buffer's first byte */
    uint64_t size;
    int64_t pts, dts, duration; /* ns, -1 none */
    uint32_t flags;
};

/* Appending a segment's records: header first, then caps, then buffers.
 * 0 or CCNX_E_NOMEM; caps with a line break or over CCNGST_META_MAX_CAPS
 * give CCNX_E_VALUE. */
int ccngst_meta_put_header(struct ccnx_buf *out, const struct ccngst_seg_info *h);
int ccngst_meta_put_caps(struct ccnx_buf *out, const char *caps);
int ccngst_meta_put_buffer(struct ccnx_buf *out, const struct ccngst_buf_rec *b);

struct ccngst_meta {
    struct ccngst_seg_info h;
    const char *caps; /* into the parsed bytes, not terminated; NULL when absent */
    size_t caps_len;
    size_t count; /* buffers */
    struct ccngst_buf_rec bufs[CCNGST_META_MAX_BUFFERS];
};

/* Parses one meta segment's content. 0, or CCNX_E_VALUE for anything but
 * the format above: unknown version, a record out of order (buffers must
 * start in this segment or later, ascending), numbers out of range, more
 * than CCNGST_META_MAX_BUFFERS buffers, a key segment after the segment. */
int ccngst_meta_parse(const uint8_t *p, size_t n, struct ccngst_meta *m);

/* <location>/<version>/%C1.META/gst/<version>: the meta stream's name for a
 * versioned data name (its last component must be a version). */
int ccngst_meta_name(const struct ccnx_name *versioned, struct ccnx_name *out);

#endif
