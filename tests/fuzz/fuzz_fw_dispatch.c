/* Fuzz target for the forwarder's dispatch: arbitrary messages from three
 * faces (two local, one remote) through the Interest and ContentObject
 * pipelines, with a route and the clock moving, must never crash, hang or
 * leak, and every message the forwarder sends must parse. */
#include "fw/fw.h"
#include "table/fib.h"

#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_send(void *arg, unsigned faceid, const uint8_t *msg, size_t len)
{
    (void)arg;
    (void)faceid;
    struct ccnx_interest_parsed pi;
    struct ccnx_content_parsed pc;
    if (ccnx_interest_parse(msg, len, &pi) != 0 && ccnx_content_parse(msg, len, &pc) != 0) {
        abort(); /* the forwarder emitted something that is not a message */
    }
    return 0;
}

static int props(void *arg, unsigned faceid, struct fw_face_props *out)
{
    (void)arg;
    if (faceid > 3) {
        return -1;
    }
    out->local = faceid != 3;
    out->mcast = 0;
    out->datagram = faceid == 3;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fw_config cfg;
    fw_config_default(&cfg);
    cfg.seed = 1;
    const struct fw_ops ops = {check_send, props};
    struct fw *fw = fw_create(&cfg, &ops, NULL);
    if (fw == NULL) {
        return 0;
    }
    struct ccnx_name root;
    ccnx_name_init(&root);
    fib_add(fw_fib(fw), root.enc.data, root.enc.len, 2, 3, UINT64_MAX, FIB_OWNER_NONE);
    /* The input is a sequence of [face byte][length byte][message bytes]. */
    uint64_t now = 1000;
    size_t pos = 0;
    while (pos + 2 <= size) {
        unsigned face = 1 + data[pos] % 3;
        size_t len = data[pos + 1];
        pos += 2;
        if (len > size - pos) {
            len = size - pos;
        }
        fw_on_message(fw, face, data + pos, len, now);
        pos += len;
        now += 50000;
        fw_tick(fw, now);
    }
    /* And the whole input as one message too. */
    fw_on_message(fw, 1, data, size, now);
    fw_on_face_destroyed(fw, 2);
    fw_tick(fw, now + 10000000);
    fw_destroy(fw);
    ccnx_name_free(&root);
    return 0;
}
