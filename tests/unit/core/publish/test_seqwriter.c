/* The seqwriter without a connection: segmenting, names, Merkle batches,
 * FinalBlockID, back-pressure and answering Interests (remembered ones
 * too), with objects collected by a put callback. */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/seqwriter.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <stdlib.h>
#include <string.h>

static struct ccnx_key *g_key;

/* Objects the seqwriter sent, back to back, with their count. */
struct sink {
    struct ccnx_buf objs;
    size_t count;
};

static int sink_put(void *arg, const uint8_t *obj, size_t len)
{
    struct sink *s = arg;
    s->count++;
    return ccnx_buf_append(&s->objs, obj, len);
}

struct fixture {
    struct sink sink;
    struct ccnx_seqwriter *w;
    struct ccnx_name name;
};

static int setup_key(void **state)
{
    (void)state;
    return ccnx_key_generate(1024, &g_key);
}

static int teardown_key(void **state)
{
    (void)state;
    ccnx_key_destroy(g_key);
    return 0;
}

static void open_writer(struct fixture *f, const char *uri, struct ccnx_seqwriter_opts *o)
{
    memset(f, 0, sizeof *f);
    assert_int_equal(ccnx_name_init(&f->name), 0);
    assert_int_equal(ccnx_uri_parse_str(&f->name, uri), 0);
    o->key = g_key;
    o->put = sink_put;
    o->put_arg = &f->sink;
    assert_int_equal(ccnx_seqwriter_create(NULL, &f->name, o, &f->w), 0);
}

static void close_writer(struct fixture *f)
{
    ccnx_seqwriter_destroy(f->w);
    ccnx_name_free(&f->name);
    ccnx_buf_free(&f->sink.objs);
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)((i * 31 + seed) ^ (i >> 8));
    }
}

/* Parses a held segment and checks its name, signature and FinalBlockID:
 * the segment `final` names, or none when final is -1 (only the final
 * segment carries it: the reference's consumers end the file one segment
 * early when an earlier one does). */
static void check_segment(struct fixture *f, uint64_t seg, int64_t final, struct ccnx_buf *data)
{
    size_t len;
    const uint8_t *obj = ccnx_seqwriter_segment(f->w, seg, &len);
    assert_non_null(obj);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj, len, &pc), 0);
    assert_int_equal(ccnx_content_verify(obj, len, &pc, g_key), 0);
    const struct ccnx_name *v = ccnx_seqwriter_name(f->w);
    assert_int_equal(pc.name_count, v->count + 1);
    assert_true(ccnx_name_is_prefix_ccnb(v->enc.data, v->enc.len, obj + pc.name.off, pc.name.len));
    uint64_t got;
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(obj + pc.name.off, pc.name.len, &got), 1);
    assert_int_equal(got, seg);
    assert_int_equal(pc.has_final_block_id, final >= 0);
    if (final >= 0) {
        uint8_t comp[CCNX_NUMERIC_MAX_LEN];
        int cl = ccnx_naming_segment_build((uint64_t) final, comp);
        assert_int_equal(pc.final_block_id.len, (size_t)cl);
        assert_memory_equal(obj + pc.final_block_id.off, comp, (size_t)cl);
    }
    assert_int_equal(pc.key_locator_kind, CCNX_KEYLOC_KEY);
    ccnx_buf_append(data, obj + pc.content_value.off, pc.content_value.len);
}

static void test_segments_names_and_final(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    open_writer(&f, "ccnx:/test/file", &o);
    const struct ccnx_name *v = ccnx_seqwriter_name(f.w);
    assert_int_equal(v->count, 3);
    struct ccnx_comp last;
    assert_int_equal(ccnx_name_comp(v, 2, &last), 0);
    assert_true(ccnx_naming_is_version(last.p, last.n));

    static uint8_t in[10000];
    fill(in, sizeof in, 1);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, sizeof in), (long)sizeof in);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.segments, 3);
    assert_int_equal(st.final_segment, 2);
    assert_int_equal(st.batches, 1);
    struct ccnx_buf out = CCNX_BUF_INIT;
    check_segment(&f, 0, -1, &out);
    check_segment(&f, 1, -1, &out);
    check_segment(&f, 2, 2, &out);
    assert_int_equal(out.len, sizeof in);
    assert_memory_equal(out.data, in, sizeof in);
    size_t len;
    assert_null(ccnx_seqwriter_segment(f.w, 3, &len));
    assert_int_equal(ccnx_seqwriter_write(f.w, in, 1), CCNX_E_INVAL);
    ccnx_buf_free(&out);
    close_writer(&f);
}

