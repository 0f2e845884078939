/* The GStreamer elements' model without GStreamer: the metadata codec, the
 * writer's segmenting (a segment at each keyframe and caps change, meta
 * segment n for data segment n, the final segments) and the reader giving
 * back every buffer as it was written, also from a join point. */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include "streammeta.h"
#include "streamreader.h"
#include "streamwriter.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/naming.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>
#include <ccnx/seqwriter.h>

#include <stdlib.h>
#include <string.h>

static struct ccnx_key *g_key;

static int setup(void **state)
{
    (void)state;
    return ccnx_key_generate(1024, &g_key);
}

static int teardown(void **state)
{
    (void)state;
    ccnx_key_destroy(g_key);
    return 0;
}

/* ---- Codec ---- */

static void assert_rec_equal(const struct ccngst_buf_rec *a, const struct ccngst_buf_rec *b)
{
    assert_int_equal(a->offset, b->offset);
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->pts, b->pts);
    assert_int_equal(a->dts, b->dts);
    assert_int_equal(a->duration, b->duration);
    assert_int_equal(a->flags, b->flags);
}

static void test_meta_roundtrip(void **state)
{
    (void)state;
    struct ccnx_buf t = CCNX_BUF_INIT;
    struct ccngst_seg_info h = {7, 28672, 5, 166666666, 1};
    struct ccngst_buf_rec b1 = {28672, 100, 200000000, -1, 33333333, 0x2000};
    struct ccngst_buf_rec b2 = {28772, 5000, 233333333, 233333333, -1, 0};
    assert_int_equal(ccngst_meta_put_header(&t, &h), 0);
    assert_int_equal(ccngst_meta_put_caps(&t, "video/x-raw, width=(int)4"), 0);
    assert_int_equal(ccngst_meta_put_buffer(&t, &b1), 0);
    assert_int_equal(ccngst_meta_put_buffer(&t, &b2), 0);
    struct ccngst_meta *m = malloc(sizeof *m);
    assert_int_equal(ccngst_meta_parse(t.data, t.len, m), 0);
    assert_int_equal(m->h.segment, h.segment);
    assert_int_equal(m->h.offset, h.offset);
    assert_int_equal(m->h.key_segment, h.key_segment);
    assert_int_equal(m->h.key_pts, h.key_pts);
    assert_int_equal(m->h.live, h.live);
    assert_int_equal(m->caps_len, strlen("video/x-raw, width=(int)4"));
    assert_memory_equal(m->caps, "video/x-raw, width=(int)4", m->caps_len);
    assert_int_equal(m->count, 2);
    assert_rec_equal(&m->bufs[0], &b1);
    assert_rec_equal(&m->bufs[1], &b2);
    assert_int_equal(ccngst_meta_put_caps(&t, "a\nb"), CCNX_E_VALUE);
    free(m);
    ccnx_buf_free(&t);
}

static void test_meta_refuses(void **state)
{
    (void)state;
    static const char *bad[] = {
        "",
        "ccngst 2 0 0 0 -1 0\n",                      /* version */
        "ccngst 1 0 0 1 -1 0\n",                      /* key segment after the segment */
        "ccngst 1 0 0 0 -1 2\n",                      /* live flag */
        "ccngst 1 0 0 0 -2 0\n",                      /* time */
        "ccngst 1 0 0 0 -1 0 \n",                     /* trailing space */
        "ccngst 1 0 100 0 -1 0\nB 99 1 -1 -1 -1 0\n", /* buffer before the segment */
        "ccngst 1 0 0 0 -1 0\nB 5 1 -1 -1 -1 0\nB 4 1 -1 -1 -1 0\n",  /* out of order */
        "ccngst 1 0 0 0 -1 0\nB 0 1 -1 -1 -1 0\nC x\n",               /* caps after buffers */
        "ccngst 1 0 0 0 -1 0\nC \n",                                  /* empty caps */
        "ccngst 1 0 0 0 -1 0\nX\n",                                   /* unknown record */
        "ccngst 1 0 0 0 -1 0\nB 0 1 -1 -1 -1 1g\n",                   /* flags */
        "ccngst 1 99999999999999999999 0 0 -1 0\n",                   /* too many digits */
        "ccngst 1 0 0 0 -1 0\nB 18446744073709551615 1 -1 -1 -1 0\n", /* offset + size */
    };
    struct ccngst_meta *m = malloc(sizeof *m);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(ccngst_meta_parse((const uint8_t *)bad[i], strlen(bad[i]), m),
                         CCNX_E_VALUE);
    }
    const char *ok = "ccngst 1 3 9 2 -1 0\nB 9 1 -1 -1 -1 0";
    assert_int_equal(ccngst_meta_parse((const uint8_t *)ok, strlen(ok), m), 0);
    free(m);
}

/* ---- Writer and reader ---- */

