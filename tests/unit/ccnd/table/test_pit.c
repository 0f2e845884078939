/* The pending-Interest table: aggregation rule, downstream/upstream
 * records, matching content, expiry, face removal and the size limit. */
#include "testutil.h"

#include "table/pit.h"

#include <ccnx/ccnb.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <string.h>

struct msg {
    struct ccnx_buf b;
    struct ccnx_interest_parsed pi;
};

static void interest(struct msg *m, const char *uri, const char *nonce, int64_t lifetime, int scope,
                     int child)
{
    struct ccnx_name n;
    struct ccnx_interest_params p;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    ccnx_interest_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    p.nonce = (const uint8_t *)nonce;
    p.nonce_len = nonce ? strlen(nonce) : 0;
    p.lifetime_units = lifetime;
    p.scope = scope;
    p.child_selector = child;
    ccnx_buf_init(&m->b);
    assert_int_equal(ccnx_interest_build(&m->b, &p), 0);
    assert_int_equal(ccnx_interest_parse(m->b.data, m->b.len, &m->pi), 0);
    ccnx_name_free(&n);
}

static int ins(struct pit *pit, const char *uri, const char *nonce, int64_t lifetime, int scope,
               unsigned face, uint64_t now, struct pit_entry **e)
{
    struct msg m;
    interest(&m, uri, nonce, lifetime, scope, -1);
    int r = pit_insert(pit, m.b.data, m.b.len, &m.pi, face, now, e);
    ccnx_buf_free(&m.b);
    return r;
}

static void object(struct ccnx_buf *b, struct ccnx_content_parsed *pc, const char *uri)
{
    static const uint8_t sig[8] = {1}, pub[32] = {2}, stamp[6] = {3};
    struct ccnx_name n;
    assert_int_equal(ccnx_name_init(&n), 0);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    ccnx_buf_init(b);
    ccnx_ccnb_open(b, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(b, CCNX_DTAG_Signature);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SignatureBits, sig, sizeof sig);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, n.enc.data, n.enc.len);
    ccnx_ccnb_open(b, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_PublisherPublicKeyDigest, pub, 32);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, "x", 1);
    ccnx_ccnb_append_closer(b);
    assert_int_equal(ccnx_content_parse(b->data, b->len, pc), 0);
    ccnx_name_free(&n);
}

