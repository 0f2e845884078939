/* The reference forwarder's recorded answers: its content store held every
 * co_* object of the vectors plus DATA objects ccnx:/example/vec/sel/{a, b,
 * c, d, c/1}; each handwritten int_* Interest got the answer recorded in the
 * vectors' README. The same store and ccnx_match_pick must give the same
 * answers. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copied from the README ("ccnd answer"); NULL stands for NONE. */
static const struct {
    const char *file;
    const char *answer;
} answers[] = {
    {"int_all_fields.ccnb", "ccnx:/example/vec/sel/d"},
    {"int_answer_origin_kind.ccnb", "ccnx:/example/vec/data/hello"},
    {"int_answer_origin_kind_new.ccnb", NULL},
    {"int_binary_name.ccnb", "ccnx:/example/vec/bin/%00%01/%FF%FE%00/%C1.M.meta"},
    {"int_child_selector.ccnb", "ccnx:/example/vec/sel/d"},
    {"int_exclude_any.ccnb", "ccnx:/example/vec/sel/c/1"},
    {"int_exclude_any_after.ccnb", "ccnx:/example/vec/sel/b"},
    {"int_exclude_components.ccnb", "ccnx:/example/vec/sel/c/1"},
    {"int_lifetime.ccnb", "ccnx:/example/vec/data/hello"},
    {"int_name_only.ccnb", "ccnx:/example/vec/data/hello"},
    {"int_nonce.ccnb", "ccnx:/example/vec/data/hello"},
    {"int_publisher_digest.ccnb", "ccnx:/example/vec/data/hello"},
    {"int_publisher_digest_other.ccnb", NULL},
    {"int_scope.ccnb", "ccnx:/example/vec/data/hello"},
    {"int_scope2.ccnb", "ccnx:/example/vec/data/hello"},
    {"int_suffix_components.ccnb", "ccnx:/example/vec/sel/c/1"},
};
#define NANSWERS (sizeof answers / sizeof answers[0])

/* PublisherPublicKeyDigest of user_pubkey.pem, which int_all_fields selects on. */
static const char user_key_digest[] =
    "5faa76fdb1eed250dadad76193c57547c5a79152ed03b0a6c43ada91262b9bfc";

struct stored {
    struct ccnx_buf enc;
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
};

struct store {
    struct stored *objs;
    struct ccnx_match_candidate *c;
    size_t n, cap;
};

static struct stored *store_slot(struct store *s)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 32;
        s->objs = realloc(s->objs, s->cap * sizeof *s->objs);
        assert_non_null(s->objs);
    }
    struct stored *o = &s->objs[s->n++];
    ccnx_buf_init(&o->enc);
    return o;
}

static void store_finish_object(struct stored *o)
{
    assert_int_equal(ccnx_content_parse(o->enc.data, o->enc.len, &o->pc), 0);
    assert_int_equal(ccnx_content_digest(o->enc.data, o->enc.len, o->digest), 0);
}

/* A DATA object under ccnx:/example/vec/sel, built with the ccnb encoder.
 * The signature bits are arbitrary: matching never verifies signatures. */
static void add_sel_object(struct store *s, const char *const *tail, size_t ntail)
{
    static const uint8_t sig[128] = {0x01, 0x02, 0x03};
    static const uint8_t stamp[6] = {0x06, 0xb1, 0x12, 0x1d, 0x90, 0x00};
    struct ccnx_buf pub = CCNX_BUF_INIT;
    struct ccnx_name name;
    tu_hex(user_key_digest, &pub);
    assert_int_equal(ccnx_name_init(&name), 0);
    assert_int_equal(ccnx_uri_parse_str(&name, "ccnx:/example/vec/sel"), 0);
    for (size_t i = 0; i < ntail; i++) {
        assert_int_equal(ccnx_name_append_str(&name, tail[i]), 0);
    }
    struct stored *o = store_slot(s);
    struct ccnx_buf *b = &o->enc;
    ccnx_ccnb_open(b, CCNX_DTAG_ContentObject);
    ccnx_ccnb_open(b, CCNX_DTAG_Signature);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_SignatureBits, sig, sizeof sig);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, name.enc.data, name.enc.len);
    ccnx_ccnb_open(b, CCNX_DTAG_SignedInfo);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_PublisherPublicKeyDigest, pub.data, pub.len);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Timestamp, stamp, sizeof stamp);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, CCNX_DTAG_Content, tail[ntail - 1], strlen(tail[ntail - 1]));
    ccnx_ccnb_append_closer(b);
    assert_int_equal(ccnx_buf_status(b), 0);
    store_finish_object(o);
    ccnx_name_free(&name);
    ccnx_buf_free(&pub);
}

