/* The fetcher against a real ccnd and a producer in another thread:
 * segmented content byte for byte, the end found from FinalBlockID, version
 * discovery, tampering, a missing segment, keys fetched by name, NACK and
 * GONE answers, the reference's own stream objects, loss (also before an
 * in-order writer, and one that pauses, read to its end or followed at its
 * live edge), whole objects
 * handed over (on_object), and a ccnd
 * restart in the middle of a transfer. */
#include "test_fetch_producer.h"

#include <poll.h>
#include <ccnx/key.h>
#include <ccnx/content_sign.h>
#include <ccnx/verifier.h>
#include <ccnx/resolve.h>
#include <ccnx/fetch.h>

static struct tu_ccnd ccnd;
static struct ccnx_key *key;

static int setup(void **state)
{
    (void)state;
    tf_ccnd_start(&ccnd, 0);
    tf_use_ccnd(&ccnd);
    return ccnx_key_generate(1024, &key) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ccnx_key_destroy(key);
    tf_ccnd_stop(&ccnd, 0);
    return 0;
}

struct fetch_run {
    struct tf_sink sink;
    struct ccnx_fetch_stats stats;
    struct ccnx_buf err;
    struct ccnx_verifier *v;
    int rc;
};

/* Fetches uri with a verifier (on unless verify == 0) through a new client. */
static void fetch_uri_as(struct fetch_run *r, const char *uri, int resolve, int timeout_ms,
                         int verify, int follows_live_edge)
{
    memset(r, 0, sizeof *r);
    struct ccnx_client *c = tf_open_client();
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    assert_int_equal(ccnx_verifier_create(c, &r->v), 0);
    ccnx_verifier_set_enabled(r->v, verify);
    struct ccnx_fetch_params p;
    ccnx_fetch_params_init(&p);
    p.name = &n;
    p.resolve = resolve;
    p.timeout_ms = timeout_ms;
    p.verifier = r->v;
    p.follows_live_edge = follows_live_edge;
    p.on_data = tf_sink_data;
    p.arg = &r->sink;
    r->rc = ccnx_fetch_run(c, &p, &r->stats, &r->err);
    ccnx_buf_cstr(&r->err);
    ccnx_name_free(&n);
    ccnx_verifier_destroy(r->v);
    r->v = NULL;
    ccnx_client_destroy(c);
}

static void fetch_uri(struct fetch_run *r, const char *uri, int resolve, int timeout_ms, int verify)
{
    fetch_uri_as(r, uri, resolve, timeout_ms, verify, 0);
}

static void fetch_run_free(struct fetch_run *r)
{
    ccnx_buf_free(&r->sink.data);
    ccnx_buf_free(&r->err);
}

static void publish(struct tf_producer *p, const char *uri, const uint8_t *data, size_t len,
                    size_t seg_size)
{
    struct ccnx_buf objs = CCNX_BUF_INIT;
    struct tf_stream s = {
        .uri = uri, .data = data, .len = len, .seg_size = seg_size, .batch = 16, .key = key};
    tf_make_stream(&s, &objs);
    tf_add(p, objs.data, objs.len);
    ccnx_buf_free(&objs);
}

static void test_multi_segment_byte_identical(void **state)
{
    (void)state;
    enum { LEN = 300 * 1024 + 77 };
    uint8_t *data = malloc(LEN);
    tf_random(data, LEN, 7);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    publish(&p, "ccnx:/fetch/multi", data, LEN, 4096);
    tf_producer_start(&p, "ccnx:/fetch/multi");
    struct fetch_run r;
    fetch_uri(&r, "ccnx:/fetch/multi", 1, 5000, 1);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.sink.data.len, LEN);
    assert_memory_equal(r.sink.data.data, data, LEN);
    assert_false(r.sink.out_of_order);
    /* 76 segments, the last one named by FinalBlockID */
    assert_int_equal(r.stats.segments, 76);
    assert_int_equal(r.stats.final_segment, 75);
    assert_int_equal(r.stats.bytes, LEN);
    assert_true(r.stats.elapsed_s > 0);
    fetch_run_free(&r);
    tf_producer_free(&p);
    free(data);
}