static void test_exact_multiple_and_empty(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 1000;
    open_writer(&f, "ccnx:/test/exact", &o);
    static uint8_t in[3000];
    fill(in, sizeof in, 2);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, sizeof in), 3000);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    struct ccnx_buf out = CCNX_BUF_INIT;
    check_segment(&f, 0, -1, &out);
    check_segment(&f, 1, -1, &out);
    check_segment(&f, 2, 2, &out); /* no empty segment after a full last one */
    assert_memory_equal(out.data, in, sizeof in);
    close_writer(&f);

    /* An empty stream: one empty segment %00 with FinalBlockID %00. */
    ccnx_seqwriter_opts_init(&o);
    open_writer(&f, "ccnx:/test/empty", &o);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    ccnx_buf_reset(&out);
    check_segment(&f, 0, 0, &out);
    assert_int_equal(out.len, 0);
    close_writer(&f);

    /* Closed right after a flush: an empty final segment follows. */
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 1000;
    open_writer(&f, "ccnx:/test/flushed", &o);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, 1500), 1500);
    assert_int_equal(ccnx_seqwriter_flush(f.w), 0);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    ccnx_buf_reset(&out);
    check_segment(&f, 0, -1, &out); /* signed by the flush */
    check_segment(&f, 1, -1, &out);
    check_segment(&f, 2, 2, &out);
    assert_int_equal(out.len, 1500);
    ccnx_buf_free(&out);
    close_writer(&f);
}

static void test_versioned_name_kept(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    open_writer(&f, "ccnx:/test/v/%FD%06%B1%12%1D%95%18", &o);
    assert_int_equal(ccnx_name_compare(ccnx_seqwriter_name(f.w), &f.name), 0);
    close_writer(&f);
}

/* The Witness of an object, as its batch position tells. */
static size_t witness_len(struct fixture *f, uint64_t seg)
{
    size_t len;
    const uint8_t *obj = ccnx_seqwriter_segment(f->w, seg, &len);
    assert_non_null(obj);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj, len, &pc), 0);
    assert_int_equal(ccnx_content_verify(obj, len, &pc, g_key), 0);
    return pc.witness.len;
}

static void test_batch_boundaries(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 100;
    o.batch_max = 4;
    open_writer(&f, "ccnx:/test/batches", &o);
    static uint8_t in[1001];
    fill(in, sizeof in, 3);
    /* Ten full blocks and a byte: two full batches are signed at once. */
    assert_int_equal(ccnx_seqwriter_write(f.w, in, sizeof in), (long)sizeof in);
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.batches, 2);
    assert_int_equal(st.segments, 8);
    size_t len;
    assert_null(ccnx_seqwriter_segment(f.w, 8, &len));
    /* The rest (two full blocks and the byte) is signed as one final batch. */
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.batches, 3);
    assert_int_equal(st.segments, 11);
    assert_int_equal(st.final_segment, 10);
    for (uint64_t s = 0; s < 11; s++) {
        assert_true(witness_len(&f, s) > 0);
    }
    struct ccnx_buf out = CCNX_BUF_INIT;
    for (uint64_t s = 0; s < 11; s++) {
        check_segment(&f, s, s == 10 ? 10 : -1, &out); /* 8 to 10: the final batch */
    }
    assert_memory_equal(out.data, in, sizeof in);
    ccnx_buf_free(&out);
    close_writer(&f);

    /* A batch of one is signed without a Witness. */
    ccnx_seqwriter_opts_init(&o);
    o.batch_max = 1;
    open_writer(&f, "ccnx:/test/single", &o);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, 10), 10);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    assert_int_equal(witness_len(&f, 0), 0);
    close_writer(&f);
}

/* Builds and parses an Interest for uri plus optional segment/selectors. */
struct interest {
    struct ccnx_buf buf;
    struct ccnx_interest_parsed pi;
};

