/* ccnd's internal client: the KEY object and the control requests, replayed
 * from the reference's own request objects. */
#include "testutil.h"

#include "mgmt/mgmt.h"
#include "table/fib.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/mgmt.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <string.h>

/* Local faces, each with the uid of its process and its owner (by
 * default: that uid, as for an application's own connection), and remote
 * ones. */
#define MAX_LOCAL 16 /* the tests share the faces: room for all they add */

struct fake_faces {
    unsigned local[MAX_LOCAL], remote[4];
    int64_t uid[MAX_LOCAL], owner[MAX_LOCAL];
    size_t nlocal, nremote;
    unsigned next_new;
    unsigned destroyed;
};

static int fake_query(void *arg, unsigned id, struct mgmt_face *out)
{
    struct fake_faces *f = arg;
    for (size_t i = 0; i < f->nlocal; i++)
        if (f->local[i] == id)
            return (*out = (struct mgmt_face){1, f->uid[i], f->owner[i]}, 1);
    for (size_t i = 0; i < f->nremote; i++)
        if (f->remote[i] == id)
            return (*out = (struct mgmt_face){0, MGMT_UID_UNKNOWN, MGMT_UID_NONE}, 1);
    return 0;
}

static void add_local(struct fake_faces *f, unsigned id, int64_t uid, int64_t owner)
{
    assert_true(f->nlocal < MAX_LOCAL);
    f->local[f->nlocal] = id;
    f->uid[f->nlocal] = uid;
    f->owner[f->nlocal++] = owner;
}

static int fake_newface(void *arg, const struct ccnx_face_instance *req, int64_t owner,
                        unsigned *faceid)
{
    struct fake_faces *f = arg;
    (void)req;
    *faceid = f->next_new;
    add_local(f, f->next_new, MGMT_UID_UNKNOWN, owner);
    return 0;
}

static int fake_destroy(void *arg, unsigned faceid)
{
    ((struct fake_faces *)arg)->destroyed = faceid;
    return 0;
}

/* The forwarder's strategies, as far as these tests go. */
static int fake_strategy_exists(void *arg, const char *name)
{
    (void)arg;
    return strcmp(name, "parallel") == 0 || strcmp(name, "default") == 0;
}

struct fixture {
    struct fake_faces faces;
    struct fib *fib;
    struct ccnx_key *key;
    struct mgmt *m;
};

static int setup(void **state)
{
    static struct fixture f;
    memset(&f, 0, sizeof f);
    f.faces = (struct fake_faces){{64, 67}, {90}, {1000, 1000}, {1000, 1000}, 2, 1, 70, 0};
    f.fib = fib_create();
    assert_int_equal(ccnx_key_generate(1024, &f.key), 0);
    const struct mgmt_face_ops ops = {fake_query,           fake_newface, fake_destroy,
                                      fake_strategy_exists, NULL,         &f.faces};
    f.m = mgmt_create(f.fib, f.key, &ops, 0);
    assert_non_null(f.m);
    mgmt_set_admin_uid(f.m, 1000); /* ccnd runs as the faces' user */
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    mgmt_destroy(f->m);
    fib_destroy(f->fib);
    ccnx_key_destroy(f->key);
    return 0;
}

/* An Interest /ccnx/<our ccndid>/<verb>/<the vector's signed request>. */
static void request_interest(struct fixture *f, const char *verb, const char *payload_file,
                             struct ccnx_buf *out)
{
    struct ccnx_buf payload = CCNX_BUF_INIT;
    tu_read_vector(payload_file, &payload);
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_mgmt_request_name(&n, mgmt_ccndid(f->m), verb, payload.data, payload.len),
                     0);
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = n.enc.data;
    p.name_len = n.enc.len;
    ccnx_buf_reset(out);
    assert_int_equal(ccnx_interest_build(out, &p), 0);
    ccnx_name_free(&n);
    ccnx_buf_free(&payload);
}

/* An Interest carrying a request we sign ourselves, as ccndc does. */
static void signed_request(struct fixture *f, const char *verb, const struct ccnx_buf *body,
                           struct ccnx_buf *out)
{
    struct ccnx_name empty, n;
    ccnx_name_init(&empty);
    ccnx_name_init(&n);
    struct ccnx_content_params p;
    ccnx_content_params_init(&p);
    p.name = empty.enc.data;
    p.name_len = empty.enc.len;
    p.key_locator = CCNX_KEYLOC_KEY;
    p.content = body->data;
    p.content_len = body->len;
    struct ccnx_buf obj = CCNX_BUF_INIT;
    assert_int_equal(ccnx_content_sign(&obj, &p, f->key), 0);
    assert_int_equal(ccnx_mgmt_request_name(&n, mgmt_ccndid(f->m), verb, obj.data, obj.len), 0);
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ccnx_buf_reset(out);
    assert_int_equal(ccnx_interest_build(out, &ip), 0);
    ccnx_buf_free(&obj);
    ccnx_name_free(&n);
    ccnx_name_free(&empty);
}