static void test_version_discovery_picks_newest(void **state)
{
    (void)state;
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    static const uint8_t v[3][7] = {{0xFD, 0x05, 0, 0, 0, 0, 0x10},
                                    {0xFD, 0x05, 0, 0, 0, 0, 0x30},
                                    {0xFD, 0x05, 0, 0, 0, 0, 0x20}};
    static const char *texts[3] = {"old version", "newest version", "middle version"};
    for (int i = 0; i < 3; i++) {
        struct ccnx_buf objs = CCNX_BUF_INIT;
        struct tf_stream s = {.uri = "ccnx:/fetch/versions",
                              .data = (const uint8_t *)texts[i],
                              .len = strlen(texts[i]),
                              .seg_size = 4,
                              .version = v[i],
                              .version_len = 7,
                              .batch = 8,
                              .key = key};
        tf_make_stream(&s, &objs);
        tf_add(&p, objs.data, objs.len);
        ccnx_buf_free(&objs);
    }
    tf_producer_start(&p, "ccnx:/fetch/versions");
    struct fetch_run r;
    fetch_uri(&r, "ccnx:/fetch/versions", 1, 5000, 1);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.sink.data.len, strlen(texts[1]));
    assert_memory_equal(r.sink.data.data, texts[1], strlen(texts[1]));
    fetch_run_free(&r);

    /* the synchronous resolver: extended by the newest version; a name that
     * already ends in a version is kept without asking */
    struct ccnx_client *c = tf_open_client();
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/fetch/versions"), 0);
    assert_int_equal(ccnx_resolve_version(c, &n, 0, 3000, NULL), 1);
    struct ccnx_comp last;
    assert_int_equal(ccnx_name_comp(&n, n.count - 1, &last), 0);
    assert_int_equal(last.n, 7);
    assert_memory_equal(last.p, v[1], 7);
    unsigned before = atomic_load(&p.interests);
    assert_int_equal(ccnx_resolve_version(c, &n, 0, 3000, NULL), 0);
    assert_int_equal(n.count, 3);
    assert_int_equal(atomic_load(&p.interests), before);
    /* nothing there: a clear failure */
    struct ccnx_buf err = CCNX_BUF_INIT;
    ccnx_name_truncate(&n, 0);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/fetch/nothing/here"), 0);
    assert_int_equal(ccnx_resolve_version(c, &n, 0, 300, &err), CCNX_E_NOTFOUND);
    assert_non_null(strstr(ccnx_buf_cstr(&err), "no content found under ccnx:/fetch/nothing/here"));
    ccnx_buf_free(&err);
    ccnx_name_free(&n);
    ccnx_client_destroy(c);
    tf_producer_free(&p);
}

static void test_tampered_segment_rejected(void **state)
{
    (void)state;
    enum { LEN = 20 * 1000 };
    uint8_t *data = malloc(LEN);
    tf_random(data, LEN, 11);
    struct ccnx_buf objs = CCNX_BUF_INIT;
    struct tf_stream s = {.uri = "ccnx:/fetch/tampered",
                          .data = data,
                          .len = LEN,
                          .seg_size = 1000,
                          .batch = 8,
                          .key = key};
    tf_make_stream(&s, &objs);
    /* flip one content byte of segment 3 after signing */
    size_t pos = 0, end = 0;
    for (int i = 0; i <= 3; i++) {
        pos = end;
        assert_int_equal(ccnx_ccnb_element_end(objs.data, objs.len, pos, &end), 0);
    }
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(objs.data + pos, end - pos, &pc), 0);
    objs.data[pos + pc.content_value.off + 10] ^= 0x01;
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    tf_add(&p, objs.data, objs.len);
    tf_producer_start(&p, "ccnx:/fetch/tampered");
    struct fetch_run r;
    fetch_uri(&r, "ccnx:/fetch/tampered", 1, 5000, 1);
    assert_int_equal(r.rc, CCNX_E_BADSIG);
    const char *e = ccnx_buf_cstr(&r.err);
    assert_non_null(strstr(e, "rejected: signature of ccnx:/fetch/tampered/"));
    assert_non_null(strstr(e, "/%00%03 does not verify with key"));
    assert_true(r.sink.data.len <= 3 * 1000); /* nothing at or after it */
    fetch_run_free(&r);
    /* with verification turned off the same content comes through */
    fetch_uri(&r, "ccnx:/fetch/tampered", 1, 5000, 0);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.sink.data.len, LEN);
    fetch_run_free(&r);
    tf_producer_free(&p);
    ccnx_buf_free(&objs);
    free(data);
}