/* Objects the writer made, by stream and segment. */
struct collected {
    struct ccnx_buf data[64], meta[64];
    int data_final, meta_final;
    size_t ndata, nmeta;
};

static int collect(void *arg, const uint8_t *obj, size_t len)
{
    struct collected *c = arg;
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj, len, &pc), 0);
    uint64_t seg;
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(obj + pc.name.off, pc.name.len, &seg), 1);
    assert_true(seg < 64);
    int is_meta = pc.name_count > 4; /* /t/s/<v>/%00..: data has four components */
    struct ccnx_buf *b = is_meta ? &c->meta[seg] : &c->data[seg];
    ccnx_buf_reset(b);
    ccnx_buf_append(b, obj + pc.content_value.off, pc.content_value.len);
    size_t *n = is_meta ? &c->nmeta : &c->ndata;
    *n = seg + 1 > *n ? seg + 1 : *n;
    if (pc.has_final_block_id) {
        *(is_meta ? &c->meta_final : &c->data_final) = (int)seg;
    }
    return 0;
}

struct written {
    size_t size;
    int key;
    const char *caps;
};

/* Writes buffers of the given sizes (keyframes and caps as given) into a
 * writer with 100-byte blocks, asks for every segment, closes. */
static struct ccngst_writer *write_stream(struct collected *c, const struct written *w, size_t n,
                                          int live, uint8_t *bytes)
{
    memset(c, 0, sizeof *c);
    c->data_final = c->meta_final = -1;
    for (int i = 0; i < 64; i++) {
        ccnx_buf_init(&c->data[i]);
        ccnx_buf_init(&c->meta[i]);
    }
    struct ccnx_name loc;
    ccnx_name_init(&loc);
    assert_int_equal(ccnx_uri_parse_str(&loc, "ccnx:/t/s"), 0);
    struct ccngst_writer_opts o = {100, -1, 0, live, g_key, collect, c};
    struct ccngst_writer *wr;
    assert_int_equal(ccngst_writer_create(NULL, &loc, &o, &wr), 0);
    ccnx_name_free(&loc);
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i].caps != NULL) {
            assert_int_equal(ccngst_writer_set_caps(wr, w[i].caps), 0);
        }
        for (size_t k = 0; k < w[i].size; k++) {
            bytes[off + k] = (uint8_t)(i * 31 + k);
        }
        struct ccngst_buf_rec r = {0, 0, (int64_t)i * 1000, -1, 1000, w[i].key ? 0 : 0x2000};
        assert_int_equal(ccngst_writer_buffer(wr, bytes + off, w[i].size, &r, w[i].key), 0);
        off += w[i].size;
    }
    assert_int_equal(ccngst_writer_close(wr), 0);
    return wr;
}

/* Every segment, answered from the writer's store into c. */
static void drain_writer(struct ccngst_writer *wr, struct collected *c)
{
    for (uint64_t s = 0; s < 64; s++) {
        size_t len;
        const uint8_t *o = ccnx_seqwriter_segment(ccngst_writer_data(wr), s, &len);
        if (o != NULL) {
            collect(c, o, len);
        }
        o = ccnx_seqwriter_segment(ccngst_writer_meta(wr), s, &len);
        if (o != NULL) {
            collect(c, o, len);
        }
    }
}

static void free_collected(struct collected *c)
{
    for (int i = 0; i < 64; i++) {
        ccnx_buf_free(&c->data[i]);
        ccnx_buf_free(&c->meta[i]);
    }
}

/* Reads from segment `from`: the buffers, as written, from the first that
 * starts there. Returns how many came back. */
static size_t read_back(const struct collected *c, uint64_t from, const struct written *w, size_t n,
                        const uint8_t *bytes)
{
    struct ccngst_reader *r = ccngst_reader_new();
    char err[200];
    for (uint64_t s = from; s < c->nmeta; s++) {
        assert_int_equal(ccngst_reader_meta(r, c->meta[s].data, c->meta[s].len, err, sizeof err),
                         0);
    }
    for (uint64_t s = from; s < c->ndata; s++) {
        assert_int_equal(ccngst_reader_data(r, c->data[s].data, c->data[s].len), 0);
    }
    struct ccngst_out out;
    size_t got = 0, first = n;
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        if (first == n && off >= ccngst_reader_first(r)->offset) {
            first = i;
        }
        off += w[i].size;
    }
    off = 0;
    for (size_t i = 0; i < first; i++) {
        off += w[i].size;
    }
    while (ccngst_reader_next(r, &out)) {
        size_t i = first + got;
        assert_true(i < n);
        assert_int_equal(out.size, w[i].size);
        assert_memory_equal(out.data, bytes + off, out.size);
        assert_int_equal(out.rec.pts, (int64_t)i * 1000);
        assert_int_equal(out.rec.duration, 1000);
        assert_int_equal(out.rec.flags != 0, !w[i].key);
        off += out.size;
        got++;
    }
    ccngst_reader_free(r);
    return got;
}