/* Checks the reply is signed by ccnd, carries the Interest's name, and returns its body. */
static struct ccnx_view open_reply(struct fixture *f, const struct ccnx_buf *interest,
                                   const struct ccnx_buf *reply, uint32_t want_type)
{
    struct ccnx_content_parsed pc;
    struct ccnx_interest_parsed pi;
    assert_int_equal(ccnx_content_parse(reply->data, reply->len, &pc), 0);
    assert_int_equal(ccnx_content_verify(reply->data, reply->len, &pc, f->key), 0);
    assert_int_equal(ccnx_interest_parse(interest->data, interest->len, &pi), 0);
    assert_int_equal(pc.name.len, pi.name.len);
    assert_memory_equal(reply->data + pc.name.off, interest->data + pi.name.off, pi.name.len);
    assert_true(pc.type == want_type);
    assert_int_equal(pc.freshness, MGMT_REPLY_FRESHNESS);
    return (struct ccnx_view){reply->data + pc.content_value.off, pc.content_value.len};
}

/* The vector's reply body, with our ccndid (and given face) in place of forwarder A's. */
static void expected_entry(struct fixture *f, const char *file, struct ccnx_buf *out)
{
    struct ccnx_buf v = CCNX_BUF_INIT;
    struct ccnx_forwarding_entry fe;
    tu_read_vector(file, &v);
    assert_int_equal(ccnx_forwarding_entry_parse(v.data, v.len, &fe), 0);
    fe.ccndid = (struct ccnx_view){mgmt_ccndid(f->m), 32};
    ccnx_buf_reset(out);
    assert_int_equal(ccnx_forwarding_entry_build(out, &fe), 0);
    ccnx_buf_free(&v);
}

static void assert_view_buf(struct ccnx_view v, const struct ccnx_buf *b)
{
    assert_int_equal(v.n, b->len);
    assert_memory_equal(v.p, b->data, b->len);
}

