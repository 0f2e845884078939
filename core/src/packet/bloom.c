/* Exclude Bloom filters, bit-compatible with other CCNx 0.x implementations. */
#include <ccnx/bloom.h>
#include <ccnx/error.h>

#include <string.h>

enum { OFF_LG_BITS = 0, OFF_N_HASH = 1, OFF_METHOD = 2, OFF_RESERVED = 3, OFF_SEED = 4 };

/* The hash family is a 31-bit feedback shift register (x^31 + x^13 + 1),
 * advanced 13 bits per step with the input added in; interoperating nodes
 * must agree on every detail, including the +1 applied to key bytes so that
 * a zero byte still perturbs the state. */
static uint32_t hash_step(uint32_t s, uint32_t u)
{
    uint32_t b = s & 0x1FFFu;
    s = ((s >> 13) ^ (b << 18) ^ b) + u;
    return s & 0x7FFFFFFFu;
}

static uint32_t hash_start(const uint8_t *wire, const uint8_t *key, size_t n)
{
    const uint8_t *seed = wire + OFF_SEED;
    uint32_t s =
        ((uint32_t)seed[0] << 24) | ((uint32_t)seed[1] << 16) | ((uint32_t)seed[2] << 8) | seed[3];
    s &= 0x7FFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        s = hash_step(s, (uint32_t)key[i] + 1);
    }
    return s;
}

static size_t wire_len_for(unsigned lg_bits)
{
    return CCNX_BLOOM_HEADER_LEN + ((size_t)1 << (lg_bits - 3));
}

int ccnx_bloom_validate(const uint8_t *wire, size_t n)
{
    if (wire == NULL) {
        return CCNX_E_INVAL;
    }
    if (n < CCNX_BLOOM_HEADER_LEN + 1) {
        return CCNX_E_VALUE;
    }
    unsigned lg = wire[OFF_LG_BITS];
    unsigned nh = wire[OFF_N_HASH];
    if (lg < CCNX_BLOOM_MIN_LG_BITS || lg > CCNX_BLOOM_MAX_LG_BITS || nh < 1 ||
        nh > CCNX_BLOOM_MAX_HASH || wire[OFF_METHOD] != CCNX_BLOOM_METHOD ||
        wire[OFF_RESERVED] != 0 || n != wire_len_for(lg)) {
        return CCNX_E_VALUE;
    }
    return 0;
}

/* Caller has validated the wire form. */
static int test_valid(const uint8_t *wire, const void *key, size_t klen)
{
    uint32_t mask = ((uint32_t)1 << wire[OFF_LG_BITS]) - 1;
    const uint8_t *bits = wire + CCNX_BLOOM_HEADER_LEN;
    uint32_t s = hash_start(wire, key, klen);
    for (unsigned i = 0; i < wire[OFF_N_HASH]; i++) {
        s = hash_step(s, 0);
        uint32_t h = s & mask;
        if ((bits[h >> 3] & (1u << (h & 7))) == 0) {
            return 0;
        }
    }
    return 1;
}

int ccnx_bloom_wire_test(const uint8_t *wire, size_t n, const void *key, size_t klen)
{
    int res = ccnx_bloom_validate(wire, n);
    if (res != 0) {
        return res;
    }
    if (key == NULL && klen != 0) {
        return CCNX_E_INVAL;
    }
    return test_valid(wire, key, klen);
}

int ccnx_bloom_init_params(struct ccnx_bloom *b, unsigned lg_bits, unsigned n_hash,
                           const uint8_t seed[4])
{
    if (b == NULL || seed == NULL || lg_bits < CCNX_BLOOM_MIN_LG_BITS ||
        lg_bits > CCNX_BLOOM_MAX_LG_BITS || n_hash < 1 || n_hash > CCNX_BLOOM_MAX_HASH) {
        return CCNX_E_INVAL;
    }
    memset(b, 0, sizeof *b);
    b->wire[OFF_LG_BITS] = (uint8_t)lg_bits;
    b->wire[OFF_N_HASH] = (uint8_t)n_hash;
    b->wire[OFF_METHOD] = CCNX_BLOOM_METHOD;
    memcpy(b->wire + OFF_SEED, seed, 4);
    b->wire_len = wire_len_for(lg_bits);
    return 0;
}

int ccnx_bloom_init(struct ccnx_bloom *b, unsigned long estimated_members, const uint8_t seed[4])
{
    /* The same sizing as the reference library, so filters built here look
     * like the ones peers build: about 12 bits per expected member, and
     * ln(2) * bits / members hash functions (ln 2 ~ 9/13). */
    uint64_t n = estimated_members;
    if (n > (1u << 20)) {
        n = 1u << 20; /* same geometry as any count this large, and no overflow below */
    }
    unsigned lg = CCNX_BLOOM_MAX_LG_BITS;
    while (lg > CCNX_BLOOM_MIN_LG_BITS && ((uint64_t)1 << lg) > n * 12) {
        lg--;
    }
    uint64_t nh = ((uint64_t)9 << lg) / (13 * n + 1);
    if (nh < 2) {
        nh = 2;
    }
    if (nh > CCNX_BLOOM_MAX_HASH) {
        nh = CCNX_BLOOM_MAX_HASH;
    }
    return ccnx_bloom_init_params(b, lg, (unsigned)nh, seed);
}

int ccnx_bloom_decode(struct ccnx_bloom *b, const uint8_t *wire, size_t n)
{
    if (b == NULL) {
        return CCNX_E_INVAL;
    }
    int res = ccnx_bloom_validate(wire, n);
    if (res != 0) {
        return res;
    }
    memset(b, 0, sizeof *b);
    memcpy(b->wire, wire, n);
    b->wire_len = n;
    b->members = 1ul << wire[OFF_LG_BITS];
    return 0;
}

int ccnx_bloom_insert(struct ccnx_bloom *b, const void *key, size_t n)
{
    if (b == NULL || (key == NULL && n != 0) || ccnx_bloom_validate(b->wire, b->wire_len) != 0) {
        return CCNX_E_INVAL;
    }
    uint32_t mask = ((uint32_t)1 << b->wire[OFF_LG_BITS]) - 1;
    uint8_t *bits = b->wire + CCNX_BLOOM_HEADER_LEN;
    uint32_t s = hash_start(b->wire, key, n);
    int changed = 0;
    for (unsigned i = 0; i < b->wire[OFF_N_HASH]; i++) {
        s = hash_step(s, 0);
        uint32_t h = s & mask;
        uint8_t bit = (uint8_t)(1u << (h & 7));
        if ((bits[h >> 3] & bit) == 0) {
            bits[h >> 3] |= bit;
            changed++;
        }
    }
    b->members++;
    return changed;
}

int ccnx_bloom_test(const struct ccnx_bloom *b, const void *key, size_t n)
{
    if (b == NULL) {
        return CCNX_E_INVAL;
    }
    return ccnx_bloom_wire_test(b->wire, b->wire_len, key, n);
}
