/* The chat's state. See chat_model.h. */
#include "chat_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccnx/error.h>
#include <ccnx/naming.h>

#include "chat_text.h"

#define SEEN_MAX 4096 /* components remembered for Exclude filters */

struct chat_model {
    struct chat_msg *msgs; /* ordered by (version, publisher); notices by time */
    size_t nmsgs, msgs_cap;
    struct chat_member *members;
    size_t nmembers, members_cap;
    struct chat_comp *seen; /* canonical order, no duplicates */
    size_t nseen;
    uint64_t generation;
    struct chat_stats stats;
    double flood_burst, flood_rate; /* 0 burst: no limit */
};

int chat_comp_compare(const struct chat_comp *a, const struct chat_comp *b)
{
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return memcmp(a->b, b->b, a->len);
}

int chat_comp_ticks(const struct chat_comp *c, uint64_t *ticks)
{
    if (!ccnx_naming_is_version(c->b, c->len))
        return -1;
    return ccnx_naming_version_decode(c->b, c->len, ticks) < 0 ? -1 : 0;
}

void chat_comp_version(uint64_t ticks, struct chat_comp *out)
{
    int n = ccnx_naming_version_build(ticks, out->b);
    out->len = (uint8_t)(n < 0 ? 0 : n);
}

struct chat_model *chat_model_create(void)
{
    struct chat_model *m = calloc(1, sizeof *m);
    if (m != NULL)
        m->seen = calloc(SEEN_MAX, sizeof *m->seen);
    if (m != NULL && m->seen == NULL) {
        free(m);
        return NULL;
    }
    if (m != NULL)
        chat_model_set_flood(m, CHAT_FLOOD_BURST, CHAT_FLOOD_RATE);
    return m;
}

void chat_model_set_flood(struct chat_model *m, double burst, double rate)
{
    m->flood_burst = burst;
    m->flood_rate = rate;
    for (size_t i = 0; i < m->nmembers; i++)
        m->members[i].tokens = burst;
}

void chat_model_destroy(struct chat_model *m)
{
    if (m == NULL)
        return;
    for (size_t i = 0; i < m->nmsgs; i++)
        free(m->msgs[i].text);
    free(m->msgs);
    free(m->members);
    free(m->seen);
    free(m);
}

/* ---- Messages ---- */

/* Order of two messages: by time, then (same version) by publisher. */
static int msg_compare(const struct chat_msg *a, const struct chat_msg *b)
{
    if (a->ticks != b->ticks)
        return a->ticks < b->ticks ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind == CHAT_MSG_NOTICE ? 1 : -1;
    return memcmp(a->publisher, b->publisher, CHAT_DIGEST_LEN);
}

