/* The chat's model without network or screen: safe text, message order and
 * duplicates, members and nicknames, the flood limit, the Exclude fences,
 * the wire format both ways, typed commands and the input line. */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include "chat_command.h"
#include "chat_model.h"
#include "chat_text.h"
#include "chat_wire.h"
#include "input_line.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>
#include <ccnx/utf8.h>

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static struct ccnx_key *g_key, *g_other;
static const uint64_t T0 = (uint64_t)1796400000 * 4096; /* December 2026 */

static int setup(void **state)
{
    (void)state;
    return ccnx_key_generate(1024, &g_key) || ccnx_key_generate(1024, &g_other);
}

static int teardown(void **state)
{
    (void)state;
    ccnx_key_destroy(g_key);
    ccnx_key_destroy(g_other);
    return 0;
}

static struct chat_comp ver(uint64_t ticks)
{
    struct chat_comp c;
    chat_comp_version(ticks, &c);
    return c;
}

static const uint8_t A[CHAT_DIGEST_LEN] = {1}, B[CHAT_DIGEST_LEN] = {2};

static int add(struct chat_model *m, uint64_t ticks, const uint8_t *pub, const char *text,
               int64_t now_ms)
{
    struct chat_comp v = ver(ticks);
    return chat_model_add(m, &v, pub, (const uint8_t *)text, strlen(text), CHAT_VERIFIED, 0, now_ms,
                          NULL);
}

/* ---- Text ---- */

static const char *sanitized(const char *in, size_t n, size_t max, struct ccnx_buf *b)
{
    ccnx_buf_reset(b);
    chat_text_sanitize((const uint8_t *)in, n, max, b);
    return (const char *)b->data;
}

