/* The chat's wire format. See chat_wire.h. */
#include "chat_wire.h"

#include <stdlib.h>
#include <string.h>

#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>

#define SUFFIX_MAX 4 /* components after the room: members, keyid, version, segment */

/* The components of an encoded Name after its first `skip`, in one pass:
 * how many there are (at most SUFFIX_MAX kept), or -1 for a malformed Name. */
static int suffix_comps(const uint8_t *enc, size_t len, size_t skip,
                        struct ccnx_comp out[SUFFIX_MAX])
{
    struct ccnx_name_iter it;
    struct ccnx_comp c;
    int rc, n = 0;
    if (ccnx_name_iter_init(&it, enc, len) < 0)
        return -1;
    for (size_t k = 0; (rc = ccnx_name_iter_next(&it, &c)) == 1; k++)
        if (k >= skip && n++ < SUFFIX_MAX)
            out[n - 1] = c;
    return rc < 0 ? -1 : n;
}

static int comp_copy(const struct ccnx_comp *c, struct chat_comp *out)
{
    if (c->n > CHAT_COMP_MAX)
        return 0;
    out->len = (uint8_t)c->n;
    memcpy(out->b, c->p, c->n);
    return 1;
}

static int is_segment_zero(const struct ccnx_comp *c)
{
    return c->n == 1 && c->p[0] == 0;
}

/* <room>/members/<keyid>/<version>/%00 signed by the key the keyid names;
 * c holds the n components after the room. */
static int parse_member(const uint8_t *obj, const struct ccnx_content_parsed *pc,
                        const struct ccnx_comp *c, int n, struct chat_wire_obj *out)
{
    const uint8_t *digest;
    if (n != 4 || ccnx_naming_keyid_digest(c[1].p, c[1].n, &digest) < 0 ||
        !ccnx_naming_is_version(c[2].p, c[2].n) || !is_segment_zero(&c[3]) ||
        !comp_copy(&c[2], &out->version))
        return CCNX_E_VALUE;
    if (memcmp(digest, obj + pc->publisher.off, CHAT_DIGEST_LEN) != 0)
        return CCNX_E_VALUE; /* a nickname is only taken from its own key */
    out->kind = CHAT_WIRE_MEMBER;
    return 0;
}

int chat_wire_parse(const struct ccnx_name *room, const uint8_t *obj,
                    const struct ccnx_content_parsed *pc, struct chat_wire_obj *out,
                    struct chat_comp *first, int *has_first)
{
    const uint8_t *enc = obj + pc->name.off;
    struct ccnx_comp c[SUFFIX_MAX];
    *has_first = 0;
    memset(out, 0, sizeof *out);
    if (!ccnx_name_is_prefix_ccnb(room->enc.data, room->enc.len, enc, pc->name.len))
        return CCNX_E_VALUE;
    int n = suffix_comps(enc, pc->name.len, room->count, c);
    if (n < 1)
        return CCNX_E_VALUE;
    *has_first = comp_copy(&c[0], first);
    if (pc->publisher.len != CHAT_DIGEST_LEN || pc->type != CCNX_TYPE_DATA)
        return CCNX_E_VALUE;
    out->publisher = obj + pc->publisher.off;
    out->text = obj + pc->content_value.off;
    out->text_len = pc->content_value.len;
    if (c[0].n == strlen(CHAT_MEMBERS_COMPONENT) &&
        memcmp(c[0].p, CHAT_MEMBERS_COMPONENT, c[0].n) == 0)
        return parse_member(obj, pc, c, n, out);
    if (n != 2 || !ccnx_naming_is_version(c[0].p, c[0].n) || !is_segment_zero(&c[1]) ||
        !comp_copy(&c[0], &out->version))
        return CCNX_E_VALUE;
    out->kind = CHAT_WIRE_MESSAGE;
    return 0;
}

/* Signs <base>/<version of ticks>/%00 holding p[0..n) with FinalBlockID %00. */
static int sign_versioned(struct ccnx_buf *out, struct ccnx_name *name, uint64_t ticks,
                          const uint8_t *p, size_t n, int64_t freshness, const struct ccnx_key *key,
                          struct chat_comp *version)
{
    static const uint8_t seg0[1] = {0};
    chat_comp_version(ticks, version);
    if (version->len == 0 || ccnx_name_append(name, version->b, version->len) < 0 ||
        ccnx_name_append(name, seg0, 1) < 0)
        return CCNX_E_VALUE;
    struct ccnx_content_params cp;
    ccnx_content_params_init(&cp);
    cp.name = name->enc.data;
    cp.name_len = name->enc.len;
    cp.freshness = freshness;
    cp.final_block_id = seg0;
    cp.final_block_id_len = 1;
    cp.content = p;
    cp.content_len = n;
    return ccnx_content_sign(out, &cp, key);
}

int chat_wire_message(struct ccnx_buf *out, const struct ccnx_name *room, uint64_t ticks,
                      const uint8_t *text, size_t len, int64_t freshness,
                      const struct ccnx_key *key, struct chat_comp *version)
{
    struct ccnx_name name;
    ccnx_name_init(&name);
    int rc = ccnx_name_copy(&name, room);
    if (rc == 0)
        rc = sign_versioned(out, &name, ticks, text, len, freshness, key, version);
    ccnx_name_free(&name);
    return rc;
}