static void test_missing_segment_times_out(void **state)
{
    (void)state;
    enum { LEN = 10 * 512 };
    uint8_t data[LEN];
    tf_random(data, LEN, 3);
    struct ccnx_buf objs = CCNX_BUF_INIT;
    struct tf_stream s = {.uri = "ccnx:/fetch/hole",
                          .data = data,
                          .len = LEN,
                          .seg_size = 512,
                          .batch = 4,
                          .key = key};
    tf_make_stream(&s, &objs);
    /* keep every object but segment 5 */
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    size_t pos = 0, end;
    for (int i = 0; pos < objs.len; i++, pos = end) {
        assert_int_equal(ccnx_ccnb_element_end(objs.data, objs.len, pos, &end), 0);
        if (i != 5) {
            tf_add(&p, objs.data + pos, end - pos);
        }
    }
    tf_producer_start(&p, "ccnx:/fetch/hole");
    int64_t t0 = ccnx_client_now_ms();
    struct fetch_run r;
    fetch_uri(&r, "ccnx:/fetch/hole", 1, 1500, 1);
    int64_t took = ccnx_client_now_ms() - t0;
    assert_int_equal(r.rc, CCNX_E_NOTFOUND);
    assert_non_null(
        strstr(ccnx_buf_cstr(&r.err), "timeout: no answer for segment 5 of ccnx:/fetch/hole/"));
    assert_int_equal(r.sink.data.len, 5 * 512); /* everything before the hole, in order */
    assert_true(took < 1500 + 4000 + 1000);
    assert_true(r.stats.retransmissions > 0);
    fetch_run_free(&r);
    tf_producer_free(&p);
    ccnx_buf_free(&objs);
}

/* A segment that never comes is asked for five times before the fetch
 * gives up, however long its timer has grown: the timers stop at a fifth
 * of timeout_ms. With the timer at 800 ms from the start (min_rto_ms) and
 * a 4 s timeout, the tries are at 0, 0.8, 1.6, 2.4 and 3.2 s; under the
 * plain 4 s ceiling the timer doubled to 1.6 and 3.2 s, three tries. */
static void test_silent_segment_tried_five_times(void **state)
{
    (void)state;
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    tf_producer_start(&p, "ccnx:/fetch/silent");
    struct ccnx_client *c = tf_open_client();
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/fetch/silent/%FD%01"), 0);
    struct ccnx_fetch_params fp;
    ccnx_fetch_params_init(&fp);
    fp.name = &n;
    fp.resolve = 0;
    fp.initial_window = 1;
    fp.timeout_ms = 4000;
    fp.min_rto_ms = 800;
    fp.on_data = tf_sink_data;
    struct tf_sink sink = {0};
    fp.arg = &sink;
    struct ccnx_fetch_stats st;
    struct ccnx_buf err = CCNX_BUF_INIT;
    assert_int_equal(ccnx_fetch_run(c, &fp, &st, &err), CCNX_E_NOTFOUND);
    assert_non_null(strstr(ccnx_buf_cstr(&err), "no answer for segment 0"));
    /* four at least: a timer that fires late may leave room for one less */
    unsigned seen = atomic_load(&p.interests);
    if (seen < 4) {
        fail_msg("the silent segment was asked for %u times within the timeout", seen);
    }
    ccnx_buf_free(&err);
    ccnx_buf_free(&sink.data);
    ccnx_name_free(&n);
    ccnx_client_destroy(c);
    tf_producer_free(&p);
}

static void test_keyname_key_fetched_by_name(void **state)
{
    (void)state;
    enum { LEN = 9000 };
    uint8_t data[LEN];
    tf_random(data, LEN, 5);
    struct ccnx_buf objs = CCNX_BUF_INIT;
    struct tf_stream s = {.uri = "ccnx:/fetch/keyed/file",
                          .data = data,
                          .len = LEN,
                          .seg_size = 1000,
                          .batch = 4,
                          .key = key,
                          .key_name_uri = "ccnx:/fetch/keyed/KEY"};
    tf_make_stream(&s, &objs);
    /* the key object: type KEY, content the DER public key */
    struct ccnx_name kn;
    ccnx_name_init(&kn);
    assert_int_equal(ccnx_uri_parse_str(&kn, "ccnx:/fetch/keyed/KEY"), 0);
    struct ccnx_content_params kp;
    ccnx_content_params_init(&kp);
    kp.name = kn.enc.data;
    kp.name_len = kn.enc.len;
    kp.type = CCNX_TYPE_KEY;
    kp.content = ccnx_key_der(key, &kp.content_len);
    assert_int_equal(ccnx_content_sign(&objs, &kp, key), 0);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    tf_add(&p, objs.data, objs.len);
    tf_producer_start(&p, "ccnx:/fetch/keyed");

    struct ccnx_client *c = tf_open_client();
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(c, &v), 0);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/fetch/keyed/file"), 0);
    struct tf_sink sink = {0};
    struct ccnx_fetch_params fp;
    ccnx_fetch_params_init(&fp);
    fp.name = &n;
    fp.verifier = v;
    fp.on_data = tf_sink_data;
    fp.arg = &sink;
    struct ccnx_buf err = CCNX_BUF_INIT;
    assert_int_equal(ccnx_fetch_run(c, &fp, NULL, &err), 0);
    assert_int_equal(sink.data.len, LEN);
    assert_memory_equal(sink.data.data, data, LEN);
    assert_int_equal(ccnx_verifier_stats(v)->keys_fetched, 1); /* once for all segments */
    ccnx_verifier_destroy(v);

    /* a key that nobody serves: the object is refused naming the key */
    ccnx_buf_reset(&objs);
    s.uri = "ccnx:/fetch/keyed/orphan";
    s.key_name_uri = "ccnx:/fetch/keyed/NOKEY";
    tf_make_stream(&s, &objs);
    assert_int_equal(ccnx_verifier_create(c, &v), 0);
    ccnx_verifier_set_key_timeout(v, 500);
    struct ccnx_content_parsed pc;
    size_t end;
    assert_int_equal(ccnx_ccnb_element_end(objs.data, objs.len, 0, &end), 0);
    assert_int_equal(ccnx_content_parse(objs.data, end, &pc), 0);
    assert_int_equal(ccnx_verifier_check_sync(v, objs.data, end, &pc, &err), CCNX_E_KEYNOTFOUND);
    assert_non_null(strstr(ccnx_buf_cstr(&err), "key ccnx:/fetch/keyed/NOKEY not found"));
    ccnx_verifier_destroy(v);
    ccnx_buf_free(&err);
    ccnx_buf_free(&sink.data);
    ccnx_name_free(&n);
    ccnx_name_free(&kn);
    ccnx_client_destroy(c);
    tf_producer_free(&p);
    ccnx_buf_free(&objs);
}