static void test_sanitize(void **state)
{
    (void)state;
    struct ccnx_buf b;
    ccnx_buf_init(&b);
    assert_string_equal(sanitized("héllo ✓", strlen("héllo ✓"), 0, &b), "héllo ✓");
    assert_string_equal(sanitized("\x1b[31mred\x1b]0;t\x07", 14, 0, &b), "^[[31mred^[]0;t^G");
    assert_string_equal(sanitized("a\nb\tc\x7f", 6, 0, &b), "a^Jb c^?");
    assert_string_equal(sanitized("x\xc2\x9b"
                                  "1m",
                                  5, 0, &b),
                        "x<U+009B>1m"); /* C1 CSI */
    assert_string_equal(sanitized("\xe2\x80\xae"
                                  "abc",
                                  6, 0, &b),
                        "<U+202E>abc");
    assert_string_equal(sanitized("a\xef\xbb\xbf"
                                  "b",
                                  5, 0, &b),
                        "a<U+FEFF>b"); /* invisible: the same rule as the explorer's */
    /* Format characters (Cf): zero-width space and joiner, word joiner,
     * soft hyphen, a tag character; an emoji's presentation selector is
     * kept in running text (a name shows it, test_nicknames). */
    assert_string_equal(sanitized("a\xe2\x80\x8b"
                                  "b\xe2\x80\x8d"
                                  "c\xe2\x81\xa0"
                                  "d\xc2\xad"
                                  "e\xf3\xa0\x81\x81",
                                  20, 0, &b),
                        "a<U+200B>b<U+200D>c<U+2060>d<U+00AD>e<U+E0041>");
    assert_string_equal(sanitized("\xe2\x9d\xa4\xef\xb8\x8f", 6, 0, &b),
                        "\xe2\x9d\xa4\xef\xb8\x8f");
    assert_string_equal(sanitized("\xff\xc0\x80z", 4, 0, &b),
                        "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz");
    assert_string_equal(sanitized("\xed\xa0\x80", 3, 0, &b),
                        "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    assert_string_equal(sanitized("abcdef", 6, 3, &b), "abc" CHAT_TEXT_CUT_MARK);
    assert_string_equal(sanitized("a\0b", 3, 0, &b), "a^@b");
    ccnx_buf_free(&b);
}

/* ---- Model ---- */

static void test_order_and_duplicates(void **state)
{
    (void)state;
    struct chat_model *m = chat_model_create();
    assert_int_equal(add(m, T0 + 300, A, "third", 0), CHAT_ADD_NEW);
    assert_int_equal(add(m, T0 + 100, B, "first", 0), CHAT_ADD_NEW);
    assert_int_equal(add(m, T0 + 200, A, "second", 0), CHAT_ADD_NEW);
    assert_int_equal(add(m, T0 + 200, A, "second again", 0), CHAT_ADD_DUP);
    /* Same time, another publisher: a different message. */
    assert_int_equal(add(m, T0 + 200, B, "second by B", 0), CHAT_ADD_NEW);
    assert_int_equal(chat_model_count(m), 4);
    assert_string_equal(chat_model_msg(m, 0)->text, "first");
    assert_string_equal(chat_model_msg(m, 1)->text, "second");
    assert_string_equal(chat_model_msg(m, 2)->text, "second by B");
    assert_string_equal(chat_model_msg(m, 3)->text, "third");
    const struct chat_stats *st = chat_model_stats(m);
    assert_int_equal(st->duplicates, 1);
    assert_int_equal(st->reordered, 3);
    chat_model_destroy(m);
}

static void test_nicknames(void **state)
{
    (void)state;
    struct chat_model *m = chat_model_create();
    char buf[CHAT_NICK_MAX];
    add(m, T0, A, "hi", 0);
    assert_string_equal(chat_model_name(m, A, buf), "01000000"); /* as the C chat shows */
    struct chat_comp v1 = ver(T0 + 10), v0 = ver(T0 + 5);
    assert_int_equal(chat_model_set_nick(m, A, &v1, (const uint8_t *)"alice", 5, 0), 1);
    assert_string_equal(chat_model_name(m, A, buf), "alice");
    /* An older member object does not replace a newer one. */
    assert_int_equal(chat_model_set_nick(m, A, &v0, (const uint8_t *)"old", 3, 0), 0);
    assert_string_equal(chat_model_name(m, A, buf), "alice");
    /* Names are made inert and short. */
    struct chat_comp v2 = ver(T0 + 20);
    assert_int_equal(chat_model_set_nick(m, A, &v2, (const uint8_t *)"\x1b[2Jx", 5, 0), 1);
    assert_string_equal(chat_model_name(m, A, buf), "^[[2Jx");
    /* Invisible characters show: a zero-width space and a variation
     * selector make "alice" look like "alice" no more. */
    struct chat_comp v3 = ver(T0 + 30), v4 = ver(T0 + 40);
    assert_int_equal(chat_model_set_nick(m, A, &v3,
                                         (const uint8_t *)"ali\xe2\x80\x8b"
                                                          "ce",
                                         8, 0),
                     1);
    assert_string_equal(chat_model_name(m, A, buf), "ali<U+200B>ce");
    assert_int_equal(chat_model_set_nick(m, A, &v4, (const uint8_t *)"alice\xef\xb8\x8f", 8, 0), 1);
    assert_string_equal(chat_model_name(m, A, buf), "alice<U+FE0F>");
    /* Another key taking the same name: both show their key's first bytes. */
    struct chat_comp vb = ver(T0 + 50);
    assert_int_equal(chat_model_set_nick(m, A, &vb, (const uint8_t *)"bob", 3, 0), 1);
    assert_string_equal(chat_model_name(m, A, buf), "bob");
    add(m, T0 + 60, B, "hi", 0);
    assert_int_equal(chat_model_set_nick(m, B, &vb, (const uint8_t *)"bob", 3, 0), 1);
    char want[CHAT_NICK_MAX];
    snprintf(want, sizeof want, "bob~%02x%02x", A[0], A[1]);
    assert_string_equal(chat_model_name(m, A, buf), want);
    snprintf(want, sizeof want, "bob~%02x%02x", B[0], B[1]);
    assert_string_equal(chat_model_name(m, B, buf), want);
    struct chat_comp vb2 = ver(T0 + 70);
    assert_int_equal(chat_model_set_nick(m, B, &vb2, (const uint8_t *)"bobby", 5, 0), 1);
    assert_string_equal(chat_model_name(m, A, buf), "bob");
    /* The colour depends on the key only. */
    const struct chat_member *mb = chat_model_member(m, A, 0, 0);
    assert_non_null(mb);
    assert_int_equal(mb->colour, (A[0] ^ A[31]) % CHAT_COLOURS);
    chat_model_member_departed(m, A);
    chat_model_member_departed(m, B);
    assert_int_equal(chat_model_active_count(m, 0, 1000), 0);
    chat_model_destroy(m);
}

static void test_flood(void **state)
{
    (void)state;
    struct chat_model *m = chat_model_create();
    int shown = 0, starts = 0;
    for (int i = 0; i < 100; i++) {
        int rc = add(m, T0 + (uint64_t)i, B, "spam", 0); /* all at one instant */
        shown += rc == CHAT_ADD_NEW;
        starts += rc == CHAT_ADD_FLOOD_START;
    }
    assert_int_equal(shown, (int)CHAT_FLOOD_BURST);
    assert_int_equal(starts, 1);
    assert_int_equal(chat_model_stats(m)->hidden, 100 - (int)CHAT_FLOOD_BURST);
    /* A second later the bucket has refilled by the rate. */
    shown = 0;
    for (int i = 0; i < 100; i++)
        shown += add(m, T0 + 1000 + (uint64_t)i, B, "spam", 1000) == CHAT_ADD_NEW;
    assert_int_equal(shown, (int)CHAT_FLOOD_RATE);
    /* Someone else is not held back, and five a second is never a flood. */
    for (int i = 0; i < 50; i++)
        assert_int_equal(add(m, T0 + 5000 + (uint64_t)i, A, "ok", i * 200), CHAT_ADD_NEW);
    chat_model_destroy(m);
}

/* --flood: a limit of 0 shows everything; a rate of 0 never refills. */
static void test_flood_settings(void **state)
{
    (void)state;
    struct chat_model *m = chat_model_create();
    chat_model_set_flood(m, 0, 0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(add(m, T0 + (uint64_t)i, B, "spam", 0), CHAT_ADD_NEW);
    chat_model_set_flood(m, 5, 0);
    int shown = 0;
    for (int i = 0; i < 100; i++)
        shown += add(m, T0 + 100 + (uint64_t)i, B, "spam", i * 1000) == CHAT_ADD_NEW;
    assert_int_equal(shown, 5);
    chat_model_destroy(m);
}

static void test_live_exclude(void **state)
{
    (void)state;
    struct chat_model *m = chat_model_create();
    struct chat_exclude x;
    chat_model_live_exclude(m, T0, &x);
    assert_int_equal(x.has_fence, 0);
    assert_int_equal(x.n, 0);
    struct chat_comp up = ver(T0 + CHAT_FUTURE_TICKS);
    assert_int_equal(chat_comp_compare(&x.upper, &up), 0);
    /* The fence trails the newest by the skew; newer ones are listed. */
    for (uint64_t i = 0; i < 10; i++)
        add(m, T0 - 100 * 4096 + i * 4096, A, "old", 0);
    add(m, T0 - 10, A, "new", 0);
    add(m, T0 - 5, B, "newer", 0);
    chat_model_live_exclude(m, T0, &x);
    assert_int_equal(x.has_fence, 1);
    struct chat_comp fence = ver(T0 - 5 - CHAT_SKEW_TICKS);
    assert_int_equal(chat_comp_compare(&x.fence, &fence), 0);
    assert_int_equal(x.n, 2);
    /* Many recent versions: the fence moves up so at most the maximum are listed. */
    for (uint64_t i = 0; i < 3 * CHAT_EXCLUDE_MAX; i++)
        add(m, T0 - 1000 + i, B, "burst", (int64_t)i * 1000);
    chat_model_live_exclude(m, T0, &x);
    assert_int_equal(x.n, CHAT_EXCLUDE_MAX);
    for (size_t i = 0; i < x.n; i++)
        assert_true(chat_comp_compare(&x.fence, &x.list[i]) < 0);
    for (size_t i = 1; i < x.n; i++)
        assert_true(chat_comp_compare(&x.list[i - 1], &x.list[i]) < 0);
    /* A version from the far future neither moves the fence nor is listed. */
    struct chat_model *f = chat_model_create();
    add(f, T0 - 10, A, "now", 0);
    struct chat_comp future = ver(T0 + 10 * CHAT_FUTURE_TICKS);
    chat_model_seen(f, &future);
    chat_model_live_exclude(f, T0, &x);
    fence = ver(T0 - 10 - CHAT_SKEW_TICKS);
    assert_int_equal(chat_comp_compare(&x.fence, &fence), 0);
    assert_int_equal(x.n, 1);
    chat_model_destroy(f);
    chat_model_destroy(m);
}

static void test_history_exclude(void **state)
{
    (void)state;
    struct chat_model *m = chat_model_create();
    struct chat_exclude x;
    assert_int_equal(chat_model_history_exclude(m, &x), 0);
    add(m, T0 + 50, A, "b", 0);
    add(m, T0 + 40, A, "a", 0);
    struct chat_comp junk = {.len = 3, .b = {'x', 'y', 'z'}};
    chat_model_seen(m, &junk);
    assert_int_equal(chat_model_history_exclude(m, &x), 1);
    struct chat_comp oldest = ver(T0 + 40);
    assert_int_equal(chat_comp_compare(&x.upper, &oldest), 0);
    assert_int_equal(x.n, 1); /* the junk below stays excluded */
    assert_int_equal(chat_comp_compare(&x.list[0], &junk), 0);
    chat_model_destroy(m);
}

/* ---- Wire ---- */

static void parse_obj(const struct ccnx_buf *b, struct ccnx_content_parsed *pc)
{
    assert_int_equal(ccnx_content_parse(b->data, b->len, pc), 0);
}

static int matches(const struct ccnx_buf *interest, const struct ccnx_buf *obj)
{
    struct ccnx_interest_parsed pi;
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_interest_parse(interest->data, interest->len, &pi), 0);
    parse_obj(obj, &pc);
    return ccnx_match(interest->data, &pi, obj->data, obj->len, &pc, NULL);
}

static void test_wire_message(void **state)
{
    (void)state;
    struct ccnx_name room;
    ccnx_name_init(&room);
    assert_int_equal(ccnx_uri_parse_str(&room, "ccnx:/testroom1"), 0);
    struct ccnx_buf obj, i1, i2;
    ccnx_buf_init(&obj), ccnx_buf_init(&i1), ccnx_buf_init(&i2);
    struct chat_comp v;
    assert_int_equal(chat_wire_message(&obj, &room, T0, (const uint8_t *)"hi ✓", 6, -1, g_key, &v),
                     0);
    struct ccnx_content_parsed pc;
    parse_obj(&obj, &pc);
    /* <room>/%FD<version>/%00 with FinalBlockID %00 and the text as content. */
    struct ccnx_buf uri;
    ccnx_buf_init(&uri);
    ccnx_uri_append(&uri, obj.data + pc.name.off, pc.name.len);
    struct ccnx_buf want;
    ccnx_buf_init(&want);
    ccnx_buf_append_str(&want, "ccnx:/testroom1/");
    ccnx_uri_append_comp(&want, v.b, v.len);
    ccnx_buf_append_str(&want, "/%00");
    assert_string_equal(ccnx_buf_cstr(&uri), ccnx_buf_cstr(&want));
    assert_int_equal(pc.has_final_block_id, 1);
    assert_int_equal(pc.final_block_id.len, 1);
    assert_int_equal(obj.data[pc.final_block_id.off], 0);
    assert_memory_equal(obj.data + pc.content_value.off, "hi ✓", 6);
    assert_int_equal(ccnx_content_verify(obj.data, obj.len, &pc, g_key), 0);

    struct chat_wire_obj w;
    struct chat_comp first;
    int has_first;
    assert_int_equal(chat_wire_parse(&room, obj.data, &pc, &w, &first, &has_first), 0);
    assert_int_equal(w.kind, CHAT_WIRE_MESSAGE);
    assert_int_equal(chat_comp_compare(&w.version, &v), 0);
    assert_memory_equal(w.publisher, ccnx_key_digest(g_key), CHAT_DIGEST_LEN);
    assert_int_equal(w.text_len, 6);

    /* The first Interest (rightmost, nothing seen) wants it; one excluding
     * it does not; one fenced below it does. */
    struct chat_model *m = chat_model_create();
    struct chat_exclude x;
    chat_model_live_exclude(m, T0, &x);
    assert_int_equal(chat_wire_room_interest(&i1, &room, &x, 1, CHAT_FIRST_LIFETIME), 0);
    assert_true(matches(&i1, &obj));
    chat_model_seen(m, &v);
    chat_model_live_exclude(m, T0, &x);
    assert_int_equal(chat_wire_room_interest(&i2, &room, &x, 0, CHAT_LIVE_LIFETIME), 0);
    assert_false(matches(&i2, &obj));
    /* A later message passes that same Interest. */
    ccnx_buf_reset(&obj);
    assert_int_equal(chat_wire_message(&obj, &room, T0 + 1, (const uint8_t *)"x", 1, -1, g_key, &v),
                     0);
    assert_true(matches(&i2, &obj));
    /* The Java chat's Interest form (everything up to the last seen excluded). */
    struct ccnx_interest_params p;
    struct chat_comp last = ver(T0);
    struct ccnx_exclude_item items[2] = {{.kind = CCNX_EXCLUDE_ANY},
                                         {CCNX_EXCLUDE_COMPONENT, last.b, last.len}};
    ccnx_interest_params_init(&p);
    p.name = room.enc.data, p.name_len = room.enc.len, p.exclude = items, p.exclude_count = 2;
    ccnx_buf_reset(&i1);
    assert_int_equal(ccnx_interest_build(&i1, &p), 0);
    assert_true(matches(&i1, &obj));
    chat_model_destroy(m);
    ccnx_buf_free(&obj), ccnx_buf_free(&i1), ccnx_buf_free(&i2), ccnx_buf_free(&uri);
    ccnx_buf_free(&want);
    ccnx_name_free(&room);
}

static void test_wire_member(void **state)
{
    (void)state;
    struct ccnx_name room;
    ccnx_name_init(&room);
    ccnx_uri_parse_str(&room, "ccnx:/r");
    struct ccnx_buf obj, in;
    ccnx_buf_init(&obj), ccnx_buf_init(&in);
    struct chat_comp v;
    assert_int_equal(chat_wire_member(&obj, &room, T0, "alice", g_key, &v), 0);
    struct ccnx_content_parsed pc;
    parse_obj(&obj, &pc);
    struct chat_wire_obj w;
    struct chat_comp first;
    int has_first;
    assert_int_equal(chat_wire_parse(&room, obj.data, &pc, &w, &first, &has_first), 0);
    assert_int_equal(w.kind, CHAT_WIRE_MEMBER);
    assert_int_equal(w.text_len, 5);
    assert_int_equal(chat_wire_member_interest(&in, &room, ccnx_key_digest(g_key), NULL, 4096), 0);
    assert_true(matches(&in, &obj));
    ccnx_buf_reset(&in);
    assert_int_equal(chat_wire_member_interest(&in, &room, ccnx_key_digest(g_key), &v, 4096), 0);
    assert_false(matches(&in, &obj));

    /* A member object under someone else's key id is refused. */
    struct ccnx_name name;
    ccnx_name_init(&name);
    ccnx_name_copy(&name, &room);
    ccnx_name_append_str(&name, "members");
    ccnx_naming_append_keyid(&name, ccnx_key_digest(g_key));
    ccnx_name_append(&name, v.b, v.len);
    ccnx_naming_append_segment(&name, 0);
    struct ccnx_content_params cp;
    ccnx_content_params_init(&cp);
    cp.name = name.enc.data, cp.name_len = name.enc.len;
    cp.content = (const uint8_t *)"mallory", cp.content_len = 7;
    ccnx_buf_reset(&obj);
    assert_int_equal(ccnx_content_sign(&obj, &cp, g_other), 0);
    parse_obj(&obj, &pc);
    assert_int_equal(chat_wire_parse(&room, obj.data, &pc, &w, &first, &has_first), CCNX_E_VALUE);
    assert_int_equal(has_first, 1);
    assert_int_equal(first.len, 7);
    assert_memory_equal(first.b, "members", 7);
    ccnx_name_free(&name);

    /* Something else under the room: not a message, its component noted. */
    ccnx_name_init(&name);
    ccnx_name_copy(&name, &room);
    ccnx_name_append_str(&name, "junk");
    ccnx_name_append_str(&name, "x");
    cp.name = name.enc.data, cp.name_len = name.enc.len;
    ccnx_buf_reset(&obj);
    assert_int_equal(ccnx_content_sign(&obj, &cp, g_other), 0);
    parse_obj(&obj, &pc);
    assert_int_equal(chat_wire_parse(&room, obj.data, &pc, &w, &first, &has_first), CCNX_E_VALUE);
    assert_int_equal(first.len, 4);
    ccnx_name_free(&name);
    ccnx_buf_free(&obj), ccnx_buf_free(&in);
    ccnx_name_free(&room);
}

/* Two members sending in the same tick make two messages of one name: the
 * sibling Interest, excluding the digest of the one received, finds the
 * other and not the first. */
static void test_wire_sibling(void **state)
{
    (void)state;
    struct ccnx_name room;
    ccnx_name_init(&room);
    ccnx_uri_parse_str(&room, "ccnx:/r");
    struct ccnx_buf a, b, in;
    ccnx_buf_init(&a), ccnx_buf_init(&b), ccnx_buf_init(&in);
    struct chat_comp va, vb;
    assert_int_equal(chat_wire_message(&a, &room, T0, (const uint8_t *)"a", 1, -1, g_key, &va), 0);
    assert_int_equal(chat_wire_message(&b, &room, T0, (const uint8_t *)"b", 1, -1, g_other, &vb),
                     0);
    assert_int_equal(chat_comp_compare(&va, &vb), 0);
    uint8_t digests[2][32];
    assert_int_equal(ccnx_content_digest(a.data, a.len, digests[0]), 0);
    assert_int_equal(chat_wire_sibling_interest(&in, &room, &va, digests, 1, 2048), 0);
    assert_false(matches(&in, &a));
    assert_true(matches(&in, &b));
    assert_int_equal(ccnx_content_digest(b.data, b.len, digests[1]), 0);
    ccnx_buf_reset(&in);
    assert_int_equal(chat_wire_sibling_interest(&in, &room, &va, digests, 2, 2048), 0);
    assert_false(matches(&in, &a));
    assert_false(matches(&in, &b));
    ccnx_buf_free(&a), ccnx_buf_free(&b), ccnx_buf_free(&in);
    ccnx_name_free(&room);
}

/* ---- Typed lines ---- */

static void test_commands(void **state)
{
    (void)state;
    const char *arg;
    char l1[] = "hello  ", l2[] = "/me waves", l3[] = "/nick", l4[] = "//etc/passwd",
         l5[] = "/frob x", l6[] = "/quit", l7[] = "   ";
    assert_int_equal(chat_command_parse(l1, &arg), CHAT_CMD_SAY);
    assert_string_equal(arg, "hello");
    assert_int_equal(chat_command_parse(l2, &arg), CHAT_CMD_ME);
    assert_string_equal(arg, "waves");
    assert_int_equal(chat_command_parse(l3, &arg), CHAT_CMD_MISSING);
    assert_string_equal(arg, "nick");
    assert_int_equal(chat_command_parse(l4, &arg), CHAT_CMD_SAY);
    assert_string_equal(arg, "/etc/passwd");
    assert_int_equal(chat_command_parse(l5, &arg), CHAT_CMD_UNKNOWN);
    assert_string_equal(arg, "frob");
    assert_int_equal(chat_command_parse(l6, &arg), CHAT_CMD_QUIT);
    assert_int_equal(chat_command_parse(l7, &arg), CHAT_CMD_NONE);
}

static void type(struct input_line *in, const char *utf8)
{
    size_t n = strlen(utf8);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int k = ccnx_utf8_decode((const uint8_t *)utf8 + i, n - i, &cp);
        assert_true(k > 0);
        input_insert(in, cp);
        i += (size_t)k;
    }
}