/* Index where msg belongs (the first entry not before it). */
static size_t msg_position(const struct chat_model *m, const struct chat_msg *msg)
{
    size_t lo = 0, hi = m->nmsgs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (msg_compare(&m->msgs[mid], msg) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Inserts msg (taking its text) in order, dropping the oldest message once
 * CHAT_SCROLLBACK are held. */
static int msg_insert(struct chat_model *m, struct chat_msg *msg, size_t *pos)
{
    if (m->nmsgs == m->msgs_cap) {
        size_t cap = m->msgs_cap ? m->msgs_cap * 2 : 64;
        struct chat_msg *p = realloc(m->msgs, cap * sizeof *p);
        if (p == NULL)
            return CCNX_E_NOMEM;
        m->msgs = p, m->msgs_cap = cap;
    }
    size_t i = msg_position(m, msg);
    if (i < m->nmsgs)
        m->stats.reordered += msg->kind == CHAT_MSG_TEXT;
    memmove(&m->msgs[i + 1], &m->msgs[i], (m->nmsgs - i) * sizeof *m->msgs);
    m->msgs[i] = *msg;
    m->nmsgs++;
    if (m->nmsgs > CHAT_SCROLLBACK) {
        free(m->msgs[0].text);
        memmove(&m->msgs[0], &m->msgs[1], (m->nmsgs - 1) * sizeof *m->msgs);
        m->nmsgs--;
        i = i > 0 ? i - 1 : 0;
    }
    if (pos != NULL)
        *pos = i;
    m->generation++;
    return 0;
}

static int is_duplicate(const struct chat_model *m, const struct chat_msg *msg)
{
    size_t i = msg_position(m, msg);
    return i < m->nmsgs && m->msgs[i].kind == CHAT_MSG_TEXT && msg_compare(&m->msgs[i], msg) == 0;
}

/* The flood bucket: 1 when the member may be shown one more message. */
static int flood_allows(struct chat_model *m, struct chat_member *mb, int64_t now_ms)
{
    if (m->flood_burst <= 0)
        return 1;
    double refill = (double)(now_ms - mb->tokens_ms) / 1000.0 * m->flood_rate;
    mb->tokens_ms = now_ms;
    mb->tokens = mb->tokens + (refill > 0 ? refill : 0);
    if (mb->tokens > m->flood_burst) {
        mb->tokens = m->flood_burst;
        mb->flooding = 0; /* a full bucket ends the episode */
    }
    if (mb->tokens >= 1.0) {
        mb->tokens -= 1.0;
        return 1;
    }
    mb->hidden++;
    m->stats.hidden++;
    return 0;
}

int chat_model_add(struct chat_model *m, const struct chat_comp *version,
                   const uint8_t publisher[CHAT_DIGEST_LEN], const uint8_t *text, size_t len,
                   int verify, int own, int64_t now_ms, size_t *pos)
{
    struct chat_msg msg = {
        .kind = CHAT_MSG_TEXT, .version = *version, .verify = verify, .own = own};
    if (chat_comp_ticks(version, &msg.ticks) < 0)
        return CCNX_E_VALUE;
    memcpy(msg.publisher, publisher, CHAT_DIGEST_LEN);
    chat_model_seen(m, version);
    if (is_duplicate(m, &msg)) {
        m->stats.duplicates++;
        return CHAT_ADD_DUP;
    }
    m->stats.received++;
    struct chat_member *mb = chat_model_member(m, publisher, 1, now_ms);
    if (mb == NULL)
        return CCNX_E_NOMEM;
    mb->last_seen_ms = now_ms;
    mb->departed = 0;
    mb->messages++;
    if (!own && !flood_allows(m, mb, now_ms)) {
        m->generation++;
        if (mb->flooding)
            return CHAT_ADD_FLOOD;
        mb->flooding = 1;
        return CHAT_ADD_FLOOD_START;
    }
    struct ccnx_buf t;
    ccnx_buf_init(&t);
    if (chat_text_sanitize(text, len, 0, &t) < 0) {
        ccnx_buf_free(&t);
        return CCNX_E_NOMEM;
    }
    msg.text = (char *)t.data;
    if (msg.text == NULL)
        msg.text = strdup("");
    int rc = msg.text == NULL ? CCNX_E_NOMEM : msg_insert(m, &msg, pos);
    if (rc < 0) {
        free(msg.text);
        return rc;
    }
    return CHAT_ADD_NEW;
}

int chat_model_notice(struct chat_model *m, uint64_t ticks, const char *text, size_t *pos)
{
    struct chat_msg msg = {.kind = CHAT_MSG_NOTICE, .ticks = ticks, .verify = CHAT_VERIFIED};
    msg.text = strdup(text);
    if (msg.text == NULL)
        return CCNX_E_NOMEM;
    int rc = msg_insert(m, &msg, pos);
    if (rc < 0)
        free(msg.text);
    return rc;
}

size_t chat_model_count(const struct chat_model *m)
{
    return m->nmsgs;
}

long chat_model_find(const struct chat_model *m, const struct chat_comp *version,
                     const uint8_t publisher[CHAT_DIGEST_LEN])
{
    struct chat_msg key = {.kind = CHAT_MSG_TEXT};
    if (chat_comp_ticks(version, &key.ticks) < 0)
        return -1;
    memcpy(key.publisher, publisher, CHAT_DIGEST_LEN);
    size_t i = msg_position(m, &key);
    return i < m->nmsgs && msg_compare(&m->msgs[i], &key) == 0 ? (long)i : -1;
}

const struct chat_msg *chat_model_msg(const struct chat_model *m, size_t i)
{
    return i < m->nmsgs ? &m->msgs[i] : NULL;
}

uint64_t chat_model_generation(const struct chat_model *m)
{
    return m->generation;
}

const struct chat_stats *chat_model_stats(const struct chat_model *m)
{
    return &m->stats;
}

void chat_model_count_malformed(struct chat_model *m)
{
    m->stats.malformed++;
    m->generation++;
}

void chat_model_count_unverified(struct chat_model *m)
{
    m->stats.unverified++;
    m->generation++;
}

/* ---- Members ---- */

struct chat_member *chat_model_member(struct chat_model *m, const uint8_t digest[CHAT_DIGEST_LEN],
                                      int create, int64_t now_ms)
{
    for (size_t i = 0; i < m->nmembers; i++)
        if (memcmp(m->members[i].digest, digest, CHAT_DIGEST_LEN) == 0)
            return &m->members[i];
    if (!create)
        return NULL;
    if (m->nmembers == m->members_cap) {
        size_t cap = m->members_cap ? m->members_cap * 2 : 16;
        struct chat_member *p = realloc(m->members, cap * sizeof *p);
        if (p == NULL)
            return NULL;
        m->members = p, m->members_cap = cap;
    }
    struct chat_member *mb = &m->members[m->nmembers++];
    memset(mb, 0, sizeof *mb);
    memcpy(mb->digest, digest, CHAT_DIGEST_LEN);
    mb->last_seen_ms = now_ms;
    mb->tokens = m->flood_burst;
    mb->tokens_ms = now_ms;
    /* A colour from the key, the same on every screen. */
    mb->colour = (unsigned)((digest[0] ^ digest[31]) % CHAT_COLOURS);
    m->generation++;
    return mb;
}

int chat_model_set_nick(struct chat_model *m, const uint8_t digest[CHAT_DIGEST_LEN],
                        const struct chat_comp *version, const uint8_t *nick, size_t len,
                        int64_t now_ms)
{
    struct chat_member *mb = chat_model_member(m, digest, 1, now_ms);
    if (mb == NULL)
        return CCNX_E_NOMEM;
    if (mb->nick[0] != '\0' && chat_comp_compare(version, &mb->nick_version) <= 0)
        return 0;
    struct ccnx_buf t;
    ccnx_buf_init(&t);
    /* A nickname is one short line: the sanitizer cuts it and makes it inert. */
    chat_text_sanitize_name(nick, len, &t);
    if (ccnx_buf_status(&t) < 0 || t.len == 0) {
        ccnx_buf_free(&t);
        return 0;
    }
    size_t n = t.len < CHAT_NICK_MAX - 1 ? t.len : CHAT_NICK_MAX - 1;
    while (n > 0 && n < t.len && (t.data[n] & 0xC0) == 0x80)
        n--; /* never cut inside a character */
    memcpy(mb->nick, t.data, n);
    mb->nick[n] = '\0';
    ccnx_buf_free(&t);
    mb->nick_version = *version;
    mb->last_seen_ms = now_ms;
    m->generation++;
    return 1;
}

/* 1 when a member with another key goes by the same nickname. */
static int nick_clashes(const struct chat_model *m, const struct chat_member *who)
{
    for (size_t i = 0; i < m->nmembers; i++) {
        const struct chat_member *mb = &m->members[i];
        if (mb != who && strcmp(mb->nick, who->nick) == 0 &&
            memcmp(mb->digest, who->digest, CHAT_DIGEST_LEN) != 0) {
            return 1;
        }
    }
    return 0;
}

const char *chat_model_name(const struct chat_model *m, const uint8_t digest[CHAT_DIGEST_LEN],
                            char *buf)
{
    for (size_t i = 0; i < m->nmembers; i++) {
        const struct chat_member *mb = &m->members[i];
        if (memcmp(mb->digest, digest, CHAT_DIGEST_LEN) != 0 || mb->nick[0] == '\0') {
            continue;
        }
        if (nick_clashes(m, mb)) {
            /* every holder of the name shows its key, so none passes for
             * another; the name is cut at a character for the suffix */
            int n = (int)strlen(mb->nick);
            while (n > CHAT_NICK_MAX - 6 || (n > 0 && (mb->nick[n] & 0xC0) == 0x80))
                n--;
            snprintf(buf, CHAT_NICK_MAX, "%.*s~%02x%02x", n, mb->nick, digest[0], digest[1]);
        } else {
            snprintf(buf, CHAT_NICK_MAX, "%s", mb->nick);
        }
        return buf;
    }
    snprintf(buf, CHAT_NICK_MAX, "%02x%02x%02x%02x", digest[0], digest[1], digest[2], digest[3]);
    return buf;
}

size_t chat_model_member_count(const struct chat_model *m)
{
    return m->nmembers;
}

const struct chat_member *chat_model_member_at(const struct chat_model *m, size_t i)
{
    return i < m->nmembers ? &m->members[i] : NULL;
}

void chat_model_member_departed(struct chat_model *m, const uint8_t digest[CHAT_DIGEST_LEN])
{
    struct chat_member *mb = chat_model_member(m, digest, 0, 0);
    if (mb != NULL) {
        mb->departed = 1;
        m->generation++;
    }
}

size_t chat_model_active_count(const struct chat_model *m, int64_t now_ms, int64_t window_ms)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nmembers; i++)
        n += !m->members[i].departed && now_ms - m->members[i].last_seen_ms <= window_ms;
    return n;
}

