/* The details pane's lines (see explore_details.h). */
#include "explore_details.h"

#include <ccnx/content.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>

#include <string.h>

#include "explore_label.h"

static void hex(struct ccnx_buf *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ccnx_buf_printf(out, "%02x", p[i]);
}

static void key_locator(struct ccnx_buf *out, const uint8_t *obj,
                        const struct ccnx_content_parsed *pc)
{
    ccnx_buf_append_str(out, "Key locator: ");
    switch (pc->key_locator_kind) {
    case CCNX_KEYLOC_KEY:
        ccnx_buf_printf(out, "the key itself (%zu bytes)", pc->key_locator_value.len);
        break;
    case CCNX_KEYLOC_CERTIFICATE:
        ccnx_buf_printf(out, "a certificate (%zu bytes)", pc->key_locator_value.len);
        break;
    case CCNX_KEYLOC_KEYNAME:
        ccnx_buf_append_str(out, "key name ");
        ccnx_uri_append(out, obj + pc->key_name.off, pc->key_name.len);
        break;
    default:
        ccnx_buf_append_str(out, "none");
    }
    ccnx_buf_append_byte(out, '\n');
}

static void final_block(struct ccnx_buf *out, const uint8_t *obj,
                        const struct ccnx_content_parsed *pc)
{
    uint64_t seg;
    ccnx_buf_append_str(out, "FinalBlockID: ");
    if (!pc->has_final_block_id)
        ccnx_buf_append_str(out, "none");
    else if (ccnx_naming_segment_decode(obj + pc->final_block_id.off, pc->final_block_id.len,
                                        &seg) == 0)
        ccnx_buf_printf(out, "segment %llu", (unsigned long long)seg);
    else
        ccnx_uri_append_comp(out, obj + pc->final_block_id.off, pc->final_block_id.len);
    ccnx_buf_append_byte(out, '\n');
}

static void signature(struct ccnx_buf *out, const struct ex_details *det)
{
    ccnx_buf_append_str(out, "Signature: ");
    switch (det->verify) {
    case EX_VERIFY_OK:
        ccnx_buf_append_str(out, "verified");
        break;
    case EX_VERIFY_FAILED:
        ccnx_buf_append_str(out, "FAILED: ");
        ex_label_inert_text(out, (const uint8_t *)(det->verify_error ? det->verify_error : "?"),
                            strlen(det->verify_error ? det->verify_error : "?"), 0);
        break;
    case EX_VERIFY_PENDING:
        ccnx_buf_append_str(out, "checking...");
        break;
    default:
        ccnx_buf_append_str(out, "not checked");
    }
    ccnx_buf_append_byte(out, '\n');
}

static void object_lines(struct ccnx_buf *out, const struct ex_details *det)
{
    struct ccnx_content_parsed pc;
    const uint8_t *obj = det->object;
    if (ccnx_content_parse(obj, det->len, &pc) != 0) {
        ccnx_buf_append_str(out, "Object: malformed\n");
        return;
    }
    const char *type = ccnx_content_type_name(pc.type);
    ccnx_buf_append_str(out, "Object: ");
    ccnx_uri_append(out, obj + pc.name.off, pc.name.len);
    ccnx_buf_printf(out, "\nType: %s\nPublisher: ", type != NULL ? type : "unknown");
    hex(out, obj + pc.publisher.off, pc.publisher.len);
    ccnx_buf_append_byte(out, '\n');
    key_locator(out, obj, &pc);
    uint64_t ticks;
    ccnx_buf_append_str(out, "Signed: ");
    if (ccnx_naming_timestamp_decode(obj + pc.timestamp.off, pc.timestamp.len, &ticks) == 0)
        ex_label_date(out, ticks, 1);
    else
        ccnx_buf_append_str(out, "no time");
    if (pc.freshness >= 0)
        ccnx_buf_printf(out, "\nFreshness: %lld s\n", (long long)pc.freshness);
    else
        ccnx_buf_append_str(out, "\nFreshness: none\n");
    final_block(out, obj, &pc);
    ccnx_buf_append_str(out, "Object size: ");
    ex_label_size(out, pc.content_value.len);
    ccnx_buf_append_str(out, " of content\n");
    signature(out, det);
}

int ex_details_text(const struct ex_tree *t, const struct ex_node *node,
                    const struct ex_details *det, struct ccnx_buf *out)
{
    ccnx_buf_append_str(out, "URI: ");
    ex_node_uri(t, node, out);
    ccnx_buf_append_str(out, "\nSeen in: ");
    size_t before = out->len;
    ex_sources_text(node->sources, out);
    if (out->len == before)
        ccnx_buf_append_str(out, node->parent == NULL ? "(the prefix asked for)" : "-");
    ccnx_buf_append_byte(out, '\n');
    before = out->len;
    ccnx_buf_append_str(out, "Holds: ");
    ex_node_summary(node, out);
    if (out->len == before + 7)
        out->len = before;
    else
        ccnx_buf_append_byte(out, '\n');
    if (det->state == 1)
        ccnx_buf_append_str(out, "Object: asking...\n");
    else if (det->state == 3)
        ccnx_buf_append_str(out, "Object: nothing answered\n");
    else if (det->state == 2 && det->object != NULL)
        object_lines(out, det);
    return ccnx_buf_status(out);
}
