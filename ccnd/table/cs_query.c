/* The content store's entries found, removed and read, and its figures
 * (see cs.h). */
#include "table/cs_internal.h"

#include "table/arena.h"

#include <stdlib.h>
#include <string.h>

static int has_digest(const struct cs_entry *e, const uint8_t digest[32])
{
    uint8_t own[32];
    if (e->lazy) {
        ccnx_content_digest(entry_bytes(e), e->len, own);
        return memcmp(own, digest, 32) == 0;
    }
    return memcmp(cs_entry_digest(e), digest, 32) == 0;
}

const struct cs_entry *cs_find(const struct cs *cs, const uint8_t *name, size_t name_len,
                               const uint8_t digest[32])
{
    uint8_t inline_key[CS_KEY_INLINE];
    uint8_t *key = inline_key;
    const struct cs_entry *found = NULL;
    size_t klen;
    if (name_len > sizeof inline_key && (key = malloc(name_len)) == NULL) {
        return NULL;
    }
    if (ccnx_namekey_from_name(name, name_len, key, &klen, NULL) == 0) {
        uint32_t h = name_hash(key, klen);
        size_t mask = cs->nslots - 1;
        for (size_t i = h & mask; cs->slots[i].e != NULL; i = (i + 1) & mask) {
            const struct cs_entry *e = cs->slots[i].e;
            if (cs->slots[i].hash == h && entry_name_keylen(e) == klen &&
                memcmp(entry_key(e), key, klen) == 0 && has_digest(e, digest)) {
                found = e;
                break;
            }
        }
    }
    if (key != inline_key) {
        free(key);
    }
    return found;
}

int cs_remove(struct cs *cs, const struct cs_entry *e)
{
    int r = cs_remove_entry(cs, (struct cs_entry *)e);
    if (r == 0) {
        cs->st.removals++;
    }
    return r;
}

void cs_mark_stale(struct cs *cs, const struct cs_entry *e, uint64_t now)
{
    ccnx_heap_set(&cs->stale, &((struct cs_entry *)e)->stale, now);
}

size_t cs_purge_stale(struct cs *cs, uint64_t now, size_t max)
{
    size_t done = 0;
    struct ccnx_heap_node *x;
    while (done < max && (x = ccnx_heap_top(&cs->stale)) != NULL && x->when <= now) {
        cs_remove_entry(cs, entry_of_stale(x));
        cs->st.removals++;
        done++;
    }
    return done;
}

const struct cs_entry *cs_first(const struct cs *cs)
{
    return cs->head->next[0];
}

const struct cs_entry *cs_next(const struct cs_entry *e)
{
    return e->next[0];
}

const uint8_t *cs_entry_object(const struct cs_entry *e, size_t *len)
{
    *len = e->len;
    return entry_bytes(e);
}

const uint8_t *cs_entry_digest(const struct cs_entry *e)
{
    settle((struct cs_entry *)e); /* computing it later is what lazy means, not a change */
    return entry_key(e) + e->keylen - 32;
}

const uint8_t *cs_entry_name(const struct cs_entry *e, size_t *len)
{
    *len = e->name_len;
    return entry_bytes(e) + e->name_off;
}

uint64_t cs_entry_arrival(const struct cs_entry *e)
{
    return e->arrival;
}

int cs_entry_is_stale(const struct cs_entry *e, uint64_t now)
{
    return now >= e->stale.when;
}

void cs_get_stats(const struct cs *cs, struct cs_stats *out)
{
    struct arena_stats a;
    arena_get_stats(cs->mem, &a);
    *out = cs->st;
    out->memory = a.in_use + a.free + cs->big_bytes;
    out->capacity = cs->capacity;
    out->max_bytes = cs->max_bytes;
}

size_t cs_count(const struct cs *cs)
{
    return (size_t)cs->st.entries;
}
