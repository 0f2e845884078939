/* The chat's state, without network or screen: the messages in version
 * order with duplicates dropped, the members and their nicknames, the
 * flood limit, and the version components already seen, from which the
 * session builds its Exclude filters. Time is passed in, so the unit tests
 * drive it.
 *
 * Versions are kept as the components that came on the wire (%FD plus a
 * big-endian timestamp in 1/4096 s) and compared in canonical order, which
 * for the timestamps every writer uses is the order of time. */
#ifndef CHAT_MODEL_H
#define CHAT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define CHAT_DIGEST_LEN   32
#define CHAT_NICK_MAX     64           /* bytes of a nickname kept (sanitized) */
#define CHAT_COMP_MAX     8            /* longest version component: %FD + 7 bytes */
#define CHAT_EXCLUDE_MAX  64           /* components listed one by one in a live Interest */
#define CHAT_SKEW_TICKS   (30 * 4096)  /* clock difference between members tolerated */
#define CHAT_FUTURE_TICKS (600 * 4096) /* versions further ahead than this are refused */
#define CHAT_FLOOD_BURST  20.0         /* messages a member may send at once (default) */
#define CHAT_FLOOD_RATE   10.0         /* then per second (default) */
#define CHAT_SCROLLBACK   5000         /* messages kept */

/* A version (or other) component as it came on the wire. */
struct chat_comp {
    uint8_t len;
    uint8_t b[CHAT_COMP_MAX];
};

enum chat_verify { CHAT_UNCHECKED = -1, CHAT_FAILED = 0, CHAT_VERIFIED = 1 };

enum chat_msg_kind {
    CHAT_MSG_TEXT,   /* a member's message */
    CHAT_MSG_NOTICE, /* said by this program: "x is flooding", "reconnecting" */
};

struct chat_msg {
    enum chat_msg_kind kind;
    uint64_t ticks; /* the version's time (notices: when they were made) */
    struct chat_comp version;
    uint8_t publisher[CHAT_DIGEST_LEN];
    char *text; /* sanitized for a terminal, NUL-terminated */
    int verify; /* enum chat_verify */
    int own;    /* sent from here */
};

struct chat_member {
    uint8_t digest[CHAT_DIGEST_LEN];
    char nick[CHAT_NICK_MAX]; /* "" until a member object names it */
    struct chat_comp nick_version;
    int64_t last_seen_ms; /* of a message or a member object */
    int departed;         /* said goodbye since its last message */
    unsigned colour;      /* 0..CHAT_COLOURS-1, fixed by the key */
    double tokens;        /* flood bucket */
    int64_t tokens_ms;
    int flooding;    /* a notice was shown for the current flood */
    uint64_t hidden; /* messages not shown because of flooding */
    uint64_t messages;
};
#define CHAT_COLOURS 6

struct chat_stats {
    uint64_t received;   /* objects under the room that were messages */
    uint64_t duplicates; /* messages seen before */
    uint64_t malformed;  /* objects under the room that were not messages */
    uint64_t unverified; /* messages whose signature failed */
    uint64_t hidden;     /* messages not shown because of flooding */
    uint64_t reordered;  /* messages older than one already shown */
};

enum chat_add_result {
    CHAT_ADD_NEW = 0,         /* stored; *pos is its index */
    CHAT_ADD_DUP = 1,         /* already there */
    CHAT_ADD_FLOOD = 2,       /* counted, not shown */
    CHAT_ADD_FLOOD_START = 3, /* the same, and the first of a flood: say so */
};

struct chat_model;

struct chat_model *chat_model_create(void);
void chat_model_destroy(struct chat_model *m);
/* The flood limit: a member's messages arriving faster than `rate` a second
 * are shown while a bucket of `burst` lasts, then hidden and counted.
 * burst 0 shows everything. Default CHAT_FLOOD_BURST, CHAT_FLOOD_RATE. */
void chat_model_set_flood(struct chat_model *m, double burst, double rate);

/* Adds a member's message (text is sanitized here). own messages are never
 * flood-limited. Returns enum chat_add_result or CCNX_E_NOMEM. */
