/* Guest prefixes (see guest.h). */
#include "mgmt/guest.h"

#include "table/fib.h"

#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>

#include <string.h>

/* The third component of a 3-component name under
 * %C1.M.S.neighborhood/guest, or -1. */
static int guest_id(const uint8_t *name, size_t len, struct ccnx_comp *id)
{
    static const char *const want[] = {"\xC1.M.S.neighborhood", "guest"};
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    if (ccnx_name_iter_init(&it, name, len) != 0) {
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(want[i]);
        if (ccnx_name_iter_next(&it, &c) != 1 || c.n != n || memcmp(c.p, want[i], n) != 0) {
            return -1;
        }
    }
    if (ccnx_name_iter_next(&it, id) != 1 || ccnx_name_iter_next(&it, &c) != 0) {
        return -1;
    }
    return 0;
}

static int sign_answer(const struct ccnx_key *key, const uint8_t *iname, size_t ilen,
                       const struct ccnx_name *prefix, struct ccnx_buf *reply)
{
    struct ccnx_name name;
    struct ccnx_buf uri = CCNX_BUF_INIT;
    static const uint8_t seg0[] = {0x00};
    ccnx_name_init(&name);
    int res = ccnx_name_set_ccnb(&name, iname, ilen);
    if (res == 0 && (res = ccnx_naming_append_version(&name, NULL)) == 0 &&
        (res = ccnx_name_append(&name, seg0, 1)) == 0 &&
        (res = ccnx_uri_append_name(&uri, prefix)) >= 0) {
        struct ccnx_content_params p;
        ccnx_content_params_init(&p);
        p.name = name.enc.data;
        p.name_len = name.enc.len;
        p.freshness = GUEST_FRESHNESS;
        p.final_block_id = seg0;
        p.final_block_id_len = 1;
        p.content = uri.data;
        p.content_len = uri.len;
        res = ccnx_buf_status(&uri) != 0 ? CCNX_E_NOMEM : ccnx_content_sign(reply, &p, key);
    }
    ccnx_name_free(&name);
    ccnx_buf_free(&uri);
    return res < 0 ? res : 0;
}

int guest_handle(struct fib *fib, const struct ccnx_key *key, const uint8_t *stem, size_t stem_len,
                 unsigned faceid, const uint8_t *interest, const struct ccnx_interest_parsed *pi,
                 struct ccnx_buf *reply)
{
    const uint8_t *iname = interest + pi->name.off;
    struct ccnx_comp id;
    if (guest_id(iname, pi->name.len, &id) != 0) {
        return 0;
    }
    struct ccnx_name prefix;
    ccnx_name_init(&prefix);
    int res = ccnx_name_set_ccnb(&prefix, stem, stem_len);
    if (res == 0) {
        res = ccnx_name_append(&prefix, id.p, id.n);
    }
    if (res == 0) {
        res = fib_add(fib, prefix.enc.data, prefix.enc.len, faceid, FIB_ACTIVE | FIB_CHILD_INHERIT,
                      FIB_NEVER, FIB_OWNER_NONE);
    }
    if (res == 0) {
        res = sign_answer(key, iname, pi->name.len, &prefix, reply);
    }
    ccnx_name_free(&prefix);
    return res == 0 ? 1 : res;
}
