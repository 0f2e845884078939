/* Control message bodies and request names, against the reference's vectors. */
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <string.h>

static const char ccnd_a_hex[] = "0b24c197764e1a6465ebaf59756a4b5630eef6d9910a62011226811c82a4896f";

static void assert_view_hex(struct ccnx_view v, const char *hex)
{
    struct ccnx_buf want = CCNX_BUF_INIT;
    tu_hex(hex, &want);
    assert_non_null(v.p);
    assert_int_equal(v.n, want.len);
    assert_memory_equal(v.p, want.data, want.len);
    ccnx_buf_free(&want);
}

static void assert_name_uri(struct ccnx_view name, const char *uri)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    assert_int_equal(ccnx_uri_append(&b, name.p, name.n), 0);
    assert_string_equal(ccnx_buf_cstr(&b), uri);
    ccnx_buf_free(&b);
}

static void test_face_instances(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT, again = CCNX_BUF_INIT;
    struct ccnx_face_instance fi;
    tu_read_vector("ctl_newface_request_body.ccnb", &b);
    assert_int_equal(ccnx_face_instance_parse(b.data, b.len, &fi), 0);
    assert_true(ccnx_view_equals(fi.action, "newface"));
    assert_view_hex(fi.ccndid, ccnd_a_hex);
    assert_int_equal(fi.face_id, 0);
    assert_int_equal(fi.ip_proto, 17);
    assert_true(ccnx_view_equals(fi.host, "127.0.0.1"));
    assert_int_equal(fi.port, 19696);
    assert_null(fi.mcast_interface.p);
    assert_int_equal(fi.mcast_ttl, -1);
    assert_int_equal(fi.lifetime, 2147483647);
    assert_int_equal(ccnx_face_instance_build(&again, &fi), 0);
    assert_int_equal(again.len, b.len);
    assert_memory_equal(again.data, b.data, b.len);

    tu_read_vector("ctl_newface_reply_payload.ccnb", &b);
    assert_int_equal(ccnx_face_instance_parse(b.data, b.len, &fi), 0);
    assert_null(fi.action.p);
    assert_int_equal(fi.face_id, 64);
    ccnx_buf_reset(&again);
    assert_int_equal(ccnx_face_instance_build(&again, &fi), 0);
    assert_int_equal(again.len, b.len);
    assert_memory_equal(again.data, b.data, b.len);
    ccnx_buf_free(&b);
    ccnx_buf_free(&again);
}

static void test_forwarding_entries(void **state)
{
    (void)state;
    const struct {
        const char *file, *action, *uri;
        int64_t face_id, flags;
    } cases[] = {
        {"ctl_prefixreg_request_body.ccnb", "prefixreg", "ccnx:/example/vec/remote", 64, -1},
        {"ctl_prefixreg_reply_payload.ccnb", NULL, "ccnx:/example/vec/remote", 64, 3},
        {"ctl_selfreg_request_body.ccnb", "selfreg", "ccnx:/example/vec/tcp/item", -1, 3},
        {"ctl_selfreg_reply_payload.ccnb", NULL, "ccnx:/example/vec/tcp/item", -1, -1},
        {"ctl_unreg_request_body.ccnb", "unreg", "ccnx:/example/vec/other", 64, -1},
        {"ctl_unreg_reply_payload.ccnb", NULL, "ccnx:/example/vec/other", 64, -1},
    };
    struct ccnx_buf b = CCNX_BUF_INIT, again = CCNX_BUF_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ccnx_forwarding_entry fe;
        tu_read_vector(cases[i].file, &b);
        assert_int_equal(ccnx_forwarding_entry_parse(b.data, b.len, &fe), 0);
        if (cases[i].action != NULL) {
            assert_true(ccnx_view_equals(fe.action, cases[i].action));
        } else {
            assert_null(fe.action.p);
        }
        assert_name_uri(fe.name, cases[i].uri);
        assert_view_hex(fe.ccndid, ccnd_a_hex);
        if (cases[i].face_id >= 0) {
            assert_int_equal(fe.face_id, cases[i].face_id);
        }
        if (cases[i].flags >= 0) {
            assert_int_equal(fe.flags, cases[i].flags);
        }
        ccnx_buf_reset(&again);
        assert_int_equal(ccnx_forwarding_entry_build(&again, &fe), 0);
        assert_int_equal(again.len, b.len);
        assert_memory_equal(again.data, b.data, b.len);
    }
    ccnx_buf_free(&b);
    ccnx_buf_free(&again);
}

static void test_strategy_selection(void **state)
{
    (void)state;
    struct ccnx_name prefix;
    ccnx_name_init(&prefix);
    assert_int_equal(ccnx_uri_parse_str(&prefix, "ccnx:/video"), 0);
    struct ccnx_strategy_selection ss, back;
    ccnx_strategy_selection_init(&ss);
    ss.action = (struct ccnx_view){(const uint8_t *)"setstrategy", 11};
    ss.name = (struct ccnx_view){prefix.enc.data, prefix.enc.len};
    ss.strategy_id = (struct ccnx_view){(const uint8_t *)"loadsharing", 11};
    ss.parameters = (struct ccnx_view){(const uint8_t *)"a=1", 3};
    ss.lifetime = 300;
    struct ccnx_buf b = CCNX_BUF_INIT, again = CCNX_BUF_INIT;
    assert_int_equal(ccnx_strategy_selection_build(&b, &ss), 0);
    assert_int_equal(ccnx_strategy_selection_parse(b.data, b.len, &back), 0);
    assert_true(ccnx_view_equals(back.action, "setstrategy"));
    assert_true(ccnx_view_equals(back.strategy_id, "loadsharing"));
    assert_true(ccnx_view_equals(back.parameters, "a=1"));
    assert_int_equal(back.lifetime, 300);
    assert_name_uri(back.name, "ccnx:/video");
    assert_int_equal(ccnx_strategy_selection_build(&again, &back), 0);
    assert_int_equal(again.len, b.len);
    assert_memory_equal(again.data, b.data, b.len);
    /* StrategyID is at most 15 bytes, both ways. */
    ss.strategy_id = (struct ccnx_view){(const uint8_t *)"sixteen-letters!", 16};
    ccnx_buf_reset(&again);
    assert_int_equal(ccnx_strategy_selection_build(&again, &ss), CCNX_E_VALUE);
    ccnx_buf_free(&b);
    ccnx_buf_free(&again);
    ccnx_name_free(&prefix);
}

