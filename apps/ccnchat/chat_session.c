/* A member in a room. See chat_session.h. */
#include "chat_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/match.h>
#include <ccnx/naming.h>
#include <ccnx/uri.h>
#include <ccnx/key.h>
#include <ccnx/keystore.h>

#include "chat_identity.h"
#include "chat_text.h"
#include "chat_wire.h"

#define WATCH_MAX       64 /* members whose member objects are watched */
#define HOLD_MAX        64 /* messages of new members held until their name is known */
#define FAREWELL_PREFIX "=== "
#define FAREWELL_SUFFIX " leaving chat"

/* One of our own objects, kept to answer Interests. */
struct stored {
    struct ccnx_buf obj;
    struct ccnx_content_parsed pc;
    uint8_t digest[CCNX_DIGEST_LEN];
};

/* A standing Interest for one member's member object. */
struct watch {
    struct chat_session *s;
    uint8_t digest[CHAT_DIGEST_LEN];
    struct chat_comp last;
    int has_last;
    int settled; /* the first Interest was answered or timed out */
    uint64_t id;
};

/* Messages of one name (a version) received or sent, by implicit digest,
 * and the Interest looking for one more. */
struct sibling {
    struct chat_comp version;
    uint8_t digests[CHAT_SIBLING_MAX][CCNX_DIGEST_LEN];
    size_t n;
    uint64_t id;
    struct chat_session *s;
};
#define SIBLINGS 128 /* names followed at once (a ring: the oldest is dropped) */

/* A new member's message not announced yet: its name is being fetched. */
struct held {
    struct chat_comp version;
    uint8_t publisher[CHAT_DIGEST_LEN];
};

struct chat_session {
    struct ccnx_client *c;
    struct ccnx_verifier *v;
    struct ccnx_keystore *ks; /* the nickname's own key (chat_identity.h), or NULL */
    const struct ccnx_key *key;
    struct ccnx_name room;
    char *room_uri;
    char nick[CHAT_NICK_MAX];
    struct chat_session_opts o;
    struct chat_model *model;
    chat_event_fn fn;
    void *arg;
    uint64_t filter_id;
    uint64_t live_id;
    int live_first_done;
    int history_started, history_done;
    size_t history_got, history_steps;
    uint64_t history_id;
    uint64_t join_ticks, last_ticks;
    struct stored *own; /* ring of o.keep messages, oldest at own_head */
    size_t nown, own_head;
    struct stored member;
    int have_member;
    struct watch watches[WATCH_MAX];
    size_t nwatches;
    struct sibling siblings[SIBLINGS];
    size_t sibling_next;
    struct held held[HOLD_MAX];
    size_t nheld;
    int done_waits; /* the history ended while messages were held */
    int was_connected;
};

void chat_session_opts_init(struct chat_session_opts *o)
{
    memset(o, 0, sizeof *o);
    o->freshness = -1;
    o->flood_burst = CHAT_FLOOD_BURST;
    o->flood_rate = CHAT_FLOOD_RATE;
}

static uint64_t now_ticks(void)
{
    uint64_t t = 0;
    ccnx_naming_timestamp_now(&t);
    return t;
}

static void emit(struct chat_session *s, enum chat_event ev, const struct chat_msg *msg)
{
    if (s->fn != NULL)
        s->fn(s->arg, ev, msg);
}

void chat_session_notice(struct chat_session *s, const char *text)
{
    size_t pos;
    if (chat_model_notice(s->model, now_ticks(), text, &pos) == 0)
        emit(s, CHAT_EV_MESSAGE, chat_model_msg(s->model, pos));
}

/* ---- Expressing ---- */

static void live_content(void *arg, const uint8_t *obj, size_t len,
                         const struct ccnx_content_parsed *pc);
static void live_timeout(void *arg);
static void history_content(void *arg, const uint8_t *obj, size_t len,
                            const struct ccnx_content_parsed *pc);
static void history_timeout(void *arg);
static void watch_content(void *arg, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc);
static void watch_timeout(void *arg);