static void test_aggregation_rule(void **state)
{
    (void)state;
    struct pit *pit = pit_create(100);
    struct pit_entry *a, *b;
    assert_int_equal(ins(pit, "/a/b", "n1", 4096, -1, 1, 0, &a), PIT_NEW);
    /* Nonce and lifetime differ: the same entry. */
    assert_int_equal(ins(pit, "/a/b", "n2", 8192, -1, 2, 0, &b), PIT_AGGREGATED);
    assert_ptr_equal(a, b);
    assert_int_equal(ins(pit, "/a/b", NULL, -1, -1, 3, 0, &b), PIT_AGGREGATED);
    assert_ptr_equal(a, b);
    /* Scope differs: a different entry (it is part of the key). */
    assert_int_equal(ins(pit, "/a/b", "n3", 4096, 2, 1, 0, &b), PIT_NEW);
    assert_ptr_not_equal(a, b);
    /* A selector differs: a different entry. */
    struct msg m;
    interest(&m, "/a/b", "n4", 4096, -1, 1);
    assert_int_equal(pit_insert(pit, m.b.data, m.b.len, &m.pi, 1, 0, &b), PIT_NEW);
    assert_ptr_not_equal(a, b);
    ccnx_buf_free(&m.b);
    /* Records: three downstreams with their nonces and expiries. */
    size_t n;
    const struct pit_downstream *d = pit_entry_downstreams(a, &n);
    assert_int_equal(n, 3);
    assert_int_equal(d[0].faceid, 1);
    assert_int_equal(d[0].expires, 1000000);
    assert_int_equal(d[1].expires, 2000000);
    assert_int_equal(d[2].expires, 4000000); /* the default lifetime, 4 s */
    assert_int_equal(pit_entry_expires(a), 4000000);
    assert_true(pit_entry_has_nonce(a, (const uint8_t *)"n2", 2));
    assert_false(pit_entry_has_nonce(a, (const uint8_t *)"n3", 2));
    /* The same face again updates its record. */
    assert_int_equal(ins(pit, "/a/b", "n5", 4096, -1, 1, 10, &b), PIT_AGGREGATED);
    pit_entry_downstreams(a, &n);
    assert_int_equal(n, 3);
    assert_true(pit_entry_has_nonce(a, (const uint8_t *)"n5", 2));
    assert_false(pit_entry_has_nonce(a, (const uint8_t *)"n1", 2));
    /* Lookup without inserting. */
    interest(&m, "/a/b", "zz", 1, -1, -1);
    assert_ptr_equal(pit_find(pit, m.b.data, m.b.len, &m.pi), a);
    ccnx_buf_free(&m.b);
    /* Upstream sends, for RTT. */
    assert_int_equal(pit_entry_sent(pit, a, 9, 100), 0);
    assert_int_equal(pit_entry_sent(pit, a, 9, 300), 0);
    const struct pit_upstream *u = pit_entry_upstreams(a, &n);
    assert_int_equal(n, 1);
    assert_int_equal(u[0].sent, 300);
    assert_int_equal(u[0].attempts, 2);
    struct pit_stats st;
    pit_get_stats(pit, &st);
    assert_int_equal(st.entries, 3);
    assert_int_equal(st.aggregated, 3);
    /* A face that only received Interests (an upstream) closes: the
     * entries stay, and so does its upstream record (a face id is never
     * reused); a face with no record drops nothing. */
    assert_int_equal(pit_remove_face(pit, 9, NULL, NULL), 0);
    pit_entry_upstreams(a, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pit_remove_face(pit, 77, NULL, NULL), 0);
    assert_int_equal(pit_count(pit), 3);
    /* The owner slot. */
    assert_null(pit_entry_owner(a));
    pit_entry_set_owner(a, &n);
    assert_ptr_equal(pit_entry_owner(a), &n);
    pit_entry_set_owner(a, NULL);
    pit_destroy(pit);
}

static void test_match_content(void **state)
{
    (void)state;
    struct pit *pit = pit_create(100);
    struct pit_entry *e1, *e2, *e3, *e4, *out[8];
    struct ccnx_buf ob;
    struct ccnx_content_parsed pc;
    ins(pit, "/m", "1", 4096, -1, 1, 0, &e1);
    ins(pit, "/m/x", "2", 4096, -1, 2, 0, &e2);
    ins(pit, "/m/x/y", "3", 4096, -1, 3, 0, &e3);
    ins(pit, "/m/z", "4", 4096, -1, 4, 0, &e4);
    object(&ob, &pc, "/m/x");
    size_t n = pit_match(pit, ob.data, ob.len, &pc, NULL, out, 8);
    assert_int_equal(n, 2);
    assert_true((out[0] == e1 && out[1] == e2) || (out[0] == e2 && out[1] == e1));
    /* By digest: an Interest naming the object outright. */
    uint8_t dig[32];
    ccnx_content_digest(ob.data, ob.len, dig);
    struct ccnx_name nn;
    ccnx_name_init(&nn);
    ccnx_uri_parse_str(&nn, "/m/x");
    ccnx_name_append(&nn, dig, 32);
    struct ccnx_interest_params p;
    struct msg m;
    ccnx_interest_params_init(&p);
    p.name = nn.enc.data;
    p.name_len = nn.enc.len;
    ccnx_buf_init(&m.b);
    ccnx_interest_build(&m.b, &p);
    ccnx_interest_parse(m.b.data, m.b.len, &m.pi);
    struct pit_entry *ed;
    assert_int_equal(pit_insert(pit, m.b.data, m.b.len, &m.pi, 5, 0, &ed), PIT_NEW);
    assert_int_equal(pit_match(pit, ob.data, ob.len, &pc, dig, out, 1), 3); /* only 1 reported */
    /* Without the digest given, the PIT computes it for that Interest; one
     * naming another digest under the same name is not satisfied. */
    struct ccnx_name other;
    uint8_t zero[32] = {0};
    struct msg mo;
    struct pit_entry *eo;
    ccnx_name_init(&other);
    ccnx_uri_parse_str(&other, "/m/x");
    ccnx_name_append(&other, zero, 32);
    p.name = other.enc.data;
    p.name_len = other.enc.len;
    ccnx_buf_init(&mo.b);
    ccnx_interest_build(&mo.b, &p);
    ccnx_interest_parse(mo.b.data, mo.b.len, &mo.pi);
    assert_int_equal(pit_insert(pit, mo.b.data, mo.b.len, &mo.pi, 6, 0, &eo), PIT_NEW);
    assert_int_equal(pit_match(pit, ob.data, ob.len, &pc, NULL, out, 8), 3);
    for (size_t i = 0; i < 3; i++) {
        assert_true(out[i] == e1 || out[i] == e2 || out[i] == ed);
    }
    pit_consume(pit, eo);
    ccnx_buf_free(&mo.b);
    ccnx_name_free(&other);
    pit_consume(pit, e1);
    pit_consume(pit, e2);
    pit_consume(pit, ed);
    assert_int_equal(pit_match(pit, ob.data, ob.len, &pc, dig, out, 8), 0);
    struct pit_stats st;
    pit_get_stats(pit, &st);
    assert_int_equal(st.satisfied, 4);
    assert_int_equal(pit_count(pit), 2);
    (void)e3;
    (void)e4;
    ccnx_buf_free(&m.b);
    ccnx_name_free(&nn);
    ccnx_buf_free(&ob);
    pit_destroy(pit);
}