/* One object, synchronously and asynchronously: verified, tampered, absent. */
static void test_fetch_one_object(void **state)
{
    (void)state;
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    struct ccnx_buf objs = CCNX_BUF_INIT;
    tu_content(&objs, "ccnx:/fetch/one/good", "a good object", key);
    tf_add(&p, objs.data, objs.len);
    tu_content(&objs, "ccnx:/fetch/one/bad", "a bad object", key);
    objs.data[objs.len - 5] ^= 0x02; /* inside the content, after signing */
    tf_add(&p, objs.data, objs.len);
    tf_producer_start(&p, "ccnx:/fetch/one");
    struct ccnx_client *c = tf_open_client();
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(c, &v), 0);
    struct ccnx_buf msg = CCNX_BUF_INIT, obj = CCNX_BUF_INIT, err = CCNX_BUF_INIT;
    tu_interest(&msg, "ccnx:/fetch/one/good");
    assert_int_equal(ccnx_fetch_object(c, v, msg.data, msg.len, 3000, &obj, &err), 0);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
    assert_int_equal(pc.content_value.len, strlen("a good object"));
    tu_interest(&msg, "ccnx:/fetch/one/bad");
    assert_int_equal(ccnx_fetch_object(c, v, msg.data, msg.len, 3000, &obj, &err), CCNX_E_BADSIG);
    assert_non_null(
        strstr(ccnx_buf_cstr(&err), "signature of ccnx:/fetch/one/bad does not verify"));
    tu_interest(&msg, "ccnx:/fetch/one/absent");
    assert_int_equal(ccnx_fetch_object(c, v, msg.data, msg.len, 300, &obj, &err), CCNX_E_NOTFOUND);
    assert_non_null(
        strstr(ccnx_buf_cstr(&err), "no answer for ccnx:/fetch/one/absent within 300 ms"));
    assert_int_equal(ccnx_fetch_object(c, v, (const uint8_t *)"junk", 4, 300, &obj, &err),
                     CCNX_E_VALUE);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&err);
    ccnx_verifier_destroy(v);
    ccnx_client_destroy(c);
    tf_producer_free(&p);
    ccnx_buf_free(&objs);
}

static void typed_answer(uint32_t type, const char *uri, const char *want)
{
    struct ccnx_buf objs = CCNX_BUF_INIT;
    struct tf_stream s = {.uri = uri,
                          .data = (const uint8_t *)"",
                          .len = 0,
                          .seg_size = 100,
                          .batch = 1,
                          .type = type,
                          .key = key};
    tf_make_stream(&s, &objs);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    tf_add(&p, objs.data, objs.len);
    tf_producer_start(&p, uri);
    /* by version discovery, and by the versioned name directly */
    char versioned[200];
    snprintf(versioned, sizeof versioned, "%s/%%FD%%05%%00%%00%%00%%00%%01", uri);
    struct fetch_run r, rv;
    fetch_uri(&r, uri, 1, 3000, 1);
    fetch_uri(&rv, versioned, 0, 3000, 1);
    tf_producer_free(&p);
    assert_true(r.rc < 0 && rv.rc < 0);
    if (strstr(ccnx_buf_cstr(&r.err), want) == NULL) {
        fail_msg("expected '%s' in '%s'", want, ccnx_buf_cstr(&r.err));
    }
    if (strstr(ccnx_buf_cstr(&rv.err), want) == NULL) {
        fail_msg("expected '%s' in '%s'", want, ccnx_buf_cstr(&rv.err));
    }
    fetch_run_free(&r);
    fetch_run_free(&rv);
    ccnx_buf_free(&objs);
}

