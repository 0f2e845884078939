/* Naming conventions: functional name components and CCNx timestamps. */
#define _POSIX_C_SOURCE 200809L

#include <ccnx/error.h>
#include <ccnx/naming.h>

#include <openssl/rand.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Timestamps ---- */

/* Keeps ticks within 63 bits so callers may store them signed. */
#define MAX_SECONDS ((INT64_MAX >> 12) - 1)

int ccnx_naming_timestamp_from_timespec(const struct timespec *ts, uint64_t *ticks)
{
    if (ts == NULL || ticks == NULL || ts->tv_sec < 0 || (int64_t)ts->tv_sec > MAX_SECONDS ||
        ts->tv_nsec < 0 || ts->tv_nsec > 999999999L) {
        return CCNX_E_VALUE;
    }
    /* The reference's rounding: nanoseconds * 4096 / 1e9 to the nearest tick,
     * computed as (ns / 5 * 8 + 390625 / 2) / 390625. A result of 4096 simply
     * carries into the seconds. */
    uint64_t ns = (uint64_t)ts->tv_nsec;
    uint64_t frac = (ns / 5 * 8 + 195312) / 390625;
    *ticks = ((uint64_t)ts->tv_sec << 12) + frac;
    return 0;
}

void ccnx_naming_timestamp_to_timespec(uint64_t ticks, struct timespec *ts)
{
    uint64_t frac = ticks & (CCNX_TIMESTAMP_HZ - 1);
    ts->tv_sec = (time_t)(ticks >> 12);
    ts->tv_nsec = (long)((frac * 1000000000u + CCNX_TIMESTAMP_HZ / 2) >> 12);
}

int ccnx_naming_timestamp_now(uint64_t *ticks)
{
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) != 0) {
        return CCNX_E_IO;
    }
    return ccnx_naming_timestamp_from_timespec(&now, ticks);
}

double ccnx_naming_timestamp_to_seconds(uint64_t ticks)
{
    return (double)ticks / CCNX_TIMESTAMP_HZ;
}

int ccnx_naming_timestamp_from_seconds(double seconds, uint64_t *ticks)
{
    /* Written so that NaN fails the test too. */
    if (ticks == NULL || !(seconds >= 0.0 && seconds <= (double)MAX_SECONDS)) {
        return CCNX_E_VALUE;
    }
    *ticks = (uint64_t)(seconds * CCNX_TIMESTAMP_HZ + 0.5);
    return 0;
}

int ccnx_naming_timestamp_encode(uint64_t ticks, uint8_t out[CCNX_TIMESTAMP_MAX_LEN])
{
    if ((ticks >> (8 * CCNX_TIMESTAMP_MAX_LEN)) != 0) {
        return CCNX_E_VALUE;
    }
    int n = 2;
    while (n < CCNX_TIMESTAMP_MAX_LEN && (ticks >> (8 * n)) != 0) {
        n++;
    }
    for (int i = 0; i < n; i++) {
        out[i] = (uint8_t)(ticks >> (8 * (n - 1 - i)));
    }
    return n;
}

static uint64_t big_endian(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        v = v << 8 | p[i];
    }
    return v;
}

int ccnx_naming_timestamp_decode(const uint8_t *p, size_t n, uint64_t *ticks)
{
    if (p == NULL || n < 1 || n > 8) {
        return CCNX_E_VALUE;
    }
    *ticks = big_endian(p, n);
    return 0;
}

/* ---- Versions ---- */

int ccnx_naming_version_build(uint64_t ticks, uint8_t out[CCNX_VERSION_MAX_LEN])
{
    if (ticks < CCNX_TIMESTAMP_HZ) {
        return CCNX_E_VALUE;
    }
    int n = ccnx_naming_timestamp_encode(ticks, out + 1);
    if (n < 0) {
        return n;
    }
    out[0] = CCNX_MARKER_VERSION;
    return n + 1;
}

int ccnx_naming_is_version(const uint8_t *p, size_t n)
{
    return p != NULL && n >= 3 && n <= CCNX_VERSION_MAX_LEN && p[0] == CCNX_MARKER_VERSION;
}

int ccnx_naming_version_decode(const uint8_t *p, size_t n, uint64_t *ticks)
{
    if (!ccnx_naming_is_version(p, n)) {
        return CCNX_E_VALUE;
    }
    return ccnx_naming_timestamp_decode(p + 1, n - 1, ticks);
}

