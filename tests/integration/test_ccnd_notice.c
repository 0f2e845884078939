/* What ccnd publishes about itself besides its local KEY: face-status
 * notices (/ccnx/<ccndid>/notice.txt starts with a line for every face, then
 * gets a signed segment for each face that comes or goes) and its key for
 * neighbours under %C1.M.S.neighborhood. */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct tu_ccnd ccnd;

static int setup(void **state)
{
    (void)state;
    tu_ccnd_start(&ccnd, 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_ccnd_stop(&ccnd);
    return 0;
}

static void send_interest(int fd, const struct ccnx_name *n)
{
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n->enc.data;
    ip.name_len = n->enc.len;
    struct ccnx_buf msg = CCNX_BUF_INIT;
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    tu_send_all(fd, msg.data, msg.len);
    ccnx_buf_free(&msg);
}

/* Reads the next ContentObject (Interests are skipped), checks its
 * signature with the key it carries, and returns its text. */
static void next_text(int fd, struct ccnx_buf *obj, char *text, size_t room)
{
    struct ccnx_content_parsed pc;
    do {
        tu_read_element(fd, obj, "a notice segment");
    } while (ccnx_content_parse(obj->data, obj->len, &pc) != 0);
    struct ccnx_key *key = NULL;
    assert_int_equal(ccnx_content_locator_key(obj->data, &pc, &key), 0);
    assert_int_equal(ccnx_content_verify(obj->data, obj->len, &pc, key), 0);
    ccnx_key_destroy(key);
    size_t n = pc.content_value.len < room - 1 ? pc.content_value.len : room - 1;
    memcpy(text, obj->data + pc.content_value.off, n);
    text[n] = '\0';
}

static void test_notices(void **state)
{
    (void)state;
    int fd = tu_ccnd_connect(&ccnd);
    struct ccnx_buf obj = CCNX_BUF_INIT;
    tu_interest(&obj, "ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY");
    tu_send_all(fd, obj.data, obj.len);
    tu_read_element(fd, &obj, "ccnd's KEY");
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
    struct ccnx_name n;
    ccnx_name_init(&n);
    ccnx_name_append_str(&n, "ccnx");
    ccnx_name_append(&n, obj.data + pc.publisher.off, 32);
    ccnx_name_append_str(&n, "notice.txt");

    /* The first segment lists the faces there are, ours among them. */
    send_interest(fd, &n);
    char text[4096];
    next_text(fd, &obj, text, sizeof text);
    assert_non_null(strstr(text, "newface("));
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
    uint64_t seg = 99;
    assert_int_equal(ccnx_naming_last_is_segment_ccnb(obj.data + pc.name.off, pc.name.len, &seg),
                     1);
    assert_int_equal(seg, 0);
    struct ccnx_name versioned;
    ccnx_name_init(&versioned);
    ccnx_name_set_ccnb(&versioned, obj.data + pc.name.off, pc.name.len);
    ccnx_name_truncate(&versioned, versioned.count - 1);

    /* Ask for the next segment before it exists; a new face makes it. */
    struct ccnx_name next;
    ccnx_name_init(&next);
    ccnx_name_copy(&next, &versioned);
    ccnx_naming_append_segment(&next, 1);
    send_interest(fd, &next);
    int other = tu_ccnd_connect(&ccnd);
    next_text(fd, &obj, text, sizeof text);
    unsigned id = 0;
    assert_int_equal(sscanf(text, "newface(%u, 0x", &id), 1);

    ccnx_name_truncate(&next, next.count - 1);
    ccnx_naming_append_segment(&next, 2);
    send_interest(fd, &next);
    close(other);
    next_text(fd, &obj, text, sizeof text);
    char want[64];
    snprintf(want, sizeof want, "destroyface(%u);\n", id);
    assert_string_equal(text, want);

    close(fd);
    ccnx_name_free(&n);
    ccnx_name_free(&versioned);
    ccnx_name_free(&next);
    ccnx_buf_free(&obj);
}

static void test_neighborhood_key(void **state)
{
    (void)state;
    int fd = tu_ccnd_connect(&ccnd);
    struct ccnx_buf obj = CCNX_BUF_INIT, uri = CCNX_BUF_INIT;
    tu_interest(&obj, "ccnx:/%C1.M.S.neighborhood");
    tu_send_all(fd, obj.data, obj.len);
    tu_read_element(fd, &obj, "the neighbourhood KEY");
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(obj.data, obj.len, &pc), 0);
    assert_int_equal(pc.type, CCNX_TYPE_KEY);
    /* It carries the key that signed it. */
    struct ccnx_key *key = NULL;
    assert_int_equal(ccnx_key_from_der(obj.data + pc.content_value.off, pc.content_value.len, &key),
                     0);
    assert_int_equal(ccnx_content_verify(obj.data, obj.len, &pc, key), 0);
    ccnx_key_destroy(key);
    ccnx_uri_append(&uri, obj.data + pc.name.off, pc.name.len);
    assert_non_null(strstr(ccnx_buf_cstr(&uri), "ccnx:/%C1.M.S.neighborhood/%C1.M.SRV/ccnd/KEY/"));
    close(fd);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&uri);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_notices),
                                       cmocka_unit_test(test_neighborhood_key)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