static void make_interest(struct interest *it, const struct ccnx_name *prefix, int64_t segment,
                          int child_selector)
{
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_name_copy(&n, prefix), 0);
    if (segment >= 0) {
        assert_int_equal(ccnx_naming_append_segment(&n, (uint64_t)segment), 0);
    }
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ip.child_selector = child_selector;
    ccnx_buf_init(&it->buf);
    assert_int_equal(ccnx_interest_build(&it->buf, &ip), 0);
    assert_int_equal(ccnx_interest_parse(it->buf.data, it->buf.len, &it->pi), 0);
    ccnx_name_free(&n);
}

static int ask(struct fixture *f, const struct ccnx_name *prefix, int64_t segment, int child)
{
    struct interest it;
    make_interest(&it, prefix, segment, child);
    int rc = ccnx_seqwriter_interest(f->w, it.buf.data, it.buf.len, &it.pi);
    ccnx_buf_free(&it.buf);
    return rc;
}

/* The segment number of the last object the sink got. */
static uint64_t last_sent_segment(struct fixture *f)
{
    size_t off = 0, end = 0;
    while (off < f->sink.objs.len) {
        assert_int_equal(ccnx_ccnb_element_end(f->sink.objs.data, f->sink.objs.len, off, &end), 0);
        if (end == f->sink.objs.len) {
            break;
        }
        off = end;
    }
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(f->sink.objs.data + off, end - off, &pc), 0);
    uint64_t seg;
    const uint8_t *base = f->sink.objs.data + off;
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(base + pc.name.off, pc.name.len, &seg), 1);
    return seg;
}

static void test_answers_and_waiting(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 100;
    open_writer(&f, "ccnx:/test/live", &o);
    const struct ccnx_name *v = ccnx_seqwriter_name(f.w);

    /* Nothing written yet: the Interests are remembered, nothing is sent. */
    assert_int_equal(ask(&f, v, 1, -1), 1);
    assert_int_equal(ask(&f, &f.name, -1, -1), 1);
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.waiting, 2);
    assert_int_equal(f.sink.count, 0);

    /* Bytes for segment 0 only: the prefix Interest gets it at once. */
    static uint8_t in[450];
    fill(in, sizeof in, 4);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, 150), 150);
    assert_int_equal(f.sink.count, 1);
    assert_int_equal(last_sent_segment(&f), 0);
    /* Segment 1 complete: signed on demand (the batch is far from full). */
    assert_int_equal(ccnx_seqwriter_write(f.w, in + 150, 50), 50);
    assert_int_equal(f.sink.count, 2);
    assert_int_equal(last_sent_segment(&f), 1);
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.waiting, 0);

    /* Held segments are answered directly; other names are not ours. */
    assert_int_equal(ask(&f, v, 0, -1), 1);
    assert_int_equal(last_sent_segment(&f), 0);
    struct ccnx_name other;
    assert_int_equal(ccnx_name_init(&other), 0);
    assert_int_equal(ccnx_uri_parse_str(&other, "ccnx:/test/other"), 0);
    assert_int_equal(ask(&f, &other, 0, -1), 0);
    ccnx_name_free(&other);

    assert_int_equal(ccnx_seqwriter_write(f.w, in + 200, 250), 250);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    /* Rightmost under the version: the last segment; beyond it: nothing. */
    assert_int_equal(ask(&f, v, -1, 1), 1);
    assert_int_equal(last_sent_segment(&f), 4);
    assert_int_equal(ask(&f, v, 5, -1), 0);
    /* Leftmost under the unversioned prefix: segment 0. */
    assert_int_equal(ask(&f, &f.name, -1, 1), 1);
    assert_int_equal(last_sent_segment(&f), 0);
    assert_false(ccnx_seqwriter_all_sent(f.w));
    for (int64_t s = 2; s <= 4; s++) {
        assert_int_equal(ask(&f, v, s, -1), 1);
    }
    assert_true(ccnx_seqwriter_all_sent(f.w));
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.segments_sent, 5);
    close_writer(&f);
}

/* A reader and a writer sharing a stream buffer of 3000 bytes: an
 * Interest for every segment signed and not yet asked for (from *next on),
 * then as much more of in[0..n) (from *done) as write takes, until all of
 * it was taken. No write takes more than the limit, and no more than 8000
 * bytes of signed objects are held. */
