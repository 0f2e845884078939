/* ccn-track.c: linking each Interest to the ContentObject that answered it.
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Works like a pending-interest table per link: on the first pass every
 * Interest is remembered (a copy of its bytes and its parse) under the pair
 * of endpoints it travelled between, or under the group address for
 * multicast, where the answer comes from another member. A ContentObject
 * coming back on that link from another sender consumes every pending,
 * unexpired Interest it satisfies, judged with the core's full selector
 * matching (prefix, suffix counts, Exclude, publisher). The links found are
 * stored per message and shown on every pass.
 */
#include "ccn.h"

#include <epan/address.h>
#include <epan/proto_data.h>
#include <epan/to_str.h>

#include <ccnx/content.h>
#include <ccnx/interest.h>
#include <ccnx/match.h>

/* Pending Interests remembered per link; the oldest go first beyond this. */
#define MAX_PENDING 1024

/* What one message learned, attached to its frame. */
struct rr {
    int is_interest;
    uint32_t other_frame; /* response (for an Interest) or request frame */
    nstime_t delta;       /* response time, for a ContentObject */
};

struct pending {
    uint8_t *ibuf; /* copy of the Interest */
    size_t ilen;
    struct ccnx_interest_parsed pi;
    uint32_t frame;
    nstime_t sent;
    nstime_t expiry;
    address src;
    uint32_t srcport;
    struct rr *rec;
};

static wmem_map_t *links;

void ccn_track_init(void)
{
    links = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(), g_str_hash, g_str_equal);
}

static int is_multicast(const address *a)
{
    const uint8_t *d = (const uint8_t *)a->data;
    if (a->type == AT_IPv4 && a->len == 4) {
        return d[0] >= 224 && d[0] <= 239;
    }
    if (a->type == AT_IPv6 && a->len == 16) {
        return d[0] == 0xFF;
    }
    return 0;
}

/* The same key for both directions of a unicast link; the group for multicast. */
static const char *link_key(packet_info *pinfo)
{
    wmem_allocator_t *pool = pinfo->pool;
    if (is_multicast(&pinfo->dst)) {
        return wmem_strdup_printf(pool, "%d m %s %u", (int)pinfo->ptype,
                                  address_to_str(pool, &pinfo->dst), pinfo->destport);
    }
    const char *a =
        wmem_strdup_printf(pool, "%s %u", address_to_str(pool, &pinfo->src), pinfo->srcport);
    const char *b =
        wmem_strdup_printf(pool, "%s %u", address_to_str(pool, &pinfo->dst), pinfo->destport);
    if (strcmp(a, b) > 0) {
        const char *t = a;
        a = b;
        b = t;
    }
    return wmem_strdup_printf(pool, "%d u %s %s", (int)pinfo->ptype, a, b);
}

static wmem_list_t *link_pending(packet_info *pinfo)
{
    const char *key = link_key(pinfo);
    wmem_list_t *list = (wmem_list_t *)wmem_map_lookup(links, key);
    if (list == NULL) {
        list = wmem_list_new(wmem_file_scope());
        wmem_map_insert(links, wmem_strdup(wmem_file_scope(), key), list);
    }
    return list;
}

static void remember_interest(packet_info *pinfo, const uint8_t *buf, size_t len, struct rr *rec)
{
    struct ccnx_interest_parsed pi;
    if (ccnx_interest_parse(buf, len, &pi) != 0) {
        return;
    }
    struct pending *p = wmem_new0(wmem_file_scope(), struct pending);
    p->pi = pi;
    p->ibuf = (uint8_t *)wmem_memdup(wmem_file_scope(), buf, len);
    p->ilen = len;
    p->frame = pinfo->num;
    p->sent = pinfo->abs_ts;
    nstime_t life = {(time_t)(p->pi.lifetime >> 12),
                     (int)(((p->pi.lifetime & 0xFFF) * 1000000000u) >> 12)};
    nstime_sum(&p->expiry, &p->sent, &life);
    copy_address_wmem(wmem_file_scope(), &p->src, &pinfo->src);
    p->srcport = pinfo->srcport;
    p->rec = rec;
    wmem_list_t *list = link_pending(pinfo);
    if (wmem_list_count(list) >= MAX_PENDING) {
        wmem_list_remove_frame(list, wmem_list_head(list));
    }
    wmem_list_append(list, p);
}

static void answer_interests(packet_info *pinfo, const uint8_t *buf, size_t len, struct rr *rec)
{
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
    if (ccnx_content_parse(buf, len, &pc) != 0 || ccnx_content_digest(buf, len, digest) != 0) {
        return;
    }
    wmem_list_t *list = link_pending(pinfo);
    wmem_list_frame_t *f = wmem_list_head(list);
    while (f != NULL) {
        wmem_list_frame_t *next = wmem_list_frame_next(f);
        struct pending *p = (struct pending *)wmem_list_frame_data(f);
        if (nstime_cmp(&pinfo->abs_ts, &p->expiry) > 0) {
            wmem_list_remove_frame(list, f);
        } else if ((p->srcport != pinfo->srcport || !addresses_equal(&p->src, &pinfo->src)) &&
                   ccnx_match(p->ibuf, &p->pi, buf, len, &pc, digest)) {
            if (rec->other_frame == 0) {
                rec->other_frame = p->frame;
                nstime_delta(&rec->delta, &pinfo->abs_ts, &p->sent);
            }
            if (p->rec->other_frame == 0) {
                p->rec->other_frame = pinfo->num;
            }
            wmem_list_remove_frame(list, f);
        }
        f = next;
    }
}

void ccn_track_message(tvbuff_t *tvb, packet_info *pinfo, const uint8_t *buf, size_t len,
                       struct ccn_summary *sum, uint32_t msg_index)
{
    /* Key 0 is the per-frame dissection state in the packet pool. */
    guint32 key = msg_index + 1;
    struct rr *rec = (struct rr *)p_get_proto_data(wmem_file_scope(), pinfo, proto_ccn, key);
    if (rec == NULL && !PINFO_FD_VISITED(pinfo)) {
        rec = wmem_new0(wmem_file_scope(), struct rr);
        rec->is_interest = sum->dtag == CCN_DTAG_INTEREST;
        p_add_proto_data(wmem_file_scope(), pinfo, proto_ccn, key, rec);
        if (rec->is_interest) {
            remember_interest(pinfo, buf, len, rec);
        } else {
            answer_interests(pinfo, buf, len, rec);
        }
    }
    if (rec == NULL || rec->other_frame == 0) {
        return;
    }
    proto_item *it;
    if (rec->is_interest) {
        it = proto_tree_add_uint(sum->tree, ccn_hf.response_in, tvb, 0, 0, rec->other_frame);
        proto_item_set_generated(it);
    } else {
        it = proto_tree_add_uint(sum->tree, ccn_hf.response_to, tvb, 0, 0, rec->other_frame);
        proto_item_set_generated(it);
        it = proto_tree_add_time(sum->tree, ccn_hf.response_time, tvb, 0, 0, &rec->delta);
        proto_item_set_generated(it);
    }
}