static int member_prefix(struct ccnx_name *name, const struct ccnx_name *room,
                         const uint8_t digest[CHAT_DIGEST_LEN])
{
    ccnx_name_init(name);
    if (ccnx_name_copy(name, room) < 0 || ccnx_name_append_str(name, CHAT_MEMBERS_COMPONENT) < 0 ||
        ccnx_naming_append_keyid(name, digest) < 0)
        return CCNX_E_NOMEM;
    return 0;
}

int chat_wire_member(struct ccnx_buf *out, const struct ccnx_name *room, uint64_t ticks,
                     const char *nick, const struct ccnx_key *key, struct chat_comp *version)
{
    struct ccnx_name name;
    int rc = member_prefix(&name, room, ccnx_key_digest(key));
    if (rc == 0)
        rc = sign_versioned(out, &name, ticks, (const uint8_t *)nick, strlen(nick), -1, key,
                            version);
    ccnx_name_free(&name);
    return rc;
}

/* Fills items from x in canonical order; returns how many. items holds
 * CHAT_EXCLUDE_MAX + 4 entries. */
static size_t exclude_items(const struct chat_exclude *x, struct ccnx_exclude_item *items)
{
    size_t n = 0;
    if (x->has_fence) {
        items[n++] = (struct ccnx_exclude_item){.kind = CCNX_EXCLUDE_ANY};
        items[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, x->fence.b, x->fence.len};
    }
    for (size_t i = 0; i < x->n; i++)
        items[n++] =
            (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, x->list[i].b, x->list[i].len};
    items[n++] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, x->upper.b, x->upper.len};
    items[n++] = (struct ccnx_exclude_item){.kind = CCNX_EXCLUDE_ANY};
    return n;
}

int chat_wire_room_interest(struct ccnx_buf *out, const struct ccnx_name *room,
                            const struct chat_exclude *x, int rightmost, uint64_t lifetime)
{
    struct ccnx_exclude_item items[CHAT_EXCLUDE_MAX + 4];
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = room->enc.data;
    p.name_len = room->enc.len;
    p.min_suffix = 3; /* version, segment, digest */
    p.max_suffix = 3;
    p.child_selector = rightmost ? 1 : -1;
    p.lifetime_units = (int64_t)lifetime;
    if (x != NULL) {
        p.exclude = items;
        p.exclude_count = exclude_items(x, items);
    }
    return ccnx_interest_build(out, &p);
}

static int digest_order(const void *a, const void *b)
{
    return memcmp(a, b, CCNX_DIGEST_LEN);
}

int chat_wire_sibling_interest(struct ccnx_buf *out, const struct ccnx_name *room,
                               const struct chat_comp *version, const uint8_t (*digests)[32],
                               size_t n, uint64_t lifetime)
{
    uint8_t sorted[CHAT_SIBLING_MAX][CCNX_DIGEST_LEN];
    struct ccnx_exclude_item items[CHAT_SIBLING_MAX];
    static const uint8_t seg0[1] = {0};
    if (n == 0 || n > CHAT_SIBLING_MAX)
        return CCNX_E_INVAL;
    memcpy(sorted, digests, n * CCNX_DIGEST_LEN);
    qsort(sorted, n, CCNX_DIGEST_LEN, digest_order); /* equal lengths: canonical order */
    for (size_t i = 0; i < n; i++)
        items[i] = (struct ccnx_exclude_item){CCNX_EXCLUDE_COMPONENT, sorted[i], CCNX_DIGEST_LEN};
    struct ccnx_name name;
    ccnx_name_init(&name);
    int rc = ccnx_name_copy(&name, room);
    if (rc == 0 && (ccnx_name_append(&name, version->b, version->len) < 0 ||
                    ccnx_name_append(&name, seg0, 1) < 0))
        rc = CCNX_E_NOMEM;
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    p.min_suffix = 1; /* the digest only */
    p.max_suffix = 1;
    p.exclude = items;
    p.exclude_count = n;
    p.lifetime_units = (int64_t)lifetime;
    if (rc == 0)
        rc = ccnx_interest_build(out, &p);
    ccnx_name_free(&name);
    return rc;
}

int chat_wire_member_interest(struct ccnx_buf *out, const struct ccnx_name *room,
                              const uint8_t digest[CHAT_DIGEST_LEN], const struct chat_comp *after,
                              uint64_t lifetime)
{
    struct ccnx_name name;
    int rc = member_prefix(&name, room, digest);
    struct ccnx_exclude_item items[2] = {
        {.kind = CCNX_EXCLUDE_ANY},
        {CCNX_EXCLUDE_COMPONENT, after != NULL ? after->b : NULL, after != NULL ? after->len : 0},
    };
    struct ccnx_interest_params p;
    ccnx_interest_params_init(&p);
    p.name = name.enc.data;
    p.name_len = name.enc.len;
    p.min_suffix = 3;
    p.max_suffix = 3;
    p.child_selector = 1;
    p.lifetime_units = (int64_t)lifetime;
    if (after != NULL) {
        p.exclude = items;
        p.exclude_count = 2;
    }
    if (rc == 0)
        rc = ccnx_interest_build(out, &p);
    ccnx_name_free(&name);
    return rc;
}