int ccnx_naming_append_version(struct ccnx_name *name, const struct timespec *when)
{
    if (name == NULL) {
        return CCNX_E_INVAL;
    }
    uint64_t ticks;
    int res = when != NULL ? ccnx_naming_timestamp_from_timespec(when, &ticks)
                           : ccnx_naming_timestamp_now(&ticks);
    uint8_t comp[CCNX_VERSION_MAX_LEN];
    if (res == 0) {
        res = ccnx_naming_version_build(ticks, comp);
    }
    return res < 0 ? res : ccnx_name_append(name, comp, (size_t)res);
}

int ccnx_naming_find_version_ccnb(const uint8_t *enc, size_t len, struct ccnx_comp *out)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    int found = CCNX_E_NOTFOUND;
    int res = ccnx_name_iter_init(&it, enc, len);
    for (int i = 0; res == 0 && (res = ccnx_name_iter_next(&it, &c)) == 1; i++) {
        if (ccnx_naming_is_version(c.p, c.n)) {
            found = i;
            if (out != NULL) {
                *out = c;
            }
        }
        res = i < CCNX_NAME_MAX_COMPONENTS ? 0 : CCNX_E_TOOBIG;
    }
    return res < 0 ? res : found;
}

/* ---- Numbered components ---- */

int ccnx_naming_numeric_build(uint8_t marker, uint64_t value, uint8_t out[CCNX_NUMERIC_MAX_LEN])
{
    int bytes = 0;
    while (bytes < 8 && (value >> (8 * bytes)) != 0) {
        bytes++;
    }
    out[0] = marker;
    for (int i = 0; i < bytes; i++) {
        out[1 + i] = (uint8_t)(value >> (8 * (bytes - 1 - i)));
    }
    return 1 + bytes;
}

int ccnx_naming_numeric_decode(uint8_t marker, const uint8_t *p, size_t n, uint64_t *value)
{
    if (p == NULL || n < 1 || n > CCNX_NUMERIC_MAX_LEN || p[0] != marker || (n > 1 && p[1] == 0)) {
        return CCNX_E_VALUE;
    }
    if (value != NULL) {
        *value = big_endian(p + 1, n - 1);
    }
    return 0;
}

int ccnx_naming_segment_build(uint64_t segment, uint8_t out[CCNX_NUMERIC_MAX_LEN])
{
    return ccnx_naming_numeric_build(CCNX_MARKER_SEQNUM, segment, out);
}

int ccnx_naming_is_segment(const uint8_t *p, size_t n)
{
    return ccnx_naming_numeric_decode(CCNX_MARKER_SEQNUM, p, n, NULL) == 0;
}

int ccnx_naming_segment_decode(const uint8_t *p, size_t n, uint64_t *segment)
{
    return ccnx_naming_numeric_decode(CCNX_MARKER_SEQNUM, p, n, segment);
}

int ccnx_naming_append_segment(struct ccnx_name *name, uint64_t segment)
{
    if (name == NULL) {
        return CCNX_E_INVAL;
    }
    uint8_t comp[CCNX_NUMERIC_MAX_LEN];
    int n = ccnx_naming_segment_build(segment, comp);
    return ccnx_name_append(name, comp, (size_t)n);
}

/* The last component of an encoded Name: 1, 0 for an empty name, or
 * negative for a malformed one. */
static int last_comp(const uint8_t *enc, size_t len, struct ccnx_comp *last)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    int have = 0;
    int res = ccnx_name_iter_init(&it, enc, len);
    for (int i = 0; res == 0 && (res = ccnx_name_iter_next(&it, &c)) == 1; i++) {
        *last = c;
        have = 1;
        res = i < CCNX_NAME_MAX_COMPONENTS ? 0 : CCNX_E_TOOBIG;
    }
    return res < 0 ? res : have;
}

int ccnx_naming_last_is_segment_ccnb(const uint8_t *enc, size_t len, uint64_t *segment)
{
    struct ccnx_comp last;
    int res = last_comp(enc, len, &last);
    return res <= 0 ? res : ccnx_naming_segment_decode(last.p, last.n, segment) == 0;
}

int ccnx_naming_chunk_decode(const uint8_t *p, size_t n, uint64_t *chunk)
{
    if (p == NULL || n == 0 || n > 20 || (n > 1 && p[0] == '0')) {
        return CCNX_E_VALUE;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)p[i] - '0';
        if (d > 9 || v > (UINT64_MAX - d) / 10) {
            return CCNX_E_VALUE;
        }
        v = v * 10 + d;
    }
    if (chunk != NULL) {
        *chunk = v;
    }
    return 0;
}

int ccnx_naming_last_is_chunk_ccnb(const uint8_t *enc, size_t len, uint64_t *chunk)
{
    struct ccnx_comp last;
    int res = last_comp(enc, len, &last);
    return res <= 0 ? res : ccnx_naming_chunk_decode(last.p, last.n, chunk) == 0;
}