static int express(struct chat_session *s, struct ccnx_buf *interest, ccnx_content_fn on_content,
                   ccnx_timeout_fn on_timeout, void *arg, uint64_t *id)
{
    struct ccnx_express_opts eo = {.on_content = on_content, .on_timeout = on_timeout, .arg = arg};
    int rc = ccnx_buf_status(interest);
    if (rc == 0)
        rc = ccnx_client_express(s->c, interest->data, interest->len, &eo, id);
    ccnx_buf_free(interest);
    return rc;
}

/* The standing Interest for new messages. The first asks for the newest
 * (rightmost) that is not ours; the next ones exclude everything seen. */
static void express_live(struct chat_session *s)
{
    struct chat_exclude x;
    struct ccnx_buf b;
    ccnx_buf_init(&b);
    chat_model_live_exclude(s->model, now_ticks(), &x);
    int first = !s->live_first_done;
    chat_wire_room_interest(&b, &s->room, &x, first,
                            first ? CHAT_FIRST_LIFETIME : CHAT_LIVE_LIFETIME);
    express(s, &b, live_content, live_timeout, s, &s->live_id);
}

static void history_end(struct chat_session *s)
{
    if (s->history_done)
        return;
    if (s->nheld > 0) {
        s->done_waits = 1; /* announced once the names are known */
        return;
    }
    s->history_done = 1;
    emit(s, CHAT_EV_HISTORY_DONE, NULL);
}

/* One step back: the newest message older than the oldest one seen. */
static void express_history(struct chat_session *s)
{
    struct chat_exclude x;
    size_t want = s->o.no_history ? 0 : s->o.history;
    if (s->history_got >= want || s->history_steps >= want + CHAT_EXCLUDE_MAX ||
        !chat_model_history_exclude(s->model, &x)) {
        history_end(s);
        return;
    }
    struct ccnx_buf b;
    ccnx_buf_init(&b);
    chat_wire_room_interest(&b, &s->room, &x, 1, CHAT_HISTORY_LIFETIME);
    s->history_steps++;
    if (express(s, &b, history_content, history_timeout, s, &s->history_id) < 0)
        history_end(s);
}

static void start_history(struct chat_session *s)
{
    if (s->history_started)
        return;
    s->history_started = 1;
    express_history(s);
}

static void express_watch(struct watch *w)
{
    struct ccnx_buf b;
    ccnx_buf_init(&b);
    /* The first ask is short: a new member's first lines wait for it. */
    chat_wire_member_interest(&b, &w->s->room, w->digest, w->has_last ? &w->last : NULL,
                              w->settled ? CHAT_LIVE_LIFETIME : CHAT_MEMBER_FIRST_LIFETIME);
    express(w->s, &b, watch_content, watch_timeout, w, &w->id);
}

/* The member's name is known (or will not come soon): its held messages
 * are announced, and the end of the history if it waited for them. */
static void watch_settled(struct watch *w)
{
    struct chat_session *s = w->s;
    if (w->settled)
        return;
    w->settled = 1;
    size_t keep = 0;
    for (size_t i = 0; i < s->nheld; i++) {
        struct held *h = &s->held[i];
        if (memcmp(h->publisher, w->digest, CHAT_DIGEST_LEN) != 0) {
            s->held[keep++] = *h;
            continue;
        }
        long at = chat_model_find(s->model, &h->version, h->publisher);
        if (at >= 0 && s->history_done)
            emit(s, CHAT_EV_MESSAGE, chat_model_msg(s->model, (size_t)at));
    }
    s->nheld = keep;
    if (s->nheld == 0 && s->done_waits) {
        s->done_waits = 0;
        history_end(s);
    }
}

/* 1 when a message from `digest` waits for the member's name. */
static int hold(struct chat_session *s, const uint8_t *digest, const struct chat_comp *version)
{
    for (size_t i = 0; i < s->nwatches; i++) {
        struct watch *w = &s->watches[i];
        if (memcmp(w->digest, digest, CHAT_DIGEST_LEN) != 0)
            continue;
        if (w->settled || s->nheld == HOLD_MAX)
            return 0;
        s->held[s->nheld].version = *version;
        memcpy(s->held[s->nheld++].publisher, digest, CHAT_DIGEST_LEN);
        return 1;
    }
    return 0;
}