static void test_nack_and_gone(void **state)
{
    (void)state;
    typed_answer(CCNX_TYPE_NACK, "ccnx:/fetch/nacked", "the publisher answered NACK");
    typed_answer(CCNX_TYPE_GONE, "ccnx:/fetch/gone", "is GONE");
}

/* The reference's three stream segments, served as they are. */
static void test_reference_stream_vectors(void **state)
{
    (void)state;
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    struct ccnx_buf want = CCNX_BUF_INIT;
    static const char *files[] = {"co_stream_seg0.ccnb", "co_stream_seg1.ccnb",
                                  "co_stream_seg2.ccnb"};
    for (int i = 0; i < 3; i++) {
        struct ccnx_buf b = CCNX_BUF_INIT;
        tu_read_vector(files[i], &b);
        struct ccnx_content_parsed pc;
        assert_int_equal(ccnx_content_parse(b.data, b.len, &pc), 0);
        ccnx_buf_append(&want, b.data + pc.content_value.off, pc.content_value.len);
        tf_add(&p, b.data, b.len);
        ccnx_buf_free(&b);
    }
    tf_producer_start(&p, "ccnx:/example/vec/stream");
    struct fetch_run r;
    fetch_uri(&r, "ccnx:/example/vec/stream", 1, 5000, 1);
    if (r.rc != 0) {
        fail_msg("%s", ccnx_buf_cstr(&r.err));
    }
    assert_int_equal(r.sink.data.len, want.len);
    assert_int_equal(r.sink.data.len, 1024 + 1024 + 552);
    assert_memory_equal(r.sink.data.data, want.data, want.len);
    assert_int_equal(r.stats.final_segment, 2);
    fetch_run_free(&r);
    /* pinned to another publisher: rejected */
    struct ccnx_client *c = tf_open_client();
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(c, &v), 0);
    assert_int_equal(ccnx_verifier_pin(v, ccnx_key_digest(key)), 0);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/example/vec/stream"), 0);
    struct ccnx_fetch_params fp;
    ccnx_fetch_params_init(&fp);
    fp.name = &n;
    fp.verifier = v;
    struct ccnx_buf err = CCNX_BUF_INIT;
    assert_int_equal(ccnx_fetch_run(c, &fp, NULL, &err), CCNX_E_NOKEY);
    assert_non_null(strstr(ccnx_buf_cstr(&err), "rejected: publisher "));
    assert_non_null(strstr(ccnx_buf_cstr(&err), "is not a pinned publisher"));
    ccnx_buf_free(&err);
    ccnx_name_free(&n);
    ccnx_verifier_destroy(v);
    ccnx_client_destroy(c);
    ccnx_buf_free(&want);
    tf_producer_free(&p);
}

static void test_survives_loss(void **state)
{
    (void)state;
    enum { LEN = 2 * 1024 * 1024 };
    uint8_t *data = malloc(LEN);
    tf_random(data, LEN, 13);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    publish(&p, "ccnx:/fetch/lossy", data, LEN, 4096);
    p.loss_permille = 50;
    p.rng = 99;
    tf_producer_start(&p, "ccnx:/fetch/lossy");
    struct fetch_run r;
    fetch_uri(&r, "ccnx:/fetch/lossy", 1, 8000, 1);
    if (r.rc != 0) {
        fail_msg("%s", ccnx_buf_cstr(&r.err));
    }
    assert_int_equal(r.sink.data.len, LEN);
    assert_memory_equal(r.sink.data.data, data, LEN);
    assert_true(r.stats.retransmissions > 0);
    fetch_run_free(&r);
    tf_producer_free(&p);
    free(data);
}

/* A stream writer makes its segments in order: when the first Interest
 * for a segment is lost, the Interests for the segments after it wait in
 * ccnd until its retransmission is answered. They are not lost then, only
 * not made yet: the fetch sends nothing again but what its timers say. */