static void assert_line(struct input_line *in, const char *want)
{
    char *s = input_text(in);
    assert_string_equal(s, want);
    free(s);
}

static void test_input_line(void **state)
{
    (void)state;
    static struct input_line in;
    input_init(&in);
    type(&in, "héllo wörld");
    input_left(&in), input_left(&in);
    input_backspace(&in);
    assert_line(&in, "héllo wöld");
    input_home(&in);
    type(&in, "¡");
    input_end(&in);
    input_kill_word(&in);
    assert_line(&in, "¡héllo ");
    assert_int_equal(input_insert(&in, 0x1b), -1); /* controls are keys, not text */
    input_home(&in), input_right(&in);
    input_kill_before(&in);
    assert_line(&in, "héllo ");
    free(input_take(&in));
    type(&in, "second");
    free(input_take(&in));
    type(&in, "draft");
    input_history_up(&in);
    assert_line(&in, "second");
    input_history_up(&in);
    assert_line(&in, "héllo ");
    input_history_down(&in), input_history_down(&in);
    assert_line(&in, "draft");
    input_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sanitize),     cmocka_unit_test(test_order_and_duplicates),
        cmocka_unit_test(test_nicknames),    cmocka_unit_test(test_flood),
        cmocka_unit_test(test_live_exclude), cmocka_unit_test(test_history_exclude),
        cmocka_unit_test(test_wire_message), cmocka_unit_test(test_wire_member),
        cmocka_unit_test(test_wire_sibling), cmocka_unit_test(test_commands),
        cmocka_unit_test(test_input_line),   cmocka_unit_test(test_flood_settings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
