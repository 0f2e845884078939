/* Flat, memcmp-ordered name keys (see namekey.h). */
#include <ccnx/namekey.h>

#include <ccnx/error.h>
#include <ccnx/name.h>

#include <string.h>

size_t ccnx_namekey_put_comp(uint8_t *out, const uint8_t *p, size_t n)
{
    size_t h;
    if (n < 0xFE) {
        out[0] = (uint8_t)n;
        h = 1;
    } else if (n <= 0xFFFF) {
        out[0] = 0xFE;
        out[1] = (uint8_t)(n >> 8);
        out[2] = (uint8_t)n;
        h = 3;
    } else {
        out[0] = 0xFF;
        out[1] = (uint8_t)(n >> 24);
        out[2] = (uint8_t)(n >> 16);
        out[3] = (uint8_t)(n >> 8);
        out[4] = (uint8_t)n;
        h = 5;
    }
    if (n > 0) {
        memcpy(out + h, p, n);
    }
    return h + n;
}

int ccnx_namekey_from_name(const uint8_t *name, size_t len, uint8_t *out, size_t *keylen,
                           uint32_t *ncomps)
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    size_t pos = 0;
    uint32_t count = 0;
    int r;
    if (ccnx_name_iter_init(&it, name, len) < 0) {
        return CCNX_E_INVAL;
    }
    while ((r = ccnx_name_iter_next(&it, &c)) == 1) {
        pos += ccnx_namekey_put_comp(out + pos, c.p, c.n);
        count++;
    }
    if (r < 0) {
        return CCNX_E_INVAL;
    }
    *keylen = pos;
    if (ncomps != NULL) {
        *ncomps = count;
    }
    return 0;
}

int ccnx_namekey_next_comp(const uint8_t *key, size_t len, size_t *pos, size_t *n)
{
    size_t at = *pos;
    if (at >= len) {
        return 0;
    }
    size_t h = key[at] < 0xFE ? 1 : (key[at] == 0xFE ? 3 : 5);
    if (h > len - at) {
        return CCNX_E_INVAL;
    }
    size_t v = key[at] < 0xFE ? key[at] : 0;
    for (size_t i = 1; i < h; i++) {
        v = v << 8 | key[at + i];
    }
    if (v > len - at - h) {
        return CCNX_E_INVAL;
    }
    *n = v;
    *pos = at + h + v;
    return 1;
}

int ccnx_namekey_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c != 0) {
        return c;
    }
    return (alen > blen) - (alen < blen);
}

int ccnx_namekey_subtree_compare(const uint8_t *a, size_t alen, const uint8_t *p, size_t plen)
{
    int c = memcmp(a, p, alen < plen ? alen : plen);
    if (c != 0) {
        return c;
    }
    return alen >= plen ? 0 : -1;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h;
}

uint64_t ccnx_namekey_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = mix(h ^ w) + 0x2545F4914F6CDD1Dull;
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    return mix(h ^ w ^ ((uint64_t)n << 56));
}