static void drain_while_writing(struct fixture *f, const uint8_t *in, size_t n, size_t *done,
                                uint64_t *next)
{
    const struct ccnx_name *v = ccnx_seqwriter_name(f->w);
    for (int round = 0; round < 100 && *done < n; round++) {
        struct ccnx_seqwriter_stats st;
        ccnx_seqwriter_get_stats(f->w, &st);
        while (*next < st.segments) {
            assert_int_equal(ask(f, v, (int64_t)*next, -1), 1);
            (*next)++;
        }
        long took = ccnx_seqwriter_write(f->w, in + *done, n - *done);
        assert_true(took >= 0 && took <= 3000);
        *done += (size_t)took;
        ccnx_seqwriter_get_stats(f->w, &st);
        assert_true(st.buffered <= 8000);
    }
    assert_int_equal(*done, n);
}

static void test_back_pressure(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 1000;
    o.batch_max = 1;
    o.buffer_limit = 3000;
    open_writer(&f, "ccnx:/test/pressure", &o);
    const struct ccnx_name *v = ccnx_seqwriter_name(f.w);
    static uint8_t in[20000];
    fill(in, sizeof in, 5);
    size_t done = (size_t)ccnx_seqwriter_write(f.w, in, sizeof in);
    assert_int_equal(done, 3000);
    assert_int_equal(ccnx_seqwriter_write(f.w, in + done, sizeof in - done), 0);
    assert_int_equal(ccnx_seqwriter_writable(f.w), 0);

    /* Interests drain the buffer; sent objects are dropped beyond the limit. */
    uint64_t next = 0;
    drain_while_writing(&f, in, sizeof in, &done, &next);
    size_t len;
    assert_null(ccnx_seqwriter_segment(f.w, 0, &len));
    /* An evicted segment is not answered here (ccnd's store may have it). */
    assert_int_equal(ask(&f, v, 0, -1), 0);
    close_writer(&f);

    /* Keep-all mode never pushes back and never drops. */
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 1000;
    o.buffer_limit = 3000;
    o.keep_all = 1;
    open_writer(&f, "ccnx:/test/keep", &o);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, sizeof in), (long)sizeof in);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    for (int64_t s = 0; s < 20; s++) {
        assert_int_equal(ask(&f, ccnx_seqwriter_name(f.w), s, -1), 1);
    }
    assert_non_null(ccnx_seqwriter_segment(f.w, 0, &len));
    assert_true(ccnx_seqwriter_all_sent(f.w));
    close_writer(&f);
}

/* A writer made to keep everything (serving a file) turns into a stream
 * once a repository takes it: pushback and dropping from then on. */
static void test_keep_all_then_stream(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 1000;
    o.batch_max = 1;
    o.keep_all = 1;
    open_writer(&f, "ccnx:/test/tostream", &o);
    const struct ccnx_name *v = ccnx_seqwriter_name(f.w);
    static uint8_t in[20000];
    fill(in, sizeof in, 9);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, 5500), 5500);
    assert_int_equal(ccnx_seqwriter_set_stream(f.w, 999), CCNX_E_INVAL);
    assert_int_equal(ccnx_seqwriter_writable(f.w), SIZE_MAX);
    assert_int_equal(ccnx_seqwriter_set_stream(f.w, 3000), 0);
    /* 5500 bytes wait unsent: more than the limit, so nothing is taken */
    assert_int_equal(ccnx_seqwriter_write(f.w, in + 5500, sizeof in - 5500), 0);
    size_t done = 5500;
    uint64_t next = 0;
    drain_while_writing(&f, in, sizeof in, &done, &next);
    size_t len;
    assert_null(ccnx_seqwriter_segment(f.w, 0, &len)); /* sent, then dropped */
    /* Once everything was sent the final segment is still held, for the
     * writer's check that the repository has it. */
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(f.w, &st);
    while (next < st.segments) {
        assert_int_equal(ask(&f, v, (int64_t)next, -1), 1);
        next++;
    }
    assert_true(ccnx_seqwriter_all_sent(f.w));
    assert_int_equal(st.final_segment, 19);
    assert_non_null(ccnx_seqwriter_segment(f.w, 19, &len));
    close_writer(&f);

    /* Even when the last batch alone is over the limit. */
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 1000;
    o.batch_max = 8;
    o.keep_all = 1;
    open_writer(&f, "ccnx:/test/bigbatch", &o);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, 8000), 8000);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    assert_int_equal(ccnx_seqwriter_set_stream(f.w, 1000), 0);
    for (int64_t seg = 0; seg < 8; seg++) {
        assert_int_equal(ask(&f, ccnx_seqwriter_name(f.w), seg, -1), 1);
    }
    assert_true(ccnx_seqwriter_all_sent(f.w));
    assert_non_null(ccnx_seqwriter_segment(f.w, 7, &len));
    close_writer(&f);
}