static void test_expiry_faces_limit(void **state)
{
    (void)state;
    struct pit *pit = pit_create(3);
    struct pit_entry *a, *b;
    ins(pit, "/e/1", "1", 4096, -1, 1, 0, &a);     /* expires at 1 s */
    ins(pit, "/e/1", "2", 3 * 4096, -1, 2, 0, &a); /* face 2 until 3 s */
    ins(pit, "/e/2", "3", 4096, -1, 1, 0, &b);
    assert_int_equal(pit_expire(pit, 500000), 0);
    assert_int_equal(pit_expire(pit, 1000000), 1); /* /e/2 gone, /e/1 keeps face 2 */
    size_t n;
    const struct pit_downstream *d = pit_entry_downstreams(a, &n);
    assert_int_equal(n, 1);
    assert_int_equal(d[0].faceid, 2);
    assert_int_equal(pit_count(pit), 1);
    /* The limit refuses new entries, not aggregation, even from a face
     * holding nothing (the faces differ so no share is reached first). */
    assert_int_equal(ins(pit, "/f/1", "4", 4096, -1, 1, 0, &b), PIT_NEW);
    assert_int_equal(ins(pit, "/f/2", "5", 4096, -1, 4, 0, &b), PIT_NEW);
    assert_int_equal(ins(pit, "/f/3", "6", 4096, -1, 5, 0, &b), CCNX_E_TOOBIG);
    assert_null(b);
    assert_int_equal(ins(pit, "/f/2", "7", 4096, -1, 3, 0, &b), PIT_AGGREGATED);
    struct pit_stats st;
    pit_get_stats(pit, &st);
    assert_int_equal(st.refused, 1);
    assert_int_equal(st.expired, 1);
    /* Face 1 closes: /f/1 goes, /f/2 keeps faces 3 and 4, /e/1 keeps face 2. */
    pit_entry_sent(pit, a, 1, 5);
    assert_int_equal(pit_remove_face(pit, 1, NULL, NULL), 1);
    assert_int_equal(pit_count(pit), 2);
    assert_int_equal(pit_expire(pit, 10000000), 2);
    assert_int_equal(pit_count(pit), 0);
    pit_destroy(pit);
}