int chat_model_add(struct chat_model *m, const struct chat_comp *version,
                   const uint8_t publisher[CHAT_DIGEST_LEN], const uint8_t *text, size_t len,
                   int verify, int own, int64_t now_ms, size_t *pos);
/* Adds a line of the program's own (text is trusted), at `ticks`; *pos
 * (may be NULL) gets its index. */
int chat_model_notice(struct chat_model *m, uint64_t ticks, const char *text, size_t *pos);
size_t chat_model_count(const struct chat_model *m);
/* Index of a member's message with this version, or -1. */
long chat_model_find(const struct chat_model *m, const struct chat_comp *version,
                     const uint8_t publisher[CHAT_DIGEST_LEN]);
const struct chat_msg *chat_model_msg(const struct chat_model *m, size_t i);
/* Bumped by every change to the list of messages or members: views redraw
 * when it moves. */
uint64_t chat_model_generation(const struct chat_model *m);
const struct chat_stats *chat_model_stats(const struct chat_model *m);
void chat_model_count_malformed(struct chat_model *m);
void chat_model_count_unverified(struct chat_model *m);

/* ---- Members ---- */
struct chat_member *chat_model_member(struct chat_model *m, const uint8_t digest[CHAT_DIGEST_LEN],
                                      int create, int64_t now_ms);
/* A member object's nickname at `version`: 1 when it replaced an older one,
 * 0 when not newer than what is known. */
int chat_model_set_nick(struct chat_model *m, const uint8_t digest[CHAT_DIGEST_LEN],
                        const struct chat_comp *version, const uint8_t *nick, size_t len,
                        int64_t now_ms);
/* What to call a publisher: its nickname, else the first 4 bytes of its key
 * digest in hex. A nickname that members with other keys also use is
 * followed by "~" and the first 2 bytes of the key digest ("bob~1a2b"), so
 * no member can pass for another. buf has CHAT_NICK_MAX bytes. */
const char *chat_model_name(const struct chat_model *m, const uint8_t digest[CHAT_DIGEST_LEN],
                            char *buf);
size_t chat_model_member_count(const struct chat_model *m);
const struct chat_member *chat_model_member_at(const struct chat_model *m, size_t i);
void chat_model_member_departed(struct chat_model *m, const uint8_t digest[CHAT_DIGEST_LEN]);
/* Members seen within `window_ms` and not departed. */
size_t chat_model_active_count(const struct chat_model *m, int64_t now_ms, int64_t window_ms);

/* ---- Versions seen, for Exclude filters ---- */

/* Records a component under the room that was answered (a message, or
 * something that is not one), so live Interests exclude it. */
void chat_model_seen(struct chat_model *m, const struct chat_comp *c);
/* An Exclude for the room's Interests, in canonical order: an Any up to
 * and including `fence` (when has_fence), list[0..n) one by one, then
 * `upper` and an Any after it (everything from upper on). */
struct chat_exclude {
    int has_fence;
    struct chat_comp fence;
    struct chat_comp list[CHAT_EXCLUDE_MAX];
    size_t n;
    struct chat_comp upper;
};
/* For new messages: the fence trails the newest version seen by
 * CHAT_SKEW_TICKS (moved up when more than CHAT_EXCLUDE_MAX would be
 * listed), and upper is CHAT_FUTURE_TICKS ahead of now, so a version from
 * the far future (or anything longer than a version) cannot hold the
 * Interest. */
void chat_model_live_exclude(const struct chat_model *m, uint64_t now_ticks,
                             struct chat_exclude *x);
/* For walking back through history: upper is the oldest message seen, and
 * the list holds what was seen below it. 0 when no message was seen yet. */
int chat_model_history_exclude(const struct chat_model *m, struct chat_exclude *x);

/* A version component's time: 0, or -1 when it is not a version. */
int chat_comp_ticks(const struct chat_comp *c, uint64_t *ticks);
int chat_comp_compare(const struct chat_comp *a, const struct chat_comp *b);
/* Builds a version component for ticks. */
void chat_comp_version(uint64_t ticks, struct chat_comp *out);

#endif