static void test_key_object(void **state)
{
    struct fixture *f = *state;
    struct ccnx_buf stream = CCNX_BUF_INIT, reply = CCNX_BUF_INIT;
    tu_read_vector("stream_unix_producer_to_ccnd.ccnb", &stream);
    size_t end;
    assert_int_equal(ccnx_ccnb_element_end(stream.data, stream.len, 0, &end), 0);
    /* The reference client's first message: the KEY Interest. */
    assert_int_equal(mgmt_handle_interest(f->m, 67, stream.data, end, 0, &reply), 1);
    struct ccnx_content_parsed pc;
    assert_int_equal(ccnx_content_parse(reply.data, reply.len, &pc), 0);
    assert_true(pc.type == CCNX_TYPE_KEY);
    assert_int_equal(pc.freshness, MGMT_KEY_FRESHNESS);
    assert_true(pc.has_final_block_id);
    assert_int_equal(pc.key_locator_kind, CCNX_KEYLOC_KEYNAME);
    assert_int_equal(ccnx_content_verify(reply.data, reply.len, &pc, f->key), 0);
    size_t der_len;
    const uint8_t *der = ccnx_key_der(f->key, &der_len);
    assert_int_equal(pc.content_value.len, der_len);
    assert_memory_equal(reply.data + pc.content_value.off, der, der_len);
    /* Same shape of name as the reference's: 7 components, key id of our digest. */
    assert_int_equal(pc.name_count, 7);
    struct ccnx_buf uri = CCNX_BUF_INIT;
    ccnx_uri_append(&uri, reply.data + pc.name.off, pc.name.len);
    assert_non_null(
        strstr(ccnx_buf_cstr(&uri), "ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY/%C1.M.K%00"));
    /* The vector's KEY reply has the same fields in the same order. */
    struct ccnx_buf vec = CCNX_BUF_INIT;
    struct ccnx_content_parsed vpc;
    tu_read_vector("co_ccnd_key_reply.ccnb", &vec);
    assert_int_equal(ccnx_content_parse(vec.data, vec.len, &vpc), 0);
    assert_true(vpc.type == pc.type && vpc.freshness == pc.freshness);
    assert_int_equal(vpc.name_count, pc.name_count);
    /* Neighbours ask at the bare %C1.M.S.neighborhood: the same key, its
     * own name, a short freshness. */
    struct ccnx_name n;
    ccnx_name_init(&n);
    ccnx_uri_parse_str(&n, "ccnx:/%C1.M.S.neighborhood");
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ccnx_buf_reset(&vec);
    assert_int_equal(ccnx_interest_build(&vec, &ip), 0);
    ccnx_buf_reset(&reply);
    assert_int_equal(mgmt_handle_interest(f->m, 67, vec.data, vec.len, 0, &reply), 1);
    assert_int_equal(ccnx_content_parse(reply.data, reply.len, &pc), 0);
    assert_int_equal(pc.freshness, MGMT_NEIGHBOR_KEY_FRESHNESS);
    assert_int_equal(ccnx_content_verify(reply.data, reply.len, &pc, f->key), 0);
    ccnx_buf_reset(&uri);
    ccnx_uri_append(&uri, reply.data + pc.name.off, pc.name.len);
    assert_non_null(strstr(ccnx_buf_cstr(&uri), "ccnx:/%C1.M.S.neighborhood/%C1.M.SRV/ccnd/KEY/"));
    /* The bare localhost prefix is not where the reference answers. */
    ccnx_name_free(&n);
    ccnx_name_init(&n);
    ccnx_uri_parse_str(&n, "ccnx:/%C1.M.S.localhost");
    ip.name = n.enc.data;
    ip.name_len = n.enc.len;
    ccnx_buf_reset(&vec);
    assert_int_equal(ccnx_interest_build(&vec, &ip), 0);
    ccnx_buf_reset(&reply);
    assert_int_equal(mgmt_handle_interest(f->m, 67, vec.data, vec.len, 0, &reply), 0);
    ccnx_name_free(&n);
    /* Unrelated Interests are not the internal client's. */
    ccnx_buf_reset(&reply);
    tu_read_vector("int_name_only.ccnb", &vec);
    assert_int_equal(mgmt_handle_interest(f->m, 67, vec.data, vec.len, 0, &reply), 0);
    assert_int_equal(reply.len, 0);
    ccnx_buf_free(&vec);
    ccnx_buf_free(&uri);
    ccnx_buf_free(&stream);
    ccnx_buf_free(&reply);
}

static void test_prefixreg_and_unreg(void **state)
{
    struct fixture *f = *state;
    struct ccnx_buf in = CCNX_BUF_INIT, reply = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    request_interest(f, "prefixreg", "ctl_prefixreg_request_payload.ccnb", &in);
    assert_int_equal(mgmt_handle_interest(f->m, 67, in.data, in.len, 0, &reply), 1);
    struct ccnx_view body = open_reply(f, &in, &reply, CCNX_TYPE_DATA);
    expected_entry(f, "ctl_prefixreg_reply_payload.ccnb", &want);
    assert_view_buf(body, &want);
    struct ccnx_name n;
    ccnx_name_init(&n);
    ccnx_uri_parse_str(&n, "ccnx:/example/vec/remote/item");
    struct fib_result fr;
    assert_int_equal(fib_lookup(f->fib, n.enc.data, n.enc.len, 1, &fr), 0);
    assert_int_equal(fr.nfaces, 1);
    assert_int_equal(fr.faces[0], 64);

    /* unreg of a prefix registered the same way (the vector's /example/vec/other on face 64). */
    ccnx_uri_parse_str(&n, "ccnx:/example/vec/other");
    assert_int_equal(fib_add(f->fib, n.enc.data, n.enc.len, 64, 3, FIB_NEVER, FIB_OWNER_NONE), 0);
    request_interest(f, "unreg", "ctl_unreg_request_payload.ccnb", &in);
    ccnx_buf_reset(&reply);
    assert_int_equal(mgmt_handle_interest(f->m, 67, in.data, in.len, 0, &reply), 1);
    body = open_reply(f, &in, &reply, CCNX_TYPE_DATA);
    expected_entry(f, "ctl_unreg_reply_payload.ccnb", &want);
    assert_view_buf(body, &want);
    assert_int_equal(fib_remove(f->fib, n.enc.data, n.enc.len, 64), CCNX_E_NOTFOUND);
    ccnx_name_free(&n);
    ccnx_buf_free(&in);
    ccnx_buf_free(&reply);
    ccnx_buf_free(&want);
}