static void test_write_read(void **state)
{
    (void)state;
    /* sizes with 100-byte blocks: a buffer over three blocks, small delta
     * buffers, a keyframe in mid-block, a caps change on a delta buffer */
    static const struct written w[] = {
        {250, 1, "video/x-test, n=(int)1"},
        {30, 0, NULL},
        {30, 0, NULL},
        {120, 1, NULL},
        {10, 0, NULL},
        {100, 0, "video/x-test, n=(int)2"},
        {5, 0, NULL},
        {200, 1, NULL},
    };
    const size_t n = sizeof w / sizeof *w;
    static uint8_t bytes[2000];
    struct collected c;
    struct ccngst_writer *wr = write_stream(&c, w, n, 0, bytes);
    drain_writer(wr, &c);
    /* data: 100 100 50+30+30(=110 > block: 100 10) | 100 20+10(30) | 100 5 | 100 100 | final */
    assert_int_equal(c.ndata, c.nmeta);
    assert_int_equal(c.data_final, (int)c.ndata - 1);
    assert_int_equal(c.meta_final, (int)c.nmeta - 1);
    /* every keyframe starts a segment whose meta carries the caps */
    struct ccngst_meta *m = malloc(sizeof *m);
    size_t keys = 0;
    for (size_t s = 0; s < c.nmeta; s++) {
        assert_int_equal(ccngst_meta_parse(c.meta[s].data, c.meta[s].len, m), 0);
        assert_int_equal(m->h.segment, s);
        if (m->count > 0 && m->bufs[0].offset == m->h.offset && m->h.key_segment == s) {
            assert_non_null(m->caps);
            keys++;
        }
    }
    assert_int_equal(keys, 3);
    assert_int_equal(read_back(&c, 0, w, n, bytes), n);
    /* a viewer joining at the last keyframe gets the rest */
    assert_int_equal(ccngst_meta_parse(c.meta[c.nmeta - 1].data, c.meta[c.nmeta - 1].len, m), 0);
    uint64_t join = m->h.key_segment;
    assert_true(join > 0);
    assert_int_equal(read_back(&c, join, w, n, bytes), 1);
    free(m);
    ccngst_writer_destroy(wr);
    free_collected(&c);
}

/* Live: every buffer ends its segment. */
static void test_live_segments(void **state)
{
    (void)state;
    static const struct written w[] = {
        {30, 1, "audio/x-test"},
        {30, 0, NULL},
        {130, 0, NULL},
        {30, 0, NULL},
    };
    static uint8_t bytes[1000];
    struct collected c;
    struct ccngst_writer *wr = write_stream(&c, w, 4, 1, bytes);
    drain_writer(wr, &c);
    /* 30 | 30 | 100 30 | 30 | empty final */
    assert_int_equal(c.ndata, 6);
    assert_int_equal(c.nmeta, 6);
    const size_t lens[] = {30, 30, 100, 30, 30, 0};
    for (size_t s = 0; s < 6; s++) {
        assert_int_equal(c.data[s].len, lens[s]);
    }
    assert_int_equal(read_back(&c, 0, w, 4, bytes), 4);
    ccngst_writer_destroy(wr);
    free_collected(&c);
}

/* A reader refuses metadata that does not follow, and stale records do
 * not stall it. */
static void test_reader_bad_input(void **state)
{
    (void)state;
    struct ccngst_reader *r = ccngst_reader_new();
    char err[200];
    const char *m0 = "ccngst 1 4 400 4 -1 0\nB 400 10 -1 -1 -1 0\n";
    const char *m2 = "ccngst 1 6 600 4 -1 0\n";
    assert_int_equal(ccngst_reader_meta(r, (const uint8_t *)m0, strlen(m0), err, sizeof err), 0);
    assert_int_equal(ccngst_reader_meta(r, (const uint8_t *)m2, strlen(m2), err, sizeof err),
                     CCNX_E_VALUE);
    assert_non_null(strstr(err, "segment 6 where 5 was expected"));
    assert_int_equal(ccngst_reader_meta(r, (const uint8_t *)"junk", 4, err, sizeof err),
                     CCNX_E_VALUE);
    struct ccngst_out out;
    assert_int_equal(ccngst_reader_next(r, &out), 0);
    assert_int_equal(ccngst_reader_data(r, (const uint8_t *)"0123456789", 10), 0);
    assert_int_equal(ccngst_reader_next(r, &out), 1);
    assert_int_equal(out.size, 10);
    assert_int_equal(ccngst_reader_next(r, &out), 0);
    ccngst_reader_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_meta_roundtrip),   cmocka_unit_test(test_meta_refuses),
        cmocka_unit_test(test_write_read),       cmocka_unit_test(test_live_segments),
        cmocka_unit_test(test_reader_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