/* Live mode: nobody asks, yet write always takes everything and only the
 * newest segments stay; a late Interest gets a recent segment. */
static void test_live_window(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 100;
    o.batch_max = 4;
    o.live_window = 10;
    open_writer(&f, "ccnx:/test/live", &o);
    static uint8_t in[150];
    fill(in, sizeof in, 11);
    for (int i = 0; i < 200; i++) {
        assert_int_equal(ccnx_seqwriter_writable(f.w), SIZE_MAX);
        assert_int_equal(ccnx_seqwriter_write(f.w, in, sizeof in), (long)sizeof in);
        assert_int_equal(ccnx_seqwriter_flush(f.w), 0);
    }
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.segments, 400); /* each flush: one full and one short */
    assert_int_equal(st.segments_sent, 0);
    size_t len, held = 0;
    for (uint64_t seg = 0; seg < 400; seg++) {
        held += ccnx_seqwriter_segment(f.w, seg, &len) != NULL;
    }
    /* the window, plus at most a batch that straddles its start */
    assert_true(held >= 10 && held < 10 + 4);
    assert_null(ccnx_seqwriter_segment(f.w, 0, &len));
    assert_non_null(ccnx_seqwriter_segment(f.w, 399, &len));
    assert_true(st.buffered < 14 * 1000);
    assert_int_equal(ask(&f, ccnx_seqwriter_name(f.w), 395, -1), 1);
    assert_int_equal(ask(&f, ccnx_seqwriter_name(f.w), 3, -1), 0);
    close_writer(&f);
}

/* Content length of a held segment, or -1 when not held. */
static long seg_len(struct fixture *f, uint64_t seg)
{
    size_t len;
    const uint8_t *obj = ccnx_seqwriter_segment(f->w, seg, &len);
    struct ccnx_content_parsed pc;
    if (obj == NULL || ccnx_content_parse(obj, len, &pc) != 0) {
        return -1;
    }
    return (long)pc.content_value.len;
}

/* end_segment cuts where asked, signs in batches (not at each cut), and a
 * close after it adds an empty final segment. */
static void test_end_segment(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 100;
    o.batch_max = 64;
    o.keep_all = 1;
    open_writer(&f, "ccnx:/test/cuts", &o);
    static uint8_t in[1000];
    fill(in, sizeof in, 13);
    /* 30 | 250 = 100 100 50 | 100 (exactly a block) | 0 (nothing to end) */
    assert_int_equal(ccnx_seqwriter_write(f.w, in, 30), 30);
    assert_int_equal(ccnx_seqwriter_end_segment(f.w), 0);
    assert_int_equal(ccnx_seqwriter_write(f.w, in + 30, 250), 250);
    assert_int_equal(ccnx_seqwriter_end_segment(f.w), 0);
    assert_int_equal(ccnx_seqwriter_write(f.w, in + 280, 100), 100);
    assert_int_equal(ccnx_seqwriter_end_segment(f.w), 0);
    assert_int_equal(ccnx_seqwriter_end_segment(f.w), 0);
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.batches, 0); /* no client, no timer: nothing signed yet */
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.batches, 1);
    assert_int_equal(st.final_segment, 5);
    const long want[] = {30, 100, 100, 50, 100, 0};
    for (uint64_t seg = 0; seg < 6; seg++) {
        assert_int_equal(seg_len(&f, seg), want[seg]);
    }
    struct ccnx_buf data = CCNX_BUF_INIT;
    for (uint64_t seg = 0; seg <= 5; seg++) {
        check_segment(&f, seg, seg == 5 ? 5 : -1, &data);
    }
    assert_int_equal(data.len, 380);
    assert_memory_equal(data.data, in, 380);
    ccnx_buf_free(&data);
    close_writer(&f);

    /* Without an explicit end, a stream ending on a block boundary makes
     * its last full block final, as before. */
    open_writer(&f, "ccnx:/test/nocut", &o);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, 200), 200);
    assert_int_equal(ccnx_seqwriter_close(f.w), 0);
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.final_segment, 1);
    close_writer(&f);
}