/* ---- Versions seen ---- */

void chat_model_seen(struct chat_model *m, const struct chat_comp *c)
{
    size_t lo = 0, hi = m->nseen;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = chat_comp_compare(&m->seen[mid], c);
        if (d == 0)
            return;
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (m->nseen == SEEN_MAX) {
        /* Forget the oldest: a live fence has long passed it. */
        if (lo == 0)
            return;
        memmove(&m->seen[0], &m->seen[1], (lo - 1) * sizeof *m->seen);
        lo--;
        m->seen[lo] = *c;
        return;
    }
    memmove(&m->seen[lo + 1], &m->seen[lo], (m->nseen - lo) * sizeof *m->seen);
    m->seen[lo] = *c;
    m->nseen++;
}

/* The newest version seen that is not past `limit`; 0 when none. */
static int newest_version(const struct chat_model *m, const struct chat_comp *limit,
                          uint64_t *ticks)
{
    for (size_t i = m->nseen; i-- > 0;)
        if (chat_comp_compare(&m->seen[i], limit) < 0 && chat_comp_ticks(&m->seen[i], ticks) == 0)
            return 1;
    return 0;
}

void chat_model_live_exclude(const struct chat_model *m, uint64_t now_ticks, struct chat_exclude *x)
{
    memset(x, 0, sizeof *x);
    chat_comp_version(now_ticks + CHAT_FUTURE_TICKS, &x->upper);
    uint64_t newest;
    if (!newest_version(m, &x->upper, &newest))
        return;
    if (newest > now_ticks)
        newest = now_ticks;
    x->has_fence = newest > CHAT_SKEW_TICKS;
    if (x->has_fence)
        chat_comp_version(newest - CHAT_SKEW_TICKS, &x->fence);
    /* Seen components between the fence and upper, listed one by one; when
     * there are too many, the fence moves up over the oldest of them. */
    size_t first = 0, end = 0;
    for (size_t i = 0; i < m->nseen; i++) {
        if (chat_comp_compare(&m->seen[i], &x->upper) >= 0)
            break;
        if (x->has_fence && chat_comp_compare(&m->seen[i], &x->fence) <= 0)
            first = i + 1;
        end = i + 1;
    }
    if (end - first > CHAT_EXCLUDE_MAX) {
        first = end - CHAT_EXCLUDE_MAX;
        x->fence = m->seen[first - 1];
        x->has_fence = 1;
    }
    x->n = end - first;
    memcpy(x->list, &m->seen[first], x->n * sizeof *x->list);
}

int chat_model_history_exclude(const struct chat_model *m, struct chat_exclude *x)
{
    memset(x, 0, sizeof *x);
    const struct chat_msg *oldest = NULL;
    for (size_t i = 0; i < m->nmsgs && oldest == NULL; i++)
        if (m->msgs[i].kind == CHAT_MSG_TEXT)
            oldest = &m->msgs[i];
    if (oldest == NULL)
        return 0;
    x->upper = oldest->version;
    /* What was seen below the oldest message (things that are not
     * messages) stays excluded, the newest of it first to go. */
    size_t end = 0;
    while (end < m->nseen && chat_comp_compare(&m->seen[end], &x->upper) < 0)
        end++;
    size_t first = end > CHAT_EXCLUDE_MAX ? end - CHAT_EXCLUDE_MAX : 0;
    if (first > 0) {
        x->has_fence = 1;
        x->fence = m->seen[first - 1];
    }
    x->n = end - first;
    memcpy(x->list, &m->seen[first], x->n * sizeof *x->list);
    return 1;
}
