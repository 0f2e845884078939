/* The CCNx naming conventions (NameConventions.txt) and timestamps
 * (Timestamp.txt): versions, segments, command markers, key ids, nonces.
 *
 * Component builders write into a caller's array sized by the *_MAX_LEN
 * constants and return the length; recognisers take a component view and
 * return 1 or 0; decoders return 0 or CCNX_E_VALUE when the component is not
 * of the kind asked for. Helpers named *_ccnb work on an encoded Name element
 * (a struct ccnx_name's enc.data/enc.len will do).
 */
#ifndef CCNX_NAMING_H
#define CCNX_NAMING_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ccnx/name.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* First byte of a functional component (bytes that never start UTF-8 text). */
#define CCNX_MARKER_SEQNUM  0x00 /* consecutive segment numbers */
#define CCNX_MARKER_CONTROL 0xC1 /* commands and markers: %C1.<namespace>... */
#define CCNX_MARKER_OSEQNUM 0xF8 /* deprecated segment numbering */
#define CCNX_MARKER_BLKID   0xFB /* non-consecutive block ids (byte offsets) */
#define CCNX_MARKER_VERSION 0xFD /* timestamp versions */

/* ---- Timestamps: unsigned binary, units of 1/4096 s since the Unix epoch ---- */

#define CCNX_TIMESTAMP_HZ 4096
/* Encoded timestamps take 2 to 7 bytes (the reference never writes fewer than
 * two, and 7 bytes last for millions of years). */
#define CCNX_TIMESTAMP_MAX_LEN 7

/* ts -> ticks, rounded to the nearest tick as the reference does.
 * CCNX_E_VALUE for a negative time, tv_nsec outside [0, 1e9) or overflow. */
int ccnx_naming_timestamp_from_timespec(const struct timespec *ts, uint64_t *ticks);
/* ticks -> ts, tv_nsec rounded to the nearest nanosecond. */
void ccnx_naming_timestamp_to_timespec(uint64_t ticks, struct timespec *ts);
/* The current time (CLOCK_REALTIME) in ticks. CCNX_E_IO if the clock fails. */
int ccnx_naming_timestamp_now(uint64_t *ticks);
double ccnx_naming_timestamp_to_seconds(uint64_t ticks);
/* CCNX_E_VALUE for negative, NaN or too large values. */
int ccnx_naming_timestamp_from_seconds(double seconds, uint64_t *ticks);
/* Minimal big-endian form, at least 2 bytes; returns the length, or
 * CCNX_E_VALUE when ticks needs more than CCNX_TIMESTAMP_MAX_LEN bytes. */
int ccnx_naming_timestamp_encode(uint64_t ticks, uint8_t out[CCNX_TIMESTAMP_MAX_LEN]);
/* Big-endian value of 1 to 8 bytes; CCNX_E_VALUE otherwise. */
int ccnx_naming_timestamp_decode(const uint8_t *p, size_t n, uint64_t *ticks);

/* ---- Versions: %FD + timestamp ---- */

#define CCNX_VERSION_MAX_LEN (1 + CCNX_TIMESTAMP_MAX_LEN)

/* Version component for a time; returns its length. Times before
 * 1970-01-01T00:00:01Z are refused (CCNX_E_VALUE), as in the reference. */
int ccnx_naming_version_build(uint64_t ticks, uint8_t out[CCNX_VERSION_MAX_LEN]);
/* 1 for %FD followed by 2 to 7 timestamp bytes (the reference's test). */
int ccnx_naming_is_version(const uint8_t *p, size_t n);
int ccnx_naming_version_decode(const uint8_t *p, size_t n, uint64_t *ticks);
/* Appends a version for `when`, or for now when `when` is NULL. */
int ccnx_naming_append_version(struct ccnx_name *name, const struct timespec *when);
/* Index of the rightmost version component of an encoded Name, with the
 * component in *out when not NULL; CCNX_E_NOTFOUND when there is none,
 * another negative code for a malformed Name. The rightmost is chosen because
 * versions may nest and the innermost is the one that names the content. */
int ccnx_naming_find_version_ccnb(const uint8_t *enc, size_t len, struct ccnx_comp *out);

/* ---- Numbered components: marker + minimal big-endian number ---- */

#define CCNX_NUMERIC_MAX_LEN 9 /* marker + 8 bytes */

/* marker + value with no leading zero bytes (value 0 is the marker alone);
 * returns the length. */