/* Viewers waiting for the same future segment cost one send: ccnd hands
 * that one object to all their pending Interests. */
static void test_waiting_viewers_one_send(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 100;
    open_writer(&f, "ccnx:/test/viewers", &o);
    const struct ccnx_name *v = ccnx_seqwriter_name(f.w);
    for (int viewer = 0; viewer < 5; viewer++) {
        assert_int_equal(ask(&f, v, 1, -1), 1); /* remembered */
    }
    assert_int_equal(f.sink.count, 0);
    static uint8_t in[250];
    fill(in, sizeof in, 17);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, sizeof in), (long)sizeof in);
    assert_int_equal(ccnx_seqwriter_flush(f.w), 0);
    assert_int_equal(f.sink.count, 1);
    assert_int_equal(last_sent_segment(&f), 1);
    /* a later Interest is answered again: it is a new request */
    assert_int_equal(ask(&f, v, 1, -1), 1);
    assert_int_equal(f.sink.count, 2);
    close_writer(&f);
}

/* Talking to a ccnd, an Interest for a segment sent moments ago is not
 * answered with a second copy: the first is on its way and satisfies it. */
static void test_no_resend_in_flight(void **state)
{
    (void)state;
    struct fixture f;
    struct ccnx_seqwriter_opts o;
    ccnx_seqwriter_opts_init(&o);
    o.block_size = 100;
    o.resend_ms = 60000; /* longer than this test runs */
    open_writer(&f, "ccnx:/test/inflight", &o);
    const struct ccnx_name *v = ccnx_seqwriter_name(f.w);
    static uint8_t in[250];
    fill(in, sizeof in, 5);
    assert_int_equal(ccnx_seqwriter_write(f.w, in, sizeof in), (long)sizeof in);
    assert_int_equal(ccnx_seqwriter_flush(f.w), 0);
    assert_int_equal(ask(&f, v, 1, -1), 1);
    assert_int_equal(f.sink.count, 1);
    assert_int_equal(ask(&f, v, 1, -1), 1); /* answered, no second copy */
    assert_int_equal(ask(&f, v, 0, -1), 1); /* another segment is sent */
    assert_int_equal(f.sink.count, 2);
    struct ccnx_seqwriter_stats st;
    ccnx_seqwriter_get_stats(f.w, &st);
    assert_int_equal(st.resends_avoided, 1);
    assert_int_equal(st.objects_sent, 2);
    close_writer(&f);
}

static void test_bad_options(void **state)
{
    (void)state;
    struct ccnx_seqwriter_opts o;
    struct ccnx_seqwriter *w = NULL;
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    ccnx_seqwriter_opts_init(&o);
    assert_int_equal(ccnx_seqwriter_create(NULL, &n, &o, &w), CCNX_E_INVAL); /* no put, no key */
    o.key = g_key;
    o.put = sink_put;
    o.block_size = CCNX_SEQWRITER_BLOCK_MAX + 1;
    assert_int_equal(ccnx_seqwriter_create(NULL, &n, &o, &w), CCNX_E_INVAL);
    o.block_size = 0;
    assert_int_equal(ccnx_seqwriter_create(NULL, &n, &o, &w), CCNX_E_INVAL);
    o.block_size = 100;
    o.batch_max = 0;
    assert_int_equal(ccnx_seqwriter_create(NULL, &n, &o, &w), CCNX_E_INVAL);
    assert_null(w);
    ccnx_name_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_segments_names_and_final),
        cmocka_unit_test(test_exact_multiple_and_empty),
        cmocka_unit_test(test_versioned_name_kept),
        cmocka_unit_test(test_batch_boundaries),
        cmocka_unit_test(test_answers_and_waiting),
        cmocka_unit_test(test_back_pressure),
        cmocka_unit_test(test_keep_all_then_stream),
        cmocka_unit_test(test_live_window),
        cmocka_unit_test(test_end_segment),
        cmocka_unit_test(test_waiting_viewers_one_send),
        cmocka_unit_test(test_no_resend_in_flight),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, setup_key, teardown_key);
}