static void test_in_order_writer_after_a_loss(void **state)
{
    (void)state;
    enum { LEN = 400 * 1024 };
    uint8_t *data = malloc(LEN);
    tf_random(data, LEN, 29);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    publish(&p, "ccnx:/fetch/inorder", data, LEN, 1024);
    p.in_order = 1;
    p.drop_seg1 = 40 + 1;
    p.make_us = 1000;
    tf_producer_start(&p, "ccnx:/fetch/inorder");
    struct fetch_run r;
    fetch_uri(&r, "ccnx:/fetch/inorder/%FD%05%00%00%00%00%01", 0, 8000, 1);
    if (r.rc != 0) {
        fail_msg("%s", ccnx_buf_cstr(&r.err));
    }
    assert_int_equal(r.sink.data.len, LEN);
    assert_memory_equal(r.sink.data.data, data, LEN);
    /* Each Interest waiting beyond the loss is sent again only when its
     * own timer ends (about ten were sent again at once, before their
     * timers, when an answered retransmission made them count as lost).
     * Two are allowed: a consumer descheduled past its timers reads an
     * answer before its overdue timers run, and an Interest whose entry in
     * ccnd has already ended may then count as lost first. */
    assert_true(r.stats.timeouts >= 1);
    if (r.stats.retransmissions > r.stats.timeouts + 2) {
        fail_msg("%llu retransmissions, %llu on a timeout: segments waiting for the lost one "
                 "were taken as lost",
                 (unsigned long long)r.stats.retransmissions, (unsigned long long)r.stats.timeouts);
    }
    fetch_run_free(&r);
    tf_producer_free(&p);
    free(data);
}

/* A stream writer that pauses (the reference's ccnseqwriter turns its loop
 * every 100 ms): the Interests it holds time out while it is away. Read to
 * its end, they wait, they are not lost: the window stays as it was, so that
 * the writer finds Interests for what it makes next when it comes back (a
 * cut window sends none until answers come, and the writer stalls again).
 * A consumer following a live edge takes the same timeouts as losses and
 * cuts, so that few of its Interests run ahead of the newest segment. */
static void run_pausing_writer(const char *prefix, int follows_live_edge, struct fetch_run *r)
{
    enum { LEN = 400 * 1024 };
    uint8_t *data = malloc(LEN);
    tf_random(data, LEN, 31);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    publish(&p, prefix, data, LEN, 1024);
    p.in_order = 1;
    p.make_us = 200;
    p.stall_every = 150;
    p.stall_us = 300 * 1000; /* beyond the fetch's timer */
    tf_producer_start(&p, prefix);
    char uri[128];
    snprintf(uri, sizeof uri, "%s/%%FD%%05%%00%%00%%00%%00%%01", prefix);
    fetch_uri_as(r, uri, 0, 8000, 1, follows_live_edge);
    if (r->rc != 0) {
        fail_msg("%s", ccnx_buf_cstr(&r->err));
    }
    assert_int_equal(r->sink.data.len, LEN);
    assert_memory_equal(r->sink.data.data, data, LEN);
    assert_true(r->stats.timeouts >= 1); /* the pauses were longer than the timer */
    tf_producer_free(&p);
    free(data);
}

static void test_in_order_writer_pauses(void **state)
{
    (void)state;
    struct fetch_run r;
    run_pausing_writer("ccnx:/fetch/pauses", 0, &r);
    if (r.stats.window_cuts != 0) {
        fail_msg("%llu window cuts for %llu timeouts: Interests waiting at the writer were "
                 "taken as lost",
                 (unsigned long long)r.stats.window_cuts, (unsigned long long)r.stats.timeouts);
    }
    fetch_run_free(&r);
}

static void test_live_edge_cuts_at_pauses(void **state)
{
    (void)state;
    struct fetch_run r;
    run_pausing_writer("ccnx:/fetch/pauses-live", 1, &r);
    if (r.stats.window_cuts == 0) {
        fail_msg("no window cut for %llu timeouts beyond the live edge",
                 (unsigned long long)r.stats.timeouts);
    }
    fetch_run_free(&r);
}

/* on_object hands over each segment's whole signed object, in order and
 * before its content, also when losses made segments wait in the
 * reordering buffer: the objects are the published bytes exactly. */
struct object_sink {
    struct tf_sink sink;
    struct ccnx_buf objs;
    uint64_t next_seg, objects;
    int out_of_order, data_before_object;
};

static void object_sink_object(void *arg, uint64_t seg, const uint8_t *obj, size_t len)
{
    struct object_sink *o = arg;
    o->out_of_order |= seg != o->next_seg;
    o->next_seg = seg + 1;
    o->objects++;
    ccnx_buf_append(&o->objs, obj, len);
}

