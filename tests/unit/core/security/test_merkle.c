/* Merkle hash trees, the Witness encoding, and batch-signed ContentObjects. */
#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/merkle.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

static void hash2(const uint8_t *a, const uint8_t *b, uint8_t *out)
{
    uint8_t cat[64];
    memcpy(cat, a, 32);
    memcpy(cat + 32, b, 32);
    assert_int_equal(ccnx_sha256(cat, sizeof cat, out), 0);
}

static void fill_leaves(struct ccnx_merkle_tree *t)
{
    for (size_t i = 0; i < t->leaves; i++) {
        uint8_t seed[8] = {(uint8_t)i, (uint8_t)(i >> 8), 0x5A};
        assert_int_equal(ccnx_sha256(seed, sizeof seed, ccnx_merkle_leaf(t, i)), 0);
    }
}

static void test_three_leaf_shape(void **state)
{
    (void)state;
    struct ccnx_merkle_tree t;
    assert_int_equal(ccnx_merkle_tree_init(&t, 3), 0);
    fill_leaves(&t);
    assert_int_equal(ccnx_merkle_tree_compute(&t), 0);
    /* Leaves are nodes 3, 4, 5; node 2 joins 4 and 5; the root joins 2 and 3. */
    uint8_t n2[32], root[32];
    hash2(ccnx_merkle_leaf(&t, 1), ccnx_merkle_leaf(&t, 2), n2);
    hash2(n2, ccnx_merkle_leaf(&t, 0), root);
    assert_memory_equal(ccnx_merkle_root(&t), root, 32);

    /* Leaf 1 (node 4): path listed from the top, node 3 then node 5. */
    size_t wlen = ccnx_merkle_witness_size(3, 1);
    uint8_t *w = malloc(wlen);
    assert_int_equal(ccnx_merkle_witness_write(&t, 1, w), 0);
    struct ccnx_merkle_path path;
    assert_int_equal(ccnx_merkle_witness_parse(w, wlen, &path), 0);
    assert_int_equal(path.node_index, 4);
    assert_int_equal(path.count, 2);
    assert_memory_equal(path.hashes, ccnx_merkle_leaf(&t, 0), 32);
    assert_memory_equal(path.hashes + path.hash_stride, ccnx_merkle_leaf(&t, 2), 32);
    uint8_t got[32];
    assert_int_equal(ccnx_merkle_path_root(&path, ccnx_merkle_leaf(&t, 1), got), 0);
    assert_memory_equal(got, root, 32);
    free(w);
    ccnx_merkle_tree_free(&t);
}

/* Root as the reference verifier computes it: walk up from the leaf taking
 * path digests from the end of the list. */
static void reference_root(long node, STACK_OF(ASN1_TYPE) * hashes, const uint8_t *leaf,
                           uint8_t *out)
{
    int idx = sk_ASN1_TYPE_num(hashes) - 1;
    uint8_t cur[32];
    memcpy(cur, leaf, 32);
    while (node != 1) {
        assert_true(idx >= 0);
        ASN1_TYPE *h = sk_ASN1_TYPE_value(hashes, idx--);
        assert_int_equal(ASN1_TYPE_get(h), V_ASN1_OCTET_STRING);
        assert_int_equal(ASN1_STRING_length(h->value.octet_string), 32);
        const uint8_t *sib = ASN1_STRING_get0_data(h->value.octet_string);
        if (node & 1) {
            hash2(sib, cur, cur);
        } else {
            hash2(cur, sib, cur);
        }
        node >>= 1;
    }
    assert_int_equal(idx, -1);
    memcpy(out, cur, 32);
}