static void watch_member(struct chat_session *s, const uint8_t *digest)
{
    for (size_t i = 0; i < s->nwatches; i++)
        if (memcmp(s->watches[i].digest, digest, CHAT_DIGEST_LEN) == 0)
            return;
    if (s->nwatches == WATCH_MAX)
        return;
    struct watch *w = &s->watches[s->nwatches++];
    memset(w, 0, sizeof *w);
    w->s = s;
    memcpy(w->digest, digest, CHAT_DIGEST_LEN);
    express_watch(w);
}

/* ---- Receiving ---- */

static int is_farewell(const struct chat_msg *m)
{
    size_t n = strlen(m->text), p = strlen(FAREWELL_PREFIX), q = strlen(FAREWELL_SUFFIX);
    return n > p + q && memcmp(m->text, FAREWELL_PREFIX, p) == 0 &&
           strcmp(m->text + n - q, FAREWELL_SUFFIX) == 0;
}

static void accept_message(struct chat_session *s, const struct chat_wire_obj *w, int verify)
{
    int64_t now = ccnx_client_now_ms();
    int known = chat_model_member(s->model, w->publisher, 0, now) != NULL;
    size_t pos = 0;
    int rc = chat_model_add(s->model, &w->version, w->publisher, w->text, w->text_len, verify, 0,
                            now, &pos);
    if (!known && rc >= 0)
        watch_member(s, w->publisher);
    if (rc == CHAT_ADD_FLOOD_START) {
        char name[CHAT_NICK_MAX], line[CHAT_NICK_MAX + 64];
        snprintf(line, sizeof line, "%s is flooding the room: messages hidden",
                 chat_model_name(s->model, w->publisher, name));
        chat_session_notice(s, line);
    }
    if (rc != CHAT_ADD_NEW)
        return;
    const struct chat_msg *m = chat_model_msg(s->model, pos);
    if (is_farewell(m))
        chat_model_member_departed(s->model, w->publisher);
    if (!hold(s, w->publisher, &w->version))
        emit(s, CHAT_EV_MESSAGE, m);
}

/* Called with the verification result, at once or after a key fetch. */
static void verified(void *arg, int result, const char *error, const uint8_t *obj, size_t len,
                     const struct ccnx_content_parsed *pc)
{
    (void)error, (void)len;
    struct chat_session *s = arg;
    struct chat_wire_obj w;
    struct chat_comp first;
    int has_first;
    if (chat_wire_parse(&s->room, obj, pc, &w, &first, &has_first) < 0)
        return;
    if (result != 0) {
        chat_model_count_unverified(s->model);
        if (s->o.drop_unverified || w.kind == CHAT_WIRE_MEMBER)
            return; /* a nickname is never taken unverified */
    }
    if (w.kind == CHAT_WIRE_MEMBER) {
        if (chat_model_set_nick(s->model, w.publisher, &w.version, w.text, w.text_len,
                                ccnx_client_now_ms()) == 1)
            emit(s, CHAT_EV_CHANGED, NULL);
        return;
    }
    accept_message(s, &w, result == 0 ? CHAT_VERIFIED : CHAT_FAILED);
}

static void sibling_content(void *arg, const uint8_t *obj, size_t len,
                            const struct ccnx_content_parsed *pc);

static void sibling_timeout(void *arg)
{
    ((struct sibling *)arg)->id = 0;
}

/* A message named `version` with implicit digest `digest` was received or
 * sent: unless known, it joins its name's list, and the look for one more
 * message of that name starts again with it excluded. */