static void test_selfreg(void **state)
{
    struct fixture *f = *state;
    struct ccnx_buf in = CCNX_BUF_INIT, reply = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    request_interest(f, "selfreg", "ctl_selfreg_request_payload.ccnb", &in);
    /* The reference answered face 67 with FaceID 67, flags 3, lifetime 2000000000. */
    assert_int_equal(mgmt_handle_interest(f->m, 67, in.data, in.len, 0, &reply), 1);
    struct ccnx_view body = open_reply(f, &in, &reply, CCNX_TYPE_DATA);
    expected_entry(f, "ctl_selfreg_reply_payload.ccnb", &want);
    assert_view_buf(body, &want);
    ccnx_buf_free(&in);
    ccnx_buf_free(&reply);
    ccnx_buf_free(&want);
}

static void test_newface_and_destroyface(void **state)
{
    struct fixture *f = *state;
    struct ccnx_buf in = CCNX_BUF_INIT, reply = CCNX_BUF_INIT, want = CCNX_BUF_INIT;
    f->faces.next_new = 64; /* the id the reference gave */
    request_interest(f, "newface", "ctl_newface_request_payload.ccnb", &in);
    assert_int_equal(mgmt_handle_interest(f->m, 67, in.data, in.len, 0, &reply), 1);
    struct ccnx_view body = open_reply(f, &in, &reply, CCNX_TYPE_DATA);
    struct ccnx_buf v = CCNX_BUF_INIT;
    struct ccnx_face_instance fi;
    tu_read_vector("ctl_newface_reply_payload.ccnb", &v);
    assert_int_equal(ccnx_face_instance_parse(v.data, v.len, &fi), 0);
    fi.ccndid = (struct ccnx_view){mgmt_ccndid(f->m), 32};
    assert_int_equal(ccnx_face_instance_build(&want, &fi), 0);
    assert_view_buf(body, &want);

    struct ccnx_buf req = CCNX_BUF_INIT;
    ccnx_face_instance_init(&fi);
    fi.action = (struct ccnx_view){(const uint8_t *)"destroyface", 11};
    fi.face_id = 64;
    assert_int_equal(ccnx_face_instance_build(&req, &fi), 0);
    signed_request(f, "destroyface", &req, &in);
    ccnx_buf_reset(&reply);
    assert_int_equal(mgmt_handle_interest(f->m, 67, in.data, in.len, 0, &reply), 1);
    open_reply(f, &in, &reply, CCNX_TYPE_DATA);
    assert_int_equal(f->faces.destroyed, 64);
    ccnx_buf_free(&req);
    ccnx_buf_free(&v);
    ccnx_buf_free(&in);
    ccnx_buf_free(&reply);
    ccnx_buf_free(&want);
}

static void assert_nack(struct fixture *f, const struct ccnx_buf *in, unsigned face, int code)
{
    struct ccnx_buf reply = CCNX_BUF_INIT;
    assert_int_equal(mgmt_handle_interest(f->m, face, in->data, in->len, 0, &reply), 1);
    struct ccnx_view body = open_reply(f, in, &reply, CCNX_TYPE_NACK);
    struct ccnx_ccnb_reader r;
    uint64_t got;
    ccnx_ccnb_reader_init(&r, body.p, body.n, 0);
    assert_int_equal(ccnx_ccnb_enter(&r, CCNX_DTAG_StatusResponse), 0);
    assert_int_equal(ccnx_ccnb_read_uint(&r, CCNX_DTAG_StatusCode, &got), 0);
    assert_int_equal(got, code);
    ccnx_buf_free(&reply);
}

static void test_refusals(void **state)
{
    struct fixture *f = *state;
    struct ccnx_buf in = CCNX_BUF_INIT;
    /* From a remote face. */
    request_interest(f, "prefixreg", "ctl_prefixreg_request_payload.ccnb", &in);
    assert_nack(f, &in, 90, 403);
    /* Tampered request object: flip a byte of its Content inside the Interest name. */
    in.data[in.len - 20] ^= 1;
    assert_nack(f, &in, 67, 403);
    /* Unknown verb. */
    request_interest(f, "frobnicate", "ctl_prefixreg_request_payload.ccnb", &in);
    assert_nack(f, &in, 67, 404);
    /* A request body whose verb does not match the name's. */
    request_interest(f, "unreg", "ctl_prefixreg_request_payload.ccnb", &in);
    assert_nack(f, &in, 67, 400);
    /* Addressed to another forwarder: not ours, no answer. */
    struct ccnx_buf other = CCNX_BUF_INIT, reply = CCNX_BUF_INIT;
    tu_read_vector("ctl_prefixreg_interest.ccnb", &other);
    assert_int_equal(mgmt_handle_interest(f->m, 67, other.data, other.len, 0, &reply), 0);
    ccnx_buf_free(&other);
    ccnx_buf_free(&reply);
    ccnx_buf_free(&in);
}