/* Decodes our Witness with OpenSSL's own DER readers, as the reference does. */
static void check_with_openssl(const struct ccnx_merkle_tree *t, size_t i)
{
    size_t wlen = ccnx_merkle_witness_size(t->leaves, i);
    uint8_t *w = malloc(wlen);
    assert_int_equal(ccnx_merkle_witness_write(t, i, w), 0);
    const unsigned char *p = w;
    X509_SIG *sig = d2i_X509_SIG(NULL, &p, (long)wlen);
    assert_non_null(sig);
    assert_ptr_equal(p, w + wlen);
    const X509_ALGOR *alg = NULL;
    const ASN1_OCTET_STRING *digest = NULL;
    X509_SIG_get0(sig, &alg, &digest);
    const ASN1_OBJECT *oid = NULL;
    int ptype = 0;
    X509_ALGOR_get0(&oid, &ptype, NULL, alg);
    char text[64];
    OBJ_obj2txt(text, sizeof text, oid, 1);
    assert_string_equal(text, "1.2.840.113550.11.1.2.2");
    assert_int_equal(ptype, V_ASN1_UNDEF); /* no parameters, like the reference's encoder */

    const unsigned char *q = ASN1_STRING_get0_data(digest);
    STACK_OF(ASN1_TYPE) *mp = d2i_ASN1_SEQUENCE_ANY(NULL, &q, ASN1_STRING_length(digest));
    assert_non_null(mp);
    assert_int_equal(sk_ASN1_TYPE_num(mp), 2);
    ASN1_TYPE *node = sk_ASN1_TYPE_value(mp, 0), *list = sk_ASN1_TYPE_value(mp, 1);
    assert_int_equal(ASN1_TYPE_get(node), V_ASN1_INTEGER);
    long index = ASN1_INTEGER_get(node->value.integer);
    assert_int_equal(index, (long)(t->leaves + i));
    assert_int_equal(ASN1_TYPE_get(list), V_ASN1_SEQUENCE);
    const unsigned char *r = ASN1_STRING_get0_data(list->value.sequence);
    STACK_OF(ASN1_TYPE) *hashes =
        d2i_ASN1_SEQUENCE_ANY(NULL, &r, ASN1_STRING_length(list->value.sequence));
    assert_non_null(hashes);
    uint8_t root[32];
    reference_root(index, hashes, ccnx_merkle_leaf((struct ccnx_merkle_tree *)t, i), root);
    assert_memory_equal(root, ccnx_merkle_root(t), 32);
    sk_ASN1_TYPE_pop_free(hashes, ASN1_TYPE_free);
    sk_ASN1_TYPE_pop_free(mp, ASN1_TYPE_free);
    X509_SIG_free(sig);
    free(w);
}

static void test_witness_reads_like_reference(void **state)
{
    (void)state;
    /* 200 leaves puts node numbers past 255 and past 127 (sign padding). */
    const size_t sizes[] = {2, 3, 7, 8, 100, 200};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        struct ccnx_merkle_tree t;
        assert_int_equal(ccnx_merkle_tree_init(&t, sizes[s]), 0);
        fill_leaves(&t);
        assert_int_equal(ccnx_merkle_tree_compute(&t), 0);
        for (size_t i = 0; i < sizes[s]; i++) {
            check_with_openssl(&t, i);
        }
        ccnx_merkle_tree_free(&t);
    }
}

static void test_witness_parse_rejects(void **state)
{
    (void)state;
    struct ccnx_merkle_tree t;
    assert_int_equal(ccnx_merkle_tree_init(&t, 5), 0);
    fill_leaves(&t);
    assert_int_equal(ccnx_merkle_tree_compute(&t), 0);
    size_t wlen = ccnx_merkle_witness_size(5, 2);
    uint8_t w[512];
    assert_true(wlen < sizeof w - 2);
    assert_int_equal(ccnx_merkle_witness_write(&t, 2, w), 0);
    struct ccnx_merkle_path path;
    for (size_t n = 0; n < wlen; n++) {
        assert_int_equal(ccnx_merkle_witness_parse(w, n, &path), CCNX_E_VALUE);
    }
    w[wlen] = 0;
    assert_int_equal(ccnx_merkle_witness_parse(w, wlen + 1, &path), CCNX_E_VALUE);

    /* The SHA-1 Merkle OID (last arc 1) is valid but not supported. */
    uint8_t sha1[512];
    memcpy(sha1, w, wlen);
    assert_int_equal(sha1[15], 0x02); /* 30 len 30 0C 06 0A <10 OID bytes> */
    sha1[15] = 0x01;
    assert_int_equal(ccnx_merkle_witness_parse(sha1, wlen, &path), CCNX_E_UNSUPPORTED);

    /* The same path with an explicit NULL parameter (05 00) is accepted. */
    uint8_t with_null[512];
    with_null[0] = 0x30;
    with_null[1] = (uint8_t)(w[1] + 2);
    with_null[2] = 0x30;
    with_null[3] = 0x0E;
    memcpy(with_null + 4, w + 4, 12);
    with_null[16] = 0x05;
    with_null[17] = 0x00;
    memcpy(with_null + 18, w + 16, wlen - 16);
    assert_true(w[1] < 0x7E);
    assert_int_equal(ccnx_merkle_witness_parse(with_null, wlen + 2, &path), 0);
    assert_int_equal(path.node_index, 7);

    /* A node number that does not match the path length cannot give a root. */
    uint8_t root[32];
    path.node_index = 3;
    assert_int_equal(ccnx_merkle_path_root(&path, ccnx_merkle_leaf(&t, 2), root), CCNX_E_VALUE);
    path.node_index = 0;
    assert_int_equal(ccnx_merkle_path_root(&path, ccnx_merkle_leaf(&t, 2), root), CCNX_E_INVAL);

    /* Arbitrary bytes never crash the parser. */
    uint8_t junk[64];
    for (unsigned seed = 1; seed < 2000; seed++) {
        unsigned x = seed;
        for (size_t k = 0; k < sizeof junk; k++) {
            x = x * 1103515245u + 12345u;
            junk[k] = (uint8_t)(x >> 16);
        }
        junk[0] = 0x30;
        (void)ccnx_merkle_witness_parse(junk, (seed % sizeof junk) + 1, &path);
    }
    ccnx_merkle_tree_free(&t);
}