static void note_sibling(struct chat_session *s, const struct chat_comp *version,
                         const uint8_t *obj, size_t len)
{
    uint8_t digest[CCNX_DIGEST_LEN];
    if (ccnx_content_digest(obj, len, digest) < 0)
        return;
    struct sibling *sb = NULL;
    for (size_t i = 0; i < SIBLINGS && sb == NULL; i++)
        if (s->siblings[i].n > 0 && chat_comp_compare(&s->siblings[i].version, version) == 0)
            sb = &s->siblings[i];
    if (sb == NULL) {
        sb = &s->siblings[s->sibling_next];
        s->sibling_next = (s->sibling_next + 1) % SIBLINGS;
        if (sb->id != 0)
            ccnx_client_cancel(s->c, sb->id);
        memset(sb, 0, sizeof *sb);
        sb->version = *version;
        sb->s = s;
    }
    for (size_t i = 0; i < sb->n; i++)
        if (memcmp(sb->digests[i], digest, CCNX_DIGEST_LEN) == 0)
            return;
    if (sb->n == CHAT_SIBLING_MAX)
        return;
    memcpy(sb->digests[sb->n++], digest, CCNX_DIGEST_LEN);
    if (sb->id != 0)
        ccnx_client_cancel(s->c, sb->id);
    sb->id = 0;
    struct ccnx_buf b;
    ccnx_buf_init(&b);
    chat_wire_sibling_interest(&b, &s->room, version, (const uint8_t(*)[32])sb->digests, sb->n,
                               CHAT_SIBLING_LIFETIME);
    express(s, &b, sibling_content, sibling_timeout, sb, &sb->id);
}

/* Any object that came for the room: classified, remembered for the
 * Exclude filters, verified. Returns 1 for a message or member object. */
static int receive(struct chat_session *s, const uint8_t *obj, size_t len,
                   const struct ccnx_content_parsed *pc)
{
    struct chat_wire_obj w;
    struct chat_comp first;
    int has_first;
    int rc = chat_wire_parse(&s->room, obj, pc, &w, &first, &has_first);
    uint64_t ticks = 0;
    if (rc == 0 && w.kind == CHAT_WIRE_MESSAGE &&
        (chat_comp_ticks(&w.version, &ticks) < 0 || ticks > now_ticks() + CHAT_FUTURE_TICKS))
        rc = CCNX_E_VALUE; /* from the far future: it would hold the fence */
    if (rc < 0) {
        chat_model_count_malformed(s->model);
        if (has_first)
            chat_model_seen(s->model, &first);
        return 0;
    }
    if (w.kind == CHAT_WIRE_MESSAGE) {
        chat_model_seen(s->model, &w.version); /* before a key fetch, so it is not asked again */
        note_sibling(s, &w.version, obj, len);
    }
    ccnx_verifier_check(s->v, obj, len, pc, verified, s);
    return 1;
}

static void sibling_content(void *arg, const uint8_t *obj, size_t len,
                            const struct ccnx_content_parsed *pc)
{
    struct sibling *sb = arg;
    sb->id = 0;
    receive(sb->s, obj, len, pc); /* a message: note_sibling asks again */
}

static void live_content(void *arg, const uint8_t *obj, size_t len,
                         const struct ccnx_content_parsed *pc)
{
    struct chat_session *s = arg;
    s->live_id = 0;
    s->live_first_done = 1;
    if (receive(s, obj, len, pc))
        start_history(s);
    express_live(s);
}

static void live_timeout(void *arg)
{
    struct chat_session *s = arg;
    s->live_id = 0;
    if (!s->live_first_done && !s->history_started)
        history_end(s); /* nothing but ours in the room: no history to walk */
    s->live_first_done = 1;
    express_live(s);
}

static void history_content(void *arg, const uint8_t *obj, size_t len,
                            const struct ccnx_content_parsed *pc)
{
    struct chat_session *s = arg;
    s->history_id = 0;
    s->history_got += (size_t)receive(s, obj, len, pc);
    express_history(s);
}

static void history_timeout(void *arg)
{
    struct chat_session *s = arg;
    s->history_id = 0;
    history_end(s);
}

static void watch_content(void *arg, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc)
{
    struct watch *w = arg;
    struct chat_wire_obj o;
    struct chat_comp first;
    int has_first;
    w->id = 0;
    if (chat_wire_parse(&w->s->room, obj, pc, &o, &first, &has_first) == 0 &&
        o.kind == CHAT_WIRE_MEMBER && memcmp(o.publisher, w->digest, CHAT_DIGEST_LEN) == 0) {
        w->last = o.version;
        w->has_last = 1;
        ccnx_verifier_check(w->s->v, obj, len, pc, verified, w->s);
        watch_settled(w);
        express_watch(w);
        return;
    }
    /* Something else answers for this member: asking again would bring it
     * back, so the watch ends (the member keeps the name it has). */
    chat_model_count_malformed(w->s->model);
    watch_settled(w);
}