/* A ForwardingEntry request for uri on faceid, signed as ccndc signs it. */
static void forwarding_request(struct fixture *f, const char *verb, const char *uri,
                               unsigned faceid, struct ccnx_buf *out)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct ccnx_forwarding_entry fe;
    ccnx_forwarding_entry_init(&fe);
    fe.action = (struct ccnx_view){(const uint8_t *)verb, strlen(verb)};
    fe.name = (struct ccnx_view){n.enc.data, n.enc.len};
    fe.face_id = faceid;
    struct ccnx_buf body = CCNX_BUF_INIT;
    assert_int_equal(ccnx_forwarding_entry_build(&body, &fe), 0);
    signed_request(f, verb, &body, out);
    ccnx_buf_free(&body);
    ccnx_name_free(&n);
}

static void destroy_request(struct fixture *f, unsigned faceid, struct ccnx_buf *out)
{
    struct ccnx_face_instance fi;
    ccnx_face_instance_init(&fi);
    fi.action = (struct ccnx_view){(const uint8_t *)"destroyface", 11};
    fi.face_id = faceid;
    struct ccnx_buf body = CCNX_BUF_INIT;
    assert_int_equal(ccnx_face_instance_build(&body, &fi), 0);
    signed_request(f, "destroyface", &body, out);
    ccnx_buf_free(&body);
}

static void assert_ok(struct fixture *f, const struct ccnx_buf *in, unsigned face)
{
    struct ccnx_buf reply = CCNX_BUF_INIT;
    assert_int_equal(mgmt_handle_interest(f->m, face, in->data, in->len, 0, &reply), 1);
    open_reply(f, in, &reply, CCNX_TYPE_DATA);
    ccnx_buf_free(&reply);
}

static size_t faces_on(struct fixture *f, const char *uri)
{
    struct ccnx_name n;
    ccnx_name_init(&n);
    assert_int_equal(ccnx_uri_parse_str(&n, uri), 0);
    struct fib_result fr;
    assert_int_equal(fib_lookup(f->fib, n.enc.data, n.enc.len, 1, &fr), 0);
    ccnx_name_free(&n);
    return fr.nfaces;
}

/* Faces and registrations belong to the uid that made them: another local
 * user may add, not remove or change (403); the face's owner, root and
 * ccnd's own uid may. */
static void test_other_users(void **state)
{
    struct fixture *f = *state;
    struct fake_faces *ff = &f->faces;
    static const unsigned ids[4] = {71, 72, 73, 74};
    static const int64_t uids[4] = {2000, 3000, 0, MGMT_UID_UNKNOWN};
    ff->destroyed = 0;
    for (size_t i = 0; i < 4; i++) {
        add_local(ff, ids[i], uids[i], uids[i] >= 0 ? uids[i] : MGMT_UID_NONE);
    }
    struct ccnx_buf in = CCNX_BUF_INIT;
    forwarding_request(f, "prefixreg", "ccnx:/u/a", 71, &in);
    assert_ok(f, &in, 71); /* uid 2000 on its own face */
    forwarding_request(f, "unreg", "ccnx:/u/a", 71, &in);
    assert_nack(f, &in, 72, 403); /* uid 3000 */
    assert_nack(f, &in, 74, 403); /* a local process whose uid is unknown */
    forwarding_request(f, "prefixreg", "ccnx:/u/a", 71, &in);
    assert_nack(f, &in, 72, 403); /* changing it is refused too */
    assert_int_equal(faces_on(f, "ccnx:/u/a/x"), 1);

    forwarding_request(f, "prefixreg", "ccnx:/u/b", 71, &in);
    assert_ok(f, &in, 72); /* adding is allowed, and 3000 owns it */
    forwarding_request(f, "unreg", "ccnx:/u/b", 71, &in);
    assert_ok(f, &in, 71); /* the face's owner decides what is routed to it */
    assert_int_equal(faces_on(f, "ccnx:/u/b/x"), 0);

    destroy_request(f, 71, &in);
    assert_nack(f, &in, 72, 403);
    assert_int_equal(ff->destroyed, 0);
    assert_ok(f, &in, 73); /* root */
    assert_int_equal(ff->destroyed, 71);

    /* ccnd's own uid (1000, face 67) may remove what 2000 made. */
    forwarding_request(f, "unreg", "ccnx:/u/a", 71, &in);
    assert_ok(f, &in, 67);
    assert_int_equal(faces_on(f, "ccnx:/u/a/x"), 0);
    /* A face made on request belongs to the requester. */
    ff->next_new = 75;
    request_interest(f, "newface", "ctl_newface_request_payload.ccnb", &in);
    assert_ok(f, &in, 72);
    destroy_request(f, 75, &in);
    assert_nack(f, &in, 71, 403);
    assert_ok(f, &in, 72);
    assert_int_equal(ff->destroyed, 75);
    ccnx_buf_free(&in);
}