/* ---- Batch-signed ContentObjects ---- */

struct batch_input {
    struct ccnx_name *names;
    uint8_t *content;
    struct ccnx_content_params *p;
    size_t n;
};

static void make_input(struct batch_input *in, size_t n, size_t seg)
{
    in->n = n;
    in->names = calloc(n, sizeof *in->names);
    in->content = malloc(n * seg);
    in->p = calloc(n, sizeof *in->p);
    assert_true(in->names != NULL && in->content != NULL && in->p != NULL);
    for (size_t i = 0; i < n * seg; i++) {
        in->content[i] = (uint8_t)(i * 31 + (i >> 9));
    }
    for (size_t i = 0; i < n; i++) {
        char seq[16];
        int len = snprintf(seq, sizeof seq, "%zu", i);
        assert_int_equal(ccnx_name_init(&in->names[i]), 0);
        assert_int_equal(ccnx_name_append(&in->names[i], "batch", 5), 0);
        assert_int_equal(ccnx_name_append(&in->names[i], seq, (size_t)len), 0);
        ccnx_content_params_init(&in->p[i]);
        in->p[i].name = in->names[i].enc.data;
        in->p[i].name_len = in->names[i].enc.len;
        in->p[i].content = in->content + i * seg;
        in->p[i].content_len = seg;
        in->p[i].timestamp = 0x6B1121D927AL;
    }
}

static void free_input(struct batch_input *in)
{
    for (size_t i = 0; i < in->n; i++) {
        ccnx_name_free(&in->names[i]);
    }
    free(in->names);
    free(in->content);
    free(in->p);
}

static void expect_verify(uint8_t *obj, size_t len, const struct ccnx_key *k, int want)
{
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj, len, &pc), 0);
    assert_int_equal(ccnx_content_verify(obj, len, &pc, k), want);
}

static void check_batch(size_t n, const struct ccnx_key *k, const struct ccnx_key *other)
{
    struct batch_input in;
    make_input(&in, n, 300);
    struct ccnx_buf out = CCNX_BUF_INIT;
    ccnx_buf_append(&out, "pre", 3);
    size_t *off = calloc(n + 1, sizeof *off);
    assert_int_equal(ccnx_content_sign_batch(&out, in.p, n, k, off), 0);
    assert_int_equal(off[0], 3);
    assert_int_equal(off[n], out.len);
    const uint8_t *first_sig = NULL;
    for (size_t i = 0; i < n; i++) {
        uint8_t *obj = out.data + off[i];
        size_t len = off[i + 1] - off[i];
        struct ccnx_content_parsed pc;
        assert_int_equal(ccnx_content_parse(obj, len, &pc), 0);
        assert_int_equal(pc.witness.len > 0, n > 1);
        assert_memory_equal(obj + pc.name.off, in.p[i].name, in.p[i].name_len);
        /* One RSA signature shared by the whole batch. */
        if (first_sig == NULL) {
            first_sig = obj + pc.signature_bits.off;
        }
        assert_memory_equal(obj + pc.signature_bits.off, first_sig, pc.signature_bits.len);
        assert_int_equal(ccnx_content_verify(obj, len, &pc, k), 0);
        assert_int_equal(ccnx_content_verify(obj, len, &pc, other), CCNX_E_BADSIG);
        obj[pc.content_value.off + 7] ^= 0x40;
        expect_verify(obj, len, k, CCNX_E_BADSIG);
        obj[pc.content_value.off + 7] ^= 0x40;
        if (n > 1) {
            /* Last byte of the Witness is inside the leaf's sibling digest. */
            obj[pc.witness.off + pc.witness.len - 1] ^= 0x01;
            expect_verify(obj, len, k, CCNX_E_BADSIG);
            obj[pc.witness.off + pc.witness.len - 1] ^= 0x01;
        }
        expect_verify(obj, len, k, 0);
    }
    free(off);
    ccnx_buf_free(&out);
    free_input(&in);
}