int ccnx_naming_numeric_build(uint8_t marker, uint64_t value, uint8_t out[CCNX_NUMERIC_MAX_LEN]);
/* Decodes a component built by ccnx_naming_numeric_build with `marker`. Only
 * the minimal encoding is accepted, so each number has exactly one component
 * (%00%00... stays unused, as the conventions say). */
int ccnx_naming_numeric_decode(uint8_t marker, const uint8_t *p, size_t n, uint64_t *value);

/* Segments: %00 + number; segment 0 is %00, segment 1 is %00%01. */
int ccnx_naming_segment_build(uint64_t segment, uint8_t out[CCNX_NUMERIC_MAX_LEN]);
int ccnx_naming_is_segment(const uint8_t *p, size_t n);
int ccnx_naming_segment_decode(const uint8_t *p, size_t n, uint64_t *segment);
int ccnx_naming_append_segment(struct ccnx_name *name, uint64_t segment);
/* 1 (and *segment when not NULL) if the last component of the encoded Name is
 * a segment, 0 if not (or the name is empty), negative for a malformed Name. */
int ccnx_naming_last_is_segment_ccnb(const uint8_t *enc, size_t len, uint64_t *segment);

/* Chunks: the reference's older segmenter (ccnsendchunks) names segments by
 * their number in decimal text ("0", "1", ... with no leading zero and no
 * version) and writes the final one's text in FinalBlockID. */
int ccnx_naming_chunk_decode(const uint8_t *p, size_t n, uint64_t *chunk);
int ccnx_naming_append_chunk(struct ccnx_name *name, uint64_t chunk);
/* As ccnx_naming_last_is_segment_ccnb, for a chunk number. */
int ccnx_naming_last_is_chunk_ccnb(const uint8_t *enc, size_t len, uint64_t *chunk);

/* ---- Commands and markers: %C1.<namespace>.<operation>[~arg..][binary] ---- */

/* What follows the text of a command: a general binary argument is prefixed
 * by 0x00, a ccnb-encoded one by 0xC1. */
#define CCNX_COMMAND_ARG_NONE   (-1)
#define CCNX_COMMAND_ARG_BINARY 0x00
#define CCNX_COMMAND_ARG_CCNB   0xC1

struct ccnx_naming_command {
    struct ccnx_comp text; /* e.g. "R.sw", "M.S.localhost", "M.K" */
    int arg_kind;          /* CCNX_COMMAND_ARG_* */
    struct ccnx_comp arg;  /* bytes after the prefix byte (empty when none) */
};

/* 1 if the component starts with %C1 and '.'. */
int ccnx_naming_is_command(const uint8_t *p, size_t n);
/* 1 if the component is exactly %C1.<text>, e.g. text "E.be". */
int ccnx_naming_command_is(const uint8_t *p, size_t n, const char *text);
/* Splits a command component at its first 0x00 or 0xC1 byte after the
 * marker (bytes UTF-8 text never holds). CCNX_E_VALUE if not a command. */
int ccnx_naming_command_parse(const uint8_t *p, size_t n, struct ccnx_naming_command *out);
/* Appends the component %C1.<text>, followed by 0x00 and arg[0..arg_len)
 * when arg is not NULL: e.g. ("R.sw", NULL, 0) or ("N", nonce, 11). */
int ccnx_naming_append_command(struct ccnx_name *name, const char *text, const void *arg,
                               size_t arg_len);

/* Key ids: %C1.M.K%00 + the 32-byte SHA-256 of the key (a publisher digest). */
#define CCNX_KEYID_PREFIX_LEN 6
#define CCNX_KEYID_LEN        (CCNX_KEYID_PREFIX_LEN + CCNX_DIGEST_LEN)

void ccnx_naming_keyid_build(const uint8_t digest[CCNX_DIGEST_LEN], uint8_t out[CCNX_KEYID_LEN]);
int ccnx_naming_is_keyid(const uint8_t *p, size_t n);
/* Points *digest at the 32 digest bytes inside the component. */
int ccnx_naming_keyid_digest(const uint8_t *p, size_t n, const uint8_t **digest);
int ccnx_naming_append_keyid(struct ccnx_name *name, const uint8_t digest[CCNX_DIGEST_LEN]);

/* Appends a nonce component %C1.N%00 + 11 random bytes (the reference's
 * size), as repository write requests carry. CCNX_E_CRYPTO if no randomness. */
int ccnx_naming_append_nonce(struct ccnx_name *name);

CCNX_API_END

#endif