/* A face whose process's uid is unknown (a TCP client the kernel tables do
 * not name) still owns what is routed to itself: the reference's Java
 * library sends unreg then selfreg for its own prefix on its own face, and
 * both must succeed; another such face still may not touch them. */
static void test_unknown_uid_owns_its_face(void **state)
{
    struct fixture *f = *state;
    struct fake_faces *ff = &f->faces;
    static const unsigned ids[2] = {81, 82};
    for (size_t i = 0; i < 2; i++) {
        add_local(ff, ids[i], MGMT_UID_UNKNOWN, MGMT_UID_NONE);
    }
    struct ccnx_buf in = CCNX_BUF_INIT;
    forwarding_request(f, "selfreg", "ccnx:/room", 81, &in);
    assert_ok(f, &in, 81);
    forwarding_request(f, "unreg", "ccnx:/room", 81, &in);
    assert_nack(f, &in, 82, 403); /* another face, uid unknown too */
    assert_ok(f, &in, 81);
    assert_int_equal(faces_on(f, "ccnx:/room/x"), 0);
    forwarding_request(f, "selfreg", "ccnx:/room", 81, &in);
    assert_ok(f, &in, 81);
    assert_ok(f, &in, 81); /* registering again refreshes it */
    forwarding_request(f, "prefixreg", "ccnx:/room", 81, &in);
    assert_nack(f, &in, 82, 403);
    assert_int_equal(faces_on(f, "ccnx:/room/x"), 1);
    ccnx_buf_free(&in);
}

static void test_strategy(void **state)
{
    struct fixture *f = *state;
    struct ccnx_name n;
    ccnx_name_init(&n);
    ccnx_uri_parse_str(&n, "ccnx:/video");
    struct ccnx_strategy_selection ss, got;
    struct ccnx_buf body = CCNX_BUF_INIT, in = CCNX_BUF_INIT, reply = CCNX_BUF_INIT;
    const char *const verbs[] = {"setstrategy", "getstrategy", "removestrategy", "getstrategy"};
    const char *const want[] = {"parallel", "parallel", "default", "default"};
    for (size_t i = 0; i < 4; i++) {
        ccnx_strategy_selection_init(&ss);
        ss.action = (struct ccnx_view){(const uint8_t *)verbs[i], strlen(verbs[i])};
        ss.name = (struct ccnx_view){n.enc.data, n.enc.len};
        if (i == 0)
            ss.strategy_id = (struct ccnx_view){(const uint8_t *)"parallel", 8};
        ccnx_buf_reset(&body);
        assert_int_equal(ccnx_strategy_selection_build(&body, &ss), 0);
        signed_request(f, verbs[i], &body, &in);
        ccnx_buf_reset(&reply);
        assert_int_equal(mgmt_handle_interest(f->m, 64, in.data, in.len, 0, &reply), 1);
        struct ccnx_view v = open_reply(f, &in, &reply, CCNX_TYPE_DATA);
        assert_int_equal(ccnx_strategy_selection_parse(v.p, v.n, &got), 0);
        assert_true(ccnx_view_equals(got.strategy_id, want[i]));
    }
    ccnx_buf_free(&body);
    ccnx_buf_free(&in);
    ccnx_buf_free(&reply);
    ccnx_name_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_object),  cmocka_unit_test(test_prefixreg_and_unreg),
        cmocka_unit_test(test_selfreg),     cmocka_unit_test(test_newface_and_destroyface),
        cmocka_unit_test(test_refusals),    cmocka_unit_test(test_strategy),
        cmocka_unit_test(test_other_users), cmocka_unit_test(test_unknown_uid_owns_its_face),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
