/* Strict UTF-8 and the terminal-safety rule (see ccnx/utf8.h). */
#include <ccnx/utf8.h>

int ccnx_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp)
{
    if (n == 0) {
        return 0;
    }
    uint8_t b = p[0];
    size_t len;
    uint32_t v, min;
    if (b < 0x80) {
        *cp = b;
        return 1;
    } else if ((b & 0xE0) == 0xC0) {
        len = 2, v = b & 0x1Fu, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
        len = 3, v = b & 0x0Fu, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
        len = 4, v = b & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            return 0;
        }
        v = (v << 6) | (p[i] & 0x3Fu);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are not text. */
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        return 0;
    }
    *cp = v;
    return (int)len;
}

int ccnx_utf8_append(struct ccnx_buf *out, uint32_t cp)
{
    uint8_t b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp, n = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xC0 | (cp >> 6)), n = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12)), n = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (cp >> 18)), n = 4;
    }
    for (size_t i = 1; i < n; i++) {
        b[i] = (uint8_t)(0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3F));
    }
    return ccnx_buf_append(out, b, n);
}

int ccnx_utf8_valid(const uint8_t *p, size_t n)
{
    uint32_t cp;
    for (size_t i = 0; i < n;) {
        int k = ccnx_utf8_decode(p + i, n - i, &cp);
        if (k == 0) {
            return 0;
        }
        i += (size_t)k;
    }
    return 1;
}

struct cp_range {
    uint32_t first, last;
};

static int in_ranges(const struct cp_range *r, size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < r[mid].first) {
            hi = mid;
        } else if (cp > r[mid].last) {
            lo = mid + 1;
        } else {
            return 1;
        }
    }
    return 0;
}

/* Controls (Cc) and every format character (Cf, Unicode 15.1): the soft
 * hyphen, Arabic and Syriac number signs, the zero-width space, joiners
 * and marks, the bidirectional controls, word joiner and invisible
 * operators, the byte-order mark, interlinear annotation, the shorthand,
 * musical and Egyptian format controls and the tag characters. Sorted. */
static const struct cp_range unsafe_ranges[] = {
    {0x0000, 0x001F},   {0x007F, 0x009F},   {0x00AD, 0x00AD},   {0x0600, 0x0605},
    {0x061C, 0x061C},   {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},
    {0x08E2, 0x08E2},   {0x180E, 0x180E},   {0x200B, 0x200F},   {0x202A, 0x202E},
    {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},
    {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
    {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
};

/* Characters that show as nothing, or change the one before without a
 * mark of their own: harmless in running text (an emoji's presentation
 * selector), but in a name they make two names that read the same. */
static const struct cp_range name_unsafe_ranges[] = {
    {0x034F, 0x034F}, {0x115F, 0x1160}, {0x17B4, 0x17B5}, {0x180B, 0x180D},   {0x180F, 0x180F},
    {0x3164, 0x3164}, {0xFE00, 0xFE0F}, {0xFFA0, 0xFFA0}, {0xE0100, 0xE01EF},
};

#define NRANGES(a) (sizeof(a) / sizeof((a)[0]))

int ccnx_utf8_unsafe(uint32_t cp)
{
    return in_ranges(unsafe_ranges, NRANGES(unsafe_ranges), cp);
}

int ccnx_utf8_unsafe_in_name(uint32_t cp)
{
    return ccnx_utf8_unsafe(cp) || in_ranges(name_unsafe_ranges, NRANGES(name_unsafe_ranges), cp);
}