static void test_many(void **state)
{
    (void)state;
    struct pit *pit = pit_create(PIT_DEFAULT_LIMIT);
    char uri[64];
    struct pit_entry *e, *out[4];
    for (int i = 0; i < 5000; i++) {
        snprintf(uri, sizeof uri, "/many/%d", i);
        assert_int_equal(ins(pit, uri, "n", 4096, -1, 1, 0, &e), PIT_NEW);
    }
    struct ccnx_buf ob;
    struct ccnx_content_parsed pc;
    object(&ob, &pc, "/many/1234/seg0");
    assert_int_equal(pit_match(pit, ob.data, ob.len, &pc, NULL, out, 4), 1);
    ccnx_buf_free(&ob);
    assert_int_equal(pit_expire(pit, 1000000), 5000);
    pit_destroy(pit);
}

struct hook_log {
    struct pit_entry *seen[8];
    size_t n;
};

static void log_expired(void *arg, struct pit_entry *e)
{
    struct hook_log *log = arg;
    if (log->n < 8) {
        log->seen[log->n] = e;
    }
    log->n++;
}

/* Expiry goes by each entry's earliest downstream: a refresh moves it
 * later, a longer-lived second downstream keeps the entry, and the hook
 * hears of exactly the entries dropped, in deadline order. */
static void test_expiry_order_and_hook(void **state)
{
    (void)state;
    struct pit *pit = pit_create(10);
    struct hook_log log = {{NULL}, 0};
    pit_set_expire_hook(pit, log_expired, &log);
    struct pit_entry *a, *b, *c;
    ins(pit, "/h/a", "1", 4096, -1, 1, 0, &a);     /* 1 s */
    ins(pit, "/h/b", "2", 2 * 4096, -1, 1, 0, &b); /* 2 s */
    ins(pit, "/h/c", "3", 4096, -1, 1, 0, &c);     /* 1 s, then face 2 until 3 s */
    ins(pit, "/h/c", "4", 3 * 4096, -1, 2, 0, &c);
    ins(pit, "/h/a", "5", 4 * 4096, -1, 1, 500000, &a); /* refreshed: 4.5 s */
    assert_int_equal(pit_expire(pit, 1000000), 0);      /* /h/c only loses face 1 */
    assert_int_equal(log.n, 0);
    size_t n;
    pit_entry_downstreams(c, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pit_expire(pit, 3000000), 2);
    assert_int_equal(log.n, 2);
    assert_ptr_equal(log.seen[0], b);
    assert_ptr_equal(log.seen[1], c);
    assert_int_equal(pit_count(pit), 1);
    /* A consumed entry never reaches the hook. */
    pit_consume(pit, a);
    assert_int_equal(pit_expire(pit, 10000000), 0);
    assert_int_equal(log.n, 2);
    pit_destroy(pit);
}

/* n distinct names /s/<tag>/<i> from one face; returns how many got an entry. */
static int flood(struct pit *pit, const char *tag, int n, unsigned face)
{
    int created = 0;
    for (int i = 0; i < n; i++) {
        char uri[64];
        struct pit_entry *e;
        snprintf(uri, sizeof uri, "/s/%s/%d", tag, i);
        int r = ins(pit, uri, tag, 4096, -1, face, 0, &e);
        assert_true(r == PIT_NEW || r == CCNX_E_TOOBIG);
        created += r == PIT_NEW;
    }
    return created;
}

/* Once the table is half full a face holding limit / (faces + 1) records
 * gets no new entry, a face holding none always does while there is room,
 * aggregation is never refused, and the counts follow expiry, content and
 * closed faces. */