static void object_sink_data(void *arg, uint64_t seg, const uint8_t *p, size_t n)
{
    struct object_sink *o = arg;
    o->data_before_object |= seg + 1 != o->next_seg;
    tf_sink_data(&o->sink, seg, p, n);
}

static void test_on_object_whole_objects(void **state)
{
    (void)state;
    enum { LEN = 600 * 1024 + 5 };
    uint8_t *data = malloc(LEN);
    tf_random(data, LEN, 21);
    struct ccnx_buf objs = CCNX_BUF_INIT;
    struct tf_stream st = {.uri = "ccnx:/fetch/objects",
                           .data = data,
                           .len = LEN,
                           .seg_size = 4096,
                           .batch = 16,
                           .key = key};
    tf_make_stream(&st, &objs);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    tf_add(&p, objs.data, objs.len);
    p.loss_permille = 30;
    p.rng = 5;
    tf_producer_start(&p, "ccnx:/fetch/objects");
    struct ccnx_client *c = tf_open_client();
    struct ccnx_verifier *v;
    assert_int_equal(ccnx_verifier_create(c, &v), 0);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/fetch/objects"), 0);
    struct object_sink o;
    memset(&o, 0, sizeof o);
    struct ccnx_fetch_params fp;
    ccnx_fetch_params_init(&fp);
    fp.name = &n;
    fp.timeout_ms = 8000;
    fp.verifier = v;
    fp.on_data = object_sink_data;
    fp.on_object = object_sink_object;
    fp.arg = &o;
    struct ccnx_fetch_stats stats;
    struct ccnx_buf err = CCNX_BUF_INIT;
    int rc = ccnx_fetch_run(c, &fp, &stats, &err);
    if (rc != 0) {
        fail_msg("%s", ccnx_buf_cstr(&err));
    }
    assert_int_equal(o.objects, 151);
    assert_false(o.out_of_order);
    assert_false(o.data_before_object);
    assert_int_equal(o.objs.len, objs.len);
    assert_memory_equal(o.objs.data, objs.data, objs.len);
    assert_int_equal(o.sink.data.len, LEN);
    assert_memory_equal(o.sink.data.data, data, LEN);
    assert_int_equal(stats.bytes, LEN);
    ccnx_buf_free(&o.objs);
    ccnx_buf_free(&o.sink.data);
    ccnx_buf_free(&objs);
    ccnx_buf_free(&err);
    ccnx_name_free(&n);
    ccnx_verifier_destroy(v);
    ccnx_client_destroy(c);
    tf_producer_free(&p);
    free(data);
}

/* The asynchronous fetch in a foreign poll loop (as a GLib or ncurses
 * program drives it), paused from its data callback and resumed by a
 * timer: nothing is asked for while paused, and the bytes still match. */
struct paced {
    struct tf_sink sink;
    struct ccnx_client *c;
    struct ccnx_fetch *f;
    uint64_t interests_at_pause;
    int paused_once, resumed, done, result;
};

static void paced_resume(void *arg)
{
    struct paced *s = arg;
    /* Interests in flight when paused may still be answered, but none was added */
    assert_int_equal(ccnx_fetch_stats(s->f)->interests, s->interests_at_pause);
    s->resumed = 1;
    ccnx_fetch_resume(s->f);
}

static void paced_data(void *arg, uint64_t seg, const uint8_t *p, size_t n)
{
    struct paced *s = arg;
    tf_sink_data(&s->sink, seg, p, n);
    if (seg == 10 && !s->paused_once) {
        s->paused_once = 1;
        ccnx_fetch_pause(s->f);
        s->interests_at_pause = ccnx_fetch_stats(s->f)->interests;
        assert_int_equal(ccnx_client_schedule(s->c, 200, paced_resume, s, NULL), 0);
    }
}

static void paced_done(void *arg, int result, const char *error)
{
    (void)error;
    struct paced *s = arg;
    s->done = 1;
    s->result = result;
}