static void test_batch_sizes(void **state)
{
    (void)state;
    struct ccnx_key *k = NULL, *other = NULL;
    assert_int_equal(ccnx_key_generate(1024, &k), 0);
    assert_int_equal(ccnx_key_generate(1024, &other), 0);
    const size_t sizes[] = {1, 2, 3, 7, 8, 100};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        check_batch(sizes[s], k, other);
    }
    ccnx_key_destroy(other);
    ccnx_key_destroy(k);
}

/* A Witness copied from a neighbour in the same batch places the object at
 * the wrong leaf, so the computed root differs from the signed one. */
static void test_batch_witness_swap_fails(void **state)
{
    (void)state;
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_key_generate(1024, &k), 0);
    struct batch_input in;
    make_input(&in, 4, 64);
    struct ccnx_buf out = CCNX_BUF_INIT;
    size_t off[5];
    assert_int_equal(ccnx_content_sign_batch(&out, in.p, 4, k, off), 0);
    struct ccnx_content_parsed a, b;
    assert_int_equal(ccnx_content_parse(out.data + off[1], off[2] - off[1], &a), 0);
    assert_int_equal(ccnx_content_parse(out.data + off[2], off[3] - off[2], &b), 0);
    assert_int_equal(a.witness.len, b.witness.len);
    uint8_t *wa = out.data + off[1] + a.witness.off;
    uint8_t *wb = out.data + off[2] + b.witness.off;
    uint8_t saved[256];
    memcpy(saved, wa, a.witness.len);
    memcpy(wa, wb, a.witness.len);
    expect_verify(out.data + off[1], off[2] - off[1], k, CCNX_E_BADSIG);
    memcpy(wa, saved, a.witness.len);
    expect_verify(out.data + off[1], off[2] - off[1], k, 0);
    ccnx_buf_free(&out);
    free_input(&in);
    ccnx_key_destroy(k);
}

static void test_batch_errors(void **state)
{
    (void)state;
    struct ccnx_key *k = NULL;
    assert_int_equal(ccnx_key_generate(1024, &k), 0);
    struct batch_input in;
    make_input(&in, 3, 10);
    struct ccnx_buf out = CCNX_BUF_INIT;
    ccnx_buf_append(&out, "keep", 4);
    assert_int_equal(ccnx_content_sign_batch(&out, in.p, 0, k, NULL), CCNX_E_INVAL);
    in.p[2].name_len = 1; /* not a whole Name */
    assert_int_equal(ccnx_content_sign_batch(&out, in.p, 3, k, NULL), CCNX_E_INVAL);
    assert_int_equal(out.len, 4);
    in.p[2].name_len = in.names[2].enc.len;
    size_t n = 0;
    struct ccnx_key *pub = NULL;
    const uint8_t *der = ccnx_key_der(k, &n);
    assert_int_equal(ccnx_key_from_der(der, n, &pub), 0);
    assert_int_equal(ccnx_content_sign_batch(&out, in.p, 3, pub, NULL), CCNX_E_NOKEY);
    assert_int_equal(ccnx_content_sign_batch(&out, in.p, 3, k, NULL), 0);
    assert_true(out.len > 4);
    ccnx_key_destroy(pub);
    ccnx_buf_free(&out);
    free_input(&in);
    ccnx_key_destroy(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_leaf_shape),
        cmocka_unit_test(test_witness_reads_like_reference),
        cmocka_unit_test(test_witness_parse_rejects),
        cmocka_unit_test(test_batch_sizes),
        cmocka_unit_test(test_batch_witness_swap_fails),
        cmocka_unit_test(test_batch_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