static void build_store(struct store *s)
{
    size_t count;
    char **files = tu_list_vectors(".ccnb", &count);
    size_t co = 0;
    for (size_t i = 0; i < count; i++) {
        if (strncmp(files[i], "co_", 3) != 0) {
            continue;
        }
        struct stored *o = store_slot(s);
        tu_read_vector(files[i], &o->enc);
        store_finish_object(o);
        co++;
    }
    tu_free_list(files, count);
    assert_int_equal(co, 18); /* every co_* object of the README */

    static const char *const a[] = {"a"}, *const b[] = {"b"}, *const c[] = {"c"},
                             *const d[] = {"d"}, *const c1[] = {"c", "1"};
    add_sel_object(s, a, 1);
    add_sel_object(s, b, 1);
    add_sel_object(s, c, 1);
    add_sel_object(s, d, 1);
    add_sel_object(s, c1, 2);

    s->c = calloc(s->n, sizeof *s->c);
    assert_non_null(s->c);
    for (size_t i = 0; i < s->n; i++) {
        s->c[i] = (struct ccnx_match_candidate){s->objs[i].enc.data, s->objs[i].enc.len,
                                                &s->objs[i].pc, s->objs[i].digest, 0};
    }
    qsort(s->c, s->n, sizeof *s->c, ccnx_match_candidate_compare);
}

static void free_store(struct store *s)
{
    for (size_t i = 0; i < s->n; i++) {
        ccnx_buf_free(&s->objs[i].enc);
    }
    free(s->objs);
    free(s->c);
}

static void pick_uri(const struct store *s, const char *file, struct ccnx_buf *out)
{
    struct ccnx_buf msg = CCNX_BUF_INIT;
    struct ccnx_interest_parsed pi;
    tu_read_vector(file, &msg);
    assert_int_equal(ccnx_interest_parse(msg.data, msg.len, &pi), 0);
    ssize_t i = ccnx_match_pick(s->c, s->n, msg.data, &pi);
    ccnx_buf_reset(out);
    if (i < 0) {
        ccnx_buf_append_str(out, "NONE");
    } else {
        const struct ccnx_match_candidate *c = &s->c[i];
        assert_true(ccnx_match(msg.data, &pi, c->buf, c->len, c->pc, NULL));
        assert_int_equal(ccnx_uri_append(out, c->buf + c->pc->name.off, c->pc->name.len), 0);
    }
    ccnx_buf_cstr(out);
    ccnx_buf_free(&msg);
}

static void test_recorded_answers(void **state)
{
    (void)state;
    struct store s = {0};
    struct ccnx_buf got = CCNX_BUF_INIT;
    build_store(&s);
    for (size_t k = 0; k < NANSWERS; k++) {
        const char *want = answers[k].answer ? answers[k].answer : "NONE";
        pick_uri(&s, answers[k].file, &got);
        if (strcmp((const char *)got.data, want) != 0) {
            fail_msg("%s: picked %s, the reference answered %s", answers[k].file,
                     (const char *)got.data, want);
        }
    }
    ccnx_buf_free(&got);
    free_store(&s);
}

/* The ccnls sequence of Interests (int_lib_ccnls_*) has no recorded answer,
 * but the same rules give each child in turn and then nothing. */
static void test_ccnls_sequence(void **state)
{
    (void)state;
    static const char *const seq[][2] = {
        {"int_lib_ccnls_0.ccnb", "ccnx:/example/vec/sel/a"},
        {"int_lib_ccnls_1.ccnb", "ccnx:/example/vec/sel/b"},
        {"int_lib_ccnls_2.ccnb", "ccnx:/example/vec/sel/c/1"},
        {"int_lib_ccnls_last.ccnb", "NONE"},
    };
    struct store s = {0};
    struct ccnx_buf got = CCNX_BUF_INIT;
    build_store(&s);
    for (size_t k = 0; k < 4; k++) {
        pick_uri(&s, seq[k][0], &got);
        assert_string_equal((const char *)got.data, seq[k][1]);
    }
    ccnx_buf_free(&got);
    free_store(&s);
}

/* Guards the table above against copying mistakes: every "ccnd answer" in
 * the README is in it, with the same text. */
static void test_table_matches_readme(void **state)
{
    (void)state;
    struct ccnx_buf readme = CCNX_BUF_INIT;
    tu_read_vector("README.md", &readme);
    const char *text = ccnx_buf_cstr(&readme);
    size_t found = 0;
    const char *line = text;
    while (line != NULL && *line != '\0') {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        char buf[1024];
        if (len < sizeof buf) {
            memcpy(buf, line, len);
            buf[len] = '\0';
            char file[128], ans[512];
            const char *tag = strstr(buf, "ccnd answer: `");
            if (strncmp(buf, "* `", 3) == 0 && tag != NULL &&
                sscanf(buf + 3, "%127[^`]", file) == 1 && sscanf(tag + 14, "%511[^`]", ans) == 1) {
                size_t k = 0;
                while (k < NANSWERS && strcmp(answers[k].file, file) != 0) {
                    k++;
                }
                if (k == NANSWERS) {
                    fail_msg("README answer for %s is missing from the table", file);
                }
                assert_string_equal(answers[k].answer ? answers[k].answer : "NONE", ans);
                found++;
            }
        }
        line = eol ? eol + 1 : NULL;
    }
    assert_int_equal(found, NANSWERS);
    ccnx_buf_free(&readme);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_matches_readme),
        cmocka_unit_test(test_recorded_answers),
        cmocka_unit_test(test_ccnls_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