static void test_face_share(void **state)
{
    (void)state;
    struct pit *pit = pit_create(10);
    assert_int_equal(flood(pit, "a", 50, 1), 5); /* alone: half the table */
    assert_int_equal(pit_face_pending(pit, 1), 5);
    assert_int_equal(flood(pit, "b", 50, 2), 3); /* two faces: 10 / 3 each */
    struct pit_entry *e;
    assert_int_equal(ins(pit, "/s/b/0", "x", 4096, -1, 1, 0, &e), PIT_AGGREGATED);
    assert_int_equal(pit_face_pending(pit, 1), 6);
    assert_int_equal(flood(pit, "c", 50, 3), 2); /* up to the limit itself */
    assert_int_equal(pit_count(pit), 10);
    assert_int_equal(flood(pit, "d", 5, 4), 0); /* the limit refuses even a newcomer */
    struct pit_stats st;
    pit_get_stats(pit, &st);
    assert_int_equal(st.refused, 45 + 47 + 48 + 5);
    assert_int_equal(st.refused_share, 45 + 47 + 48);
    assert_int_equal(st.pending, 6 + 3 + 2);
    /* Content takes /s/b/0 (faces 1 and 2), a closed face its records. */
    assert_int_equal(ins(pit, "/s/b/0", "y", 4096, -1, 2, 0, &e), PIT_AGGREGATED);
    pit_consume(pit, e);
    assert_int_equal(pit_face_pending(pit, 1), 5);
    assert_int_equal(pit_face_pending(pit, 2), 2);
    uint64_t visits = st.face_visits;
    assert_int_equal(pit_remove_face(pit, 1, NULL, NULL), 5);
    pit_get_stats(pit, &st);
    assert_int_equal(st.face_visits - visits, 5); /* its own entries, not the table */
    assert_int_equal(pit_face_pending(pit, 1), 0);
    assert_int_equal(flood(pit, "e", 1, 1), 1);
    assert_int_equal(pit_expire(pit, 2000000), 5);
    pit_get_stats(pit, &st);
    assert_int_equal(st.pending, 0);
    assert_int_equal(pit_face_pending(pit, 2) + pit_face_pending(pit, 3), 0);
    assert_int_equal(flood(pit, "f", 50, 3), 5); /* alone again: half */
    pit_destroy(pit);
}

/* Each face's list links downstream records, which move when an entry's
 * array grows and when a record before them is dropped: the lists must
 * follow every move, or a closing face would miss records or touch freed
 * ones (the sanitizer build checks the latter). */
static void test_face_lists_follow_moves(void **state)
{
    (void)state;
    struct pit *pit = pit_create(1000);
    struct pit_entry *e;
    for (int i = 0; i < 20; i++) {
        char uri[32], nonce[16];
        snprintf(uri, sizeof uri, "/m/%d", i);
        for (unsigned k = 0; k < 5; k++) {
            unsigned face = 1 + (k + (unsigned)i) % 5; /* each entry its own order */
            snprintf(nonce, sizeof nonce, "%d.%u", i, face);
            int64_t life = face == 3 ? 4096 : 4 * 4096; /* face 3's go first */
            assert_int_equal(ins(pit, uri, nonce, life, -1, face, 0, &e),
                             k == 0 ? PIT_NEW : PIT_AGGREGATED);
        }
    }
    assert_int_equal(pit_expire(pit, 2000000), 0); /* drops face 3's records only */
    assert_int_equal(pit_face_pending(pit, 3), 0);
    struct pit_stats st;
    static const unsigned order[] = {2, 5, 1, 3, 4};
    for (size_t f = 0; f < 5; f++) {
        pit_get_stats(pit, &st);
        uint64_t visits = st.face_visits;
        size_t want = order[f] == 3 ? 0 : 20;
        assert_int_equal(pit_face_pending(pit, order[f]), want);
        assert_int_equal(pit_remove_face(pit, order[f], NULL, NULL), f == 4 ? 20 : 0);
        pit_get_stats(pit, &st);
        assert_int_equal(st.face_visits - visits, want);
        assert_int_equal(pit_face_pending(pit, order[f]), 0);
    }
    assert_int_equal(pit_count(pit), 0);
    pit_get_stats(pit, &st);
    assert_int_equal(st.pending, 0);
    pit_destroy(pit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expiry_order_and_hook),
        cmocka_unit_test(test_aggregation_rule),
        cmocka_unit_test(test_match_content),
        cmocka_unit_test(test_expiry_faces_limit),
        cmocka_unit_test(test_many),
        cmocka_unit_test(test_face_share),
        cmocka_unit_test(test_face_lists_follow_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