static void test_async_in_foreign_loop_with_pause(void **state)
{
    (void)state;
    enum { LEN = 120 * 1024 };
    uint8_t *data = malloc(LEN);
    tf_random(data, LEN, 29);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    publish(&p, "ccnx:/fetch/paced", data, LEN, 1024);
    tf_producer_start(&p, "ccnx:/fetch/paced");
    static struct paced s;
    memset(&s, 0, sizeof s);
    s.c = tf_open_client();
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/fetch/paced"), 0);
    struct ccnx_fetch_params fp;
    ccnx_fetch_params_init(&fp);
    fp.name = &n;
    fp.on_data = paced_data;
    fp.on_done = paced_done;
    fp.arg = &s;
    assert_int_equal(ccnx_fetch_start(s.c, &fp, &s.f), 0);
    int64_t end = ccnx_client_now_ms() + 10000;
    while (!s.done && ccnx_client_now_ms() < end) {
        struct pollfd pfd = {ccnx_client_fd(s.c), ccnx_client_poll_events(s.c), 0};
        int wait = ccnx_client_timeout_ms(s.c);
        poll(&pfd, pfd.fd >= 0 ? 1 : 0, wait < 0 || wait > 50 ? 50 : wait);
        ccnx_client_process(s.c);
    }
    assert_true(s.done && s.resumed);
    assert_int_equal(s.result, 0);
    assert_true(ccnx_fetch_done(s.f));
    assert_int_equal(s.sink.data.len, LEN);
    assert_memory_equal(s.sink.data.data, data, LEN);
    assert_true(ccnx_fetch_stats(s.f)->elapsed_s >= 0.2);
    ccnx_fetch_destroy(s.f);
    ccnx_client_destroy(s.c);
    ccnx_name_free(&n);
    ccnx_buf_free(&s.sink.data);
    tf_producer_free(&p);
    free(data);
}

struct restart_sink {
    struct tf_sink sink;
    int restarted;
};

static void restart_data(void *arg, uint64_t seg, const uint8_t *p, size_t n)
{
    struct restart_sink *s = arg;
    tf_sink_data(&s->sink, seg, p, n);
    if (seg == 20 && !s->restarted) {
        s->restarted = 1;
        tf_ccnd_crash(&ccnd);
        tf_ccnd_start(&ccnd, 0);
    }
}

static void test_ccnd_restart_mid_transfer(void **state)
{
    (void)state;
    enum { LEN = 200 * 1024 };
    uint8_t *data = malloc(LEN);
    tf_random(data, LEN, 17);
    static struct tf_producer p;
    memset(&p, 0, sizeof p);
    publish(&p, "ccnx:/fetch/restart", data, LEN, 1024);
    tf_producer_start(&p, "ccnx:/fetch/restart");
    struct ccnx_client *c = tf_open_client();
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, "ccnx:/fetch/restart"), 0);
    struct restart_sink rs = {0};
    struct ccnx_fetch_params fp;
    ccnx_fetch_params_init(&fp);
    fp.name = &n;
    fp.max_window = 8;
    fp.timeout_ms = 6000;
    fp.on_data = restart_data;
    fp.arg = &rs;
    struct ccnx_buf err = CCNX_BUF_INIT;
    int64_t t0 = ccnx_client_now_ms();
    int rc = ccnx_fetch_run(c, &fp, NULL, &err);
    assert_true(ccnx_client_now_ms() - t0 < 6000 + 8000);
    assert_true(rs.restarted);
    /* resumed after the reconnection, with nothing lost or repeated */
    if (rc != 0) {
        fail_msg("after the restart: %s", ccnx_buf_cstr(&err));
    }
    assert_int_equal(rs.sink.data.len, LEN);
    assert_memory_equal(rs.sink.data.data, data, LEN);
    assert_false(rs.sink.out_of_order);
    ccnx_buf_free(&err);
    ccnx_buf_free(&rs.sink.data);
    ccnx_name_free(&n);
    ccnx_client_destroy(c);
    tf_producer_free(&p);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_multi_segment_byte_identical, tf_cleanup),
        cmocka_unit_test_teardown(test_version_discovery_picks_newest, tf_cleanup),
        cmocka_unit_test_teardown(test_tampered_segment_rejected, tf_cleanup),
        cmocka_unit_test_teardown(test_missing_segment_times_out, tf_cleanup),
        cmocka_unit_test_teardown(test_silent_segment_tried_five_times, tf_cleanup),
        cmocka_unit_test_teardown(test_keyname_key_fetched_by_name, tf_cleanup),
        cmocka_unit_test_teardown(test_fetch_one_object, tf_cleanup),
        cmocka_unit_test_teardown(test_nack_and_gone, tf_cleanup),
        cmocka_unit_test_teardown(test_reference_stream_vectors, tf_cleanup),
        cmocka_unit_test_teardown(test_async_in_foreign_loop_with_pause, tf_cleanup),
        cmocka_unit_test_teardown(test_survives_loss, tf_cleanup),
        cmocka_unit_test_teardown(test_in_order_writer_after_a_loss, tf_cleanup),
        cmocka_unit_test_teardown(test_in_order_writer_pauses, tf_cleanup),
        cmocka_unit_test_teardown(test_live_edge_cuts_at_pauses, tf_cleanup),
        cmocka_unit_test_teardown(test_on_object_whole_objects, tf_cleanup),
        cmocka_unit_test_teardown(test_ccnd_restart_mid_transfer, tf_cleanup),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