static void test_malformed_bodies(void **state)
{
    (void)state;
    struct ccnx_buf b = CCNX_BUF_INIT;
    struct ccnx_face_instance fi;
    struct ccnx_forwarding_entry fe;
    tu_read_vector("ctl_newface_request_body.ccnb", &b);
    for (size_t cut = 0; cut < b.len; cut++) {
        assert_true(ccnx_face_instance_parse(b.data, cut, &fi) < 0);
    }
    /* A ForwardingEntry is not a FaceInstance, and fields out of order are refused. */
    tu_read_vector("ctl_prefixreg_request_body.ccnb", &b);
    assert_int_equal(ccnx_face_instance_parse(b.data, b.len, &fi), CCNX_E_STRUCTURE);
    ccnx_buf_reset(&b); /* FaceID before Action */
    ccnx_ccnb_open(&b, CCNX_DTAG_ForwardingEntry);
    ccnx_ccnb_append_uint_element(&b, CCNX_DTAG_FaceID, 5);
    ccnx_ccnb_append_udata_element(&b, CCNX_DTAG_Action, "unreg", 5);
    ccnx_ccnb_append_closer(&b);
    assert_int_equal(ccnx_forwarding_entry_parse(b.data, b.len, &fe), CCNX_E_STRUCTURE);
    b.len -= 10; /* drop the 9-byte Action element and the closer: well formed again */
    ccnx_ccnb_append_closer(&b);
    assert_int_equal(ccnx_forwarding_entry_parse(b.data, b.len, &fe), 0);
    assert_int_equal(fe.face_id, 5);
    /* Port beyond 65535. */
    ccnx_face_instance_init(&fi);
    fi.port = 70000;
    assert_int_equal(ccnx_face_instance_build(&b, &fi), CCNX_E_VALUE);
    ccnx_buf_free(&b);
}

static void test_request_names(void **state)
{
    (void)state;
    const char *const verbs[] = {"newface", "prefixreg", "selfreg", "unreg"};
    struct ccnx_buf b = CCNX_BUF_INIT, payload = CCNX_BUF_INIT;
    for (size_t i = 0; i < 4; i++) {
        char file[64];
        snprintf(file, sizeof file, "ctl_%s_interest.ccnb", verbs[i]);
        tu_read_vector(file, &b);
        struct ccnx_interest_parsed pi;
        assert_int_equal(ccnx_interest_parse(b.data, b.len, &pi), 0);
        struct ccnx_mgmt_request req;
        assert_int_equal(ccnx_mgmt_request_parse(b.data + pi.name.off, pi.name.len, &req), 0);
        assert_view_hex(req.ccndid, ccnd_a_hex);
        assert_true(ccnx_view_equals(req.verb, verbs[i]));
        snprintf(file, sizeof file, "ctl_%s_request_payload.ccnb", verbs[i]);
        tu_read_vector(file, &payload);
        assert_int_equal(req.request.n, payload.len);
        assert_memory_equal(req.request.p, payload.data, payload.len);
        /* Building the name from its parts gives the Interest's name back. */
        struct ccnx_name n;
        ccnx_name_init(&n);
        assert_int_equal(
            ccnx_mgmt_request_name(&n, req.ccndid.p, verbs[i], payload.data, payload.len), 0);
        assert_int_equal(n.enc.len, pi.name.len);
        assert_memory_equal(n.enc.data, b.data + pi.name.off, pi.name.len);
        ccnx_name_free(&n);
    }
    /* Not requests: another first component, a short id, too many components. */
    struct ccnx_name n;
    struct ccnx_mgmt_request req;
    ccnx_name_init(&n);
    ccnx_uri_parse_str(&n, "ccnx:/example/vec/data/hello");
    assert_int_equal(ccnx_mgmt_request_parse(n.enc.data, n.enc.len, &req), CCNX_E_NOTFOUND);
    ccnx_uri_parse_str(&n, "ccnx:/ccnx/short/newface/x");
    assert_int_equal(ccnx_mgmt_request_parse(n.enc.data, n.enc.len, &req), CCNX_E_NOTFOUND);
    uint8_t id[32] = {1};
    assert_int_equal(ccnx_mgmt_request_name(&n, id, "getstrategy", NULL, 0), 0);
    assert_int_equal(ccnx_mgmt_request_parse(n.enc.data, n.enc.len, &req), 0);
    assert_null(req.request.p);
    ccnx_name_append_str(&n, "x");
    ccnx_name_append_str(&n, "y");
    assert_int_equal(ccnx_mgmt_request_parse(n.enc.data, n.enc.len, &req), CCNX_E_NOTFOUND);
    ccnx_name_free(&n);
    ccnx_buf_free(&b);
    ccnx_buf_free(&payload);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_face_instances),     cmocka_unit_test(test_forwarding_entries),
        cmocka_unit_test(test_strategy_selection), cmocka_unit_test(test_malformed_bodies),
        cmocka_unit_test(test_request_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