static void watch_timeout(void *arg)
{
    struct watch *w = arg;
    w->id = 0;
    watch_settled(w);
    express_watch(w);
}

/* ---- Answering from our own store ---- */

static int store_set(struct stored *st, const struct ccnx_buf *obj)
{
    ccnx_buf_reset(&st->obj);
    if (ccnx_buf_append(&st->obj, obj->data, obj->len) < 0 ||
        ccnx_content_parse(st->obj.data, st->obj.len, &st->pc) < 0 ||
        ccnx_content_digest(st->obj.data, st->obj.len, st->digest) < 0)
        return CCNX_E_VALUE;
    return 0;
}

static const struct stored *own_at(const struct chat_session *s, size_t i)
{
    return &s->own[(s->own_head + i) % s->o.keep];
}

static int answer(struct chat_session *s, const struct stored *st, const uint8_t *interest,
                  const struct ccnx_interest_parsed *pi)
{
    if (!ccnx_match(interest, pi, st->obj.data, st->obj.len, &st->pc, st->digest))
        return 0;
    ccnx_client_put(s->c, st->obj.data, st->obj.len);
    return 1;
}

/* Interests under the room that ccnd sends here: the best match among our
 * messages (oldest first, or newest for ChildSelector rightmost) and our
 * member object. Unanswered ones stay pending in ccnd, which our next
 * message will satisfy. */
static int on_interest(void *arg, const uint8_t *interest, size_t len,
                       const struct ccnx_interest_parsed *pi)
{
    (void)len;
    struct chat_session *s = arg;
    if (s->have_member && answer(s, &s->member, interest, pi))
        return 1;
    for (size_t k = 0; k < s->nown; k++) {
        size_t i = pi->child_selector == 1 ? s->nown - 1 - k : k;
        if (answer(s, own_at(s, i), interest, pi))
            return 1;
    }
    return 0;
}

/* ---- Publishing ---- */

/* A fresh version, later than any we made (two messages in one tick). */
static uint64_t next_ticks(struct chat_session *s)
{
    uint64_t t = now_ticks();
    if (t <= s->last_ticks)
        t = s->last_ticks + 1;
    s->last_ticks = t;
    return t;
}

int chat_session_send(struct chat_session *s, const char *text)
{
    struct ccnx_buf obj;
    struct chat_comp version;
    size_t n = strlen(text);
    ccnx_buf_init(&obj);
    int rc = chat_wire_message(&obj, &s->room, next_ticks(s), (const uint8_t *)text, n,
                               s->o.freshness, s->key, &version);
    if (rc < 0) {
        ccnx_buf_free(&obj);
        return rc;
    }
    struct stored *st;
    if (s->nown < s->o.keep) {
        st = &s->own[s->nown++];
    } else {
        st = &s->own[s->own_head];
        s->own_head = (s->own_head + 1) % s->o.keep;
    }
    rc = store_set(st, &obj);
    /* While ccnd is away the put fails; the message stays in the store and
     * answers the members' Interests once the connection is back. */
    ccnx_client_put(s->c, obj.data, obj.len);
    if (rc == 0)
        note_sibling(s, &version, obj.data, obj.len); /* someone may send in the same tick */
    ccnx_buf_free(&obj);
    size_t pos;
    if (rc == 0 &&
        chat_model_add(s->model, &version, ccnx_key_digest(s->key), (const uint8_t *)text, n,
                       CHAT_VERIFIED, 1, ccnx_client_now_ms(), &pos) == CHAT_ADD_NEW)
        emit(s, CHAT_EV_MESSAGE, chat_model_msg(s->model, pos));
    return rc;
}

int chat_session_action(struct chat_session *s, const char *text)
{
    struct ccnx_buf line;
    ccnx_buf_init(&line);
    ccnx_buf_printf(&line, "* %s %s", s->nick, text);
    int rc = ccnx_buf_status(&line) < 0 ? CCNX_E_NOMEM : chat_session_send(s, ccnx_buf_cstr(&line));
    ccnx_buf_free(&line);
    return rc;
}

