/* End to end through a real ccnd process: a producer and a consumer speak
 * exactly the messages the reference's ccnpoke and ccnpeek sent in the
 * vectors (stream_unix_*), over ccnd's unix socket, and get the answers the
 * reference forwarder gave, in structure and bytes where they are
 * deterministic; and a control request replayed on another face is
 * answered for that face. */
#include "ccndtest.h"
#include "testutil.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/interest.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct tu_ccnd ccnd;

static int start_ccnd(void **state)
{
    (void)state;
    tu_ccnd_start(&ccnd, 0);
    return 0;
}

static int stop_ccnd(void **state)
{
    (void)state;
    tu_ccnd_stop(&ccnd); /* also checks a clean SIGTERM shutdown */
    return 0;
}

/* The i-th element of a vector stream file. */
static void vector_element(const char *file, int index, struct ccnx_buf *out)
{
    struct ccnx_buf all = CCNX_BUF_INIT;
    tu_read_vector(file, &all);
    size_t pos = 0, end = 0;
    for (int i = 0; i <= index; i++) {
        assert_int_equal(ccnx_ccnb_element_end(all.data, all.len, pos, &end), 0);
        if (i < index) {
            pos = end;
        }
    }
    ccnx_buf_reset(out);
    ccnx_buf_append(out, all.data + pos, end - pos);
    ccnx_buf_free(&all);
}

static void test_producer_consumer(void **state)
{
    (void)state;
    struct ccnx_buf msg = CCNX_BUF_INIT, got = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    int producer = tu_ccnd_connect(&ccnd);

    /* 1. The KEY Interest gets ccnd's KEY object; its digest is the ccndid. */
    vector_element("stream_unix_producer_to_ccnd.ccnb", 0, &msg);
    tu_send_all(producer, msg.data, msg.len);
    tu_read_element(producer, &got, "KEY object");
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(got.data, got.len, &pc), 0);
    assert_true(pc.type == CCNX_TYPE_KEY);
    uint8_t ccndid[32];
    assert_int_equal(pc.publisher.len, 32);
    memcpy(ccndid, got.data + pc.publisher.off, 32);

    /* 2. The producer's selfreg: the reference client's own signed request,
     * taken from its Interest and addressed to this ccnd's id. */
    vector_element("stream_unix_producer_to_ccnd.ccnb", 1, &want);
    struct ccnx_interest_parsed spi;
    struct ccnx_mgmt_request req;
    assert_int_equal(ccnx_interest_parse(want.data, want.len, &spi), 0);
    assert_int_equal(ccnx_mgmt_request_parse(want.data + spi.name.off, spi.name.len, &req), 0);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_mgmt_request_name(&n, ccndid, "selfreg", req.request.p, req.request.n),
                     0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ccnx_buf_reset(&msg);
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    tu_send_all(producer, msg.data, msg.len);
    tu_read_element(producer, &got, "selfreg reply");
    assert_int_equal(ccnx_content_parse(got.data, got.len, &pc), 0);
    assert_true(pc.type == CCNX_TYPE_DATA);
    struct ccnx_forwarding_entry fe;
    assert_int_equal(
        ccnx_forwarding_entry_parse(got.data + pc.content_value.off, pc.content_value.len, &fe), 0);
    assert_int_equal(fe.flags, CCNX_FORW_DEFAULT);

    /* 3. The consumer's Interest reaches the producer with a Nonce added. */
    int consumer = tu_ccnd_connect(&ccnd);
    vector_element("stream_unix_consumer_to_ccnd.ccnb", 0, &msg);
    tu_send_all(consumer, msg.data, msg.len);
    tu_read_element(producer, &got, "forwarded Interest");
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_interest_parse(got.data, got.len, &pi), 0);
    assert_true(pi.nonce.len > 0);
    vector_element("stream_unix_ccnd_to_producer.ccnb", 2, &want);
    struct ccnx_interest_parsed wpi;
    assert_int_equal(ccnx_interest_parse(want.data, want.len, &wpi), 0);
    assert_int_equal(pi.name.len, wpi.name.len);
    assert_memory_equal(got.data + pi.name.off, want.data + wpi.name.off, pi.name.len);

    /* 4. The producer's ContentObject reaches the consumer byte for byte. */
    vector_element("stream_unix_producer_to_ccnd.ccnb", 2, &msg);
    tu_send_all(producer, msg.data, msg.len);
    tu_read_element(consumer, &got, "ContentObject for the consumer");
    vector_element("stream_unix_ccnd_to_consumer.ccnb", 0, &want);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);

    /* 5. A second consumer now gets it from ccnd's content store. */
    int again = tu_ccnd_connect(&ccnd);
    vector_element("stream_unix_consumer_to_ccnd.ccnb", 0, &msg);
    tu_send_all(again, msg.data, msg.len);
    tu_read_element(again, &got, "ContentObject from the store");
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);

    close(again);
    close(consumer);
    close(producer);
    ccnx_name_free(&n);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&got);
    ccnx_buf_free(&want);
}

/* The reference client's signed selfreg, sent on fd as an Interest to
 * this ccnd (its id from the KEY object): the FaceID the reply names. */
static long selfreg_face(int fd)
{
    struct ccnx_buf msg = CCNX_BUF_INIT, got = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    vector_element("stream_unix_producer_to_ccnd.ccnb", 0, &msg);
    tu_send_all(fd, msg.data, msg.len);
    tu_read_element(fd, &got, "KEY object");
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(got.data, got.len, &pc), 0);
    uint8_t ccndid[32];
    memcpy(ccndid, got.data + pc.publisher.off, 32);
    vector_element("stream_unix_producer_to_ccnd.ccnb", 1, &want);
    struct ccnx_interest_parsed spi;
    struct ccnx_mgmt_request req;
    assert_int_equal(ccnx_interest_parse(want.data, want.len, &spi), 0);
    assert_int_equal(ccnx_mgmt_request_parse(want.data + spi.name.off, spi.name.len, &req), 0);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_mgmt_request_name(&n, ccndid, "selfreg", req.request.p, req.request.n),
                     0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ccnx_buf_reset(&msg);
    assert_int_equal(ccnx_interest_build(&msg, &ip), 0);
    tu_send_all(fd, msg.data, msg.len);
    tu_read_element(fd, &got, "selfreg reply");
    assert_int_equal(ccnx_content_parse(got.data, got.len, &pc), 0);
    struct ccnx_forwarding_entry fe;
    assert_int_equal(
        ccnx_forwarding_entry_parse(got.data + pc.content_value.off, pc.content_value.len, &fe), 0);
    ccnx_name_free(&n);
    ccnx_buf_free(&msg);
    ccnx_buf_free(&got);
    ccnx_buf_free(&want);
    return (long)fe.face_id;
}

/* A control reply answers the request that made it only: the same signed
 * request replayed on another face is carried out for that face, and its
 * reply says so (a stored reply once told it "registered on face N" for
 * the first face, though nothing was done for it). */
static void test_control_reply_not_replayed(void **state)
{
    (void)state;
    int first = tu_ccnd_connect(&ccnd);
    int second = tu_ccnd_connect(&ccnd);
    long a = selfreg_face(first);
    long b = selfreg_face(second);
    assert_true(a > 0 && b > 0);
    assert_int_not_equal(a, b);
    assert_int_equal(selfreg_face(first), a); /* the first face asking again */
    close(first);
    close(second);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_producer_consumer),
        cmocka_unit_test(test_control_reply_not_replayed),
    };
    return cmocka_run_group_tests(tests, start_ccnd, stop_ccnd);
}