int ccnx_naming_append_chunk(struct ccnx_name *name, uint64_t chunk)
{
    if (name == NULL) {
        return CCNX_E_INVAL;
    }
    char text[24];
    int n = snprintf(text, sizeof text, "%llu", (unsigned long long)chunk);
    return ccnx_name_append(name, text, (size_t)n);
}

/* ---- Commands, key ids, nonces ---- */

int ccnx_naming_is_command(const uint8_t *p, size_t n)
{
    return p != NULL && n >= 2 && p[0] == CCNX_MARKER_CONTROL && p[1] == '.';
}

int ccnx_naming_command_is(const uint8_t *p, size_t n, const char *text)
{
    if (text == NULL || !ccnx_naming_is_command(p, n)) {
        return 0;
    }
    size_t tl = strlen(text);
    return n == tl + 2 && memcmp(p + 2, text, tl) == 0;
}

int ccnx_naming_command_parse(const uint8_t *p, size_t n, struct ccnx_naming_command *out)
{
    if (out == NULL || !ccnx_naming_is_command(p, n)) {
        return CCNX_E_VALUE;
    }
    size_t i = 2;
    while (i < n && p[i] != CCNX_COMMAND_ARG_BINARY && p[i] != CCNX_COMMAND_ARG_CCNB) {
        i++;
    }
    out->text.p = p + 2;
    out->text.n = i - 2;
    if (i == n) {
        out->arg_kind = CCNX_COMMAND_ARG_NONE;
        out->arg.p = p + n;
        out->arg.n = 0;
    } else {
        out->arg_kind = p[i];
        out->arg.p = p + i + 1;
        out->arg.n = n - i - 1;
    }
    return 0;
}

int ccnx_naming_append_command(struct ccnx_name *name, const char *text, const void *arg,
                               size_t arg_len)
{
    if (name == NULL || text == NULL || (arg == NULL && arg_len != 0)) {
        return CCNX_E_INVAL;
    }
    size_t tl = strlen(text);
    size_t extra = arg != NULL ? 1 + arg_len : 0;
    if (tl > SIZE_MAX / 2 || extra > SIZE_MAX / 2) {
        return CCNX_E_NOMEM;
    }
    size_t n = 2 + tl + extra;
    uint8_t small[128];
    uint8_t *comp = n <= sizeof small ? small : malloc(n);
    if (comp == NULL) {
        return CCNX_E_NOMEM;
    }
    comp[0] = CCNX_MARKER_CONTROL;
    comp[1] = '.';
    memcpy(comp + 2, text, tl);
    if (arg != NULL) {
        comp[2 + tl] = CCNX_COMMAND_ARG_BINARY;
        if (arg_len != 0) {
            memcpy(comp + 3 + tl, arg, arg_len);
        }
    }
    int res = ccnx_name_append(name, comp, n);
    if (comp != small) {
        free(comp);
    }
    return res;
}

static const uint8_t keyid_prefix[CCNX_KEYID_PREFIX_LEN] = {
    CCNX_MARKER_CONTROL, '.', 'M', '.', 'K', 0x00};

void ccnx_naming_keyid_build(const uint8_t digest[CCNX_DIGEST_LEN], uint8_t out[CCNX_KEYID_LEN])
{
    memcpy(out, keyid_prefix, sizeof keyid_prefix);
    memcpy(out + sizeof keyid_prefix, digest, CCNX_DIGEST_LEN);
}

int ccnx_naming_is_keyid(const uint8_t *p, size_t n)
{
    return p != NULL && n == CCNX_KEYID_LEN && memcmp(p, keyid_prefix, sizeof keyid_prefix) == 0;
}

int ccnx_naming_keyid_digest(const uint8_t *p, size_t n, const uint8_t **digest)
{
    if (!ccnx_naming_is_keyid(p, n)) {
        return CCNX_E_VALUE;
    }
    *digest = p + sizeof keyid_prefix;
    return 0;
}

int ccnx_naming_append_keyid(struct ccnx_name *name, const uint8_t digest[CCNX_DIGEST_LEN])
{
    if (name == NULL || digest == NULL) {
        return CCNX_E_INVAL;
    }
    uint8_t comp[CCNX_KEYID_LEN];
    ccnx_naming_keyid_build(digest, comp);
    return ccnx_name_append(name, comp, sizeof comp);
}

int ccnx_naming_append_nonce(struct ccnx_name *name)
{
    uint8_t nonce[11];
    if (RAND_bytes(nonce, (int)sizeof nonce) != 1) {
        return CCNX_E_CRYPTO;
    }
    return ccnx_naming_append_command(name, "N", nonce, sizeof nonce);
}