static int publish_member(struct chat_session *s)
{
    struct ccnx_buf obj;
    struct chat_comp version;
    ccnx_buf_init(&obj);
    int rc = chat_wire_member(&obj, &s->room, next_ticks(s), s->nick, s->key, &version);
    if (rc == 0)
        rc = store_set(&s->member, &obj);
    if (rc == 0) {
        s->have_member = 1;
        ccnx_client_put(s->c, obj.data, obj.len);
        chat_model_set_nick(s->model, ccnx_key_digest(s->key), &version, (const uint8_t *)s->nick,
                            strlen(s->nick), ccnx_client_now_ms());
        emit(s, CHAT_EV_CHANGED, NULL);
    }
    ccnx_buf_free(&obj);
    return rc;
}

int chat_session_set_nick(struct chat_session *s, const char *nick)
{
    struct ccnx_buf t;
    ccnx_buf_init(&t);
    /* Our own name goes through the same cut as everyone's. */
    chat_text_sanitize_name((const uint8_t *)nick, strlen(nick), &t);
    int ok = ccnx_buf_status(&t) == 0 && t.len > 0 && t.len < CHAT_NICK_MAX;
    if (ok)
        snprintf(s->nick, sizeof s->nick, "%s", (const char *)t.data);
    ccnx_buf_free(&t);
    return ok ? publish_member(s) : CCNX_E_VALUE;
}

/* ---- Life cycle ---- */

static void default_nick(struct chat_session *s)
{
    const char *user = s->o.nick != NULL ? s->o.nick : getenv("USER");
    if (user != NULL && user[0] != '\0') {
        snprintf(s->nick, sizeof s->nick, "%s", user);
        return;
    }
    const uint8_t *d = ccnx_key_digest(s->key);
    snprintf(s->nick, sizeof s->nick, "%02x%02x%02x%02x", d[0], d[1], d[2], d[3]);
}

static int join(struct chat_session *s, struct ccnx_buf *err)
{
    if (ccnx_uri_parse_str(&s->room, s->o.room) < 0) {
        ccnx_buf_printf(err, "'%s' is not a ccnx: URI (try ccnx:/testroom1)", s->o.room);
        return CCNX_E_URI;
    }
    struct ccnx_buf uri;
    ccnx_buf_init(&uri);
    ccnx_uri_append_name(&uri, &s->room);
    s->room_uri = strdup(ccnx_buf_status(&uri) == 0 ? ccnx_buf_cstr(&uri) : s->o.room);
    ccnx_buf_free(&uri);
    /* The nickname picks the key (chat_identity.h); with none at all, the
     * account's key is the member. */
    const char *nick = s->o.nick != NULL ? s->o.nick : getenv("USER");
    if (nick != NULL && nick[0] != '\0') {
        int krc = chat_identity_open(nick, &s->ks, err);
        if (krc != 0) {
            return krc;
        }
        s->key = ccnx_keystore_key(s->ks);
    } else {
        s->key = ccnx_client_key(s->c);
    }
    if (s->key == NULL) {
        ccnx_buf_printf(err, "no key to sign messages with: %s", ccnx_client_error(s->c));
        return CCNX_E_NOKEY;
    }
    s->own = calloc(s->o.keep, sizeof *s->own);
    if (s->room_uri == NULL || s->own == NULL || (s->model = chat_model_create()) == NULL ||
        ccnx_verifier_create(s->c, &s->v) < 0) {
        ccnx_buf_printf(err, "out of memory");
        return CCNX_E_NOMEM;
    }
    chat_model_set_flood(s->model, s->o.flood_burst, s->o.flood_rate);
    default_nick(s);
    int rc = chat_session_set_nick(s, s->nick);
    if (rc < 0) {
        ccnx_buf_printf(err, "nickname '%s' cannot be used", s->nick);
        return rc;
    }
    rc = ccnx_client_set_filter(s->c, &s->room, CCNX_FILTER_REGISTER, 0, on_interest, s,
                                &s->filter_id);
    if (rc < 0) {
        ccnx_buf_printf(err, "cannot answer for %s: %s", s->room_uri, ccnx_client_error(s->c));
        return rc;
    }
    s->join_ticks = now_ticks();
    s->was_connected = ccnx_client_connected(s->c);
    if (!s->o.quiet) {
        struct ccnx_buf hello;
        ccnx_buf_init(&hello);
        ccnx_buf_printf(&hello, "%s has entered %s", s->nick, s->room_uri);
        chat_session_send(s, ccnx_buf_cstr(&hello));
        ccnx_buf_free(&hello);
    }
    express_live(s);
    return 0;
}

int chat_session_create(struct ccnx_client *c, const struct chat_session_opts *o, chat_event_fn fn,
                        void *arg, struct chat_session **out, struct ccnx_buf *err)
{
    *out = NULL;
    struct chat_session *s = calloc(1, sizeof *s);
    if (s == NULL)
        return CCNX_E_NOMEM;
    s->c = c;
    s->o = *o;
    if (s->o.keep == 0)
        s->o.keep = CHAT_KEEP_DEFAULT;
    if (s->o.history == 0)
        s->o.history = CHAT_HISTORY_DEFAULT;
    s->fn = fn;
    s->arg = arg;
    ccnx_name_init(&s->room);
    int rc = join(s, err);
    if (rc < 0) {
        s->o.quiet = 1;
        chat_session_destroy(s, 0);
        return rc;
    }
    *out = s;
    return 0;
}

static void cancel(struct chat_session *s, uint64_t *id)
{
    if (*id != 0)
        ccnx_client_cancel(s->c, *id);
    *id = 0;
}

void chat_session_destroy(struct chat_session *s, int ms)
{
    if (s == NULL)
        return;
    s->fn = NULL; /* the view is going away */
    if (!s->o.quiet && s->key != NULL) {
        struct ccnx_buf bye;
        ccnx_buf_init(&bye);
        ccnx_buf_printf(&bye, FAREWELL_PREFIX "%s" FAREWELL_SUFFIX, s->nick);
        chat_session_send(s, ccnx_buf_cstr(&bye));
        ccnx_buf_free(&bye);
    }
    /* What was said last (and the farewell) must reach ccnd before we go. */
    int64_t end = ccnx_client_now_ms() + ms;
    while (ccnx_client_output_pending(s->c) > 0 && ccnx_client_connected(s->c) &&
           ccnx_client_now_ms() < end)
        ccnx_client_run(s->c, 10);
    cancel(s, &s->live_id);
    cancel(s, &s->history_id);
    for (size_t i = 0; i < SIBLINGS; i++)
        cancel(s, &s->siblings[i].id);
    for (size_t i = 0; i < s->nwatches; i++)
        cancel(s, &s->watches[i].id);
    if (s->filter_id != 0)
        ccnx_client_clear_filter(s->c, s->filter_id);
    ccnx_verifier_destroy(s->v);
    for (size_t i = 0; s->own != NULL && i < s->o.keep; i++)
        ccnx_buf_free(&s->own[i].obj);
    free(s->own);
    ccnx_buf_free(&s->member.obj);
    chat_model_destroy(s->model);
    ccnx_name_free(&s->room);
    free(s->room_uri);
    ccnx_keystore_destroy(s->ks);
    free(s);
}

void chat_session_poll(struct chat_session *s)
{
    int up = ccnx_client_connected(s->c);
    if (up == s->was_connected)
        return;
    s->was_connected = up;
    char line[512];
    if (up)
        snprintf(line, sizeof line, "connected to ccnd again (%s)", ccnx_client_where(s->c));
    else
        snprintf(line, sizeof line, "lost ccnd at %s: reconnecting", ccnx_client_where(s->c));
    chat_session_notice(s, line);
    emit(s, CHAT_EV_CHANGED, NULL);
}

const char *chat_session_nick(const struct chat_session *s)
{
    return s->nick;
}

const char *chat_session_room(const struct chat_session *s)
{
    return s->room_uri;
}

const uint8_t *chat_session_digest(const struct chat_session *s)
{
    return ccnx_key_digest(s->key);
}

struct chat_model *chat_session_model(struct chat_session *s)
{
    return s->model;
}

int chat_session_history_done(const struct chat_session *s)
{
    return s->history_done;
}
