/* Discovery: fills the explorer's tree from the network, asynchronously,
 * through one client (every Interest is expressed and answered from the
 * client's loop; nothing here waits).
 *
 * Exploring a node asks three sources for its children at once or in turn:
 *  - repositories: the name enumeration request <name>/%C1.E.be. Each
 *    responder's newest reply (a Collection of Links, in segments) is read
 *    whole; the request is asked again excluding the responders' key ids
 *    already heard, until a round stays unanswered, so every repository
 *    under the prefix shows.
 *  - the local cache: an Exclude walk with Scope 0 (ccnd's content store
 *    only), leftmost child first, each round excluding everything up to the
 *    last child found.
 *  - the network: once the first two are done, the same walk without
 *    Scope, excluding what is known, so its answers come from producers
 *    and remote caches. When more than EX_WALK_EXPLICIT names are known,
 *    the walk looks only past them.
 * A walk stops at the first segment (segments are counted from the
 * FinalBlockID, never walked) or after opts.walk_rounds rounds.
 *
 * Probing a node fetches one object under it (the newest version's first
 * segment when it has versions) for the details pane, verifies it, and
 * reads the last segment's length to know the size. */
#ifndef EXPLORE_DISCO_H
#define EXPLORE_DISCO_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/client.h>

#include "explore_tree.h"

#define EX_WAIT_MS_DEFAULT     400 /* a round unanswered for this long ends */
#define EX_WALK_ROUNDS_DEFAULT 200 /* rounds per walk at most */
#define EX_WALK_EXPLICIT       100 /* known names a walk's Exclude lists one by one */

struct ex_disco_opts {
    int wait_ms;
    int walk_rounds;
    int verify; /* check signatures of probed objects (default 1) */
};
void ex_disco_opts_init(struct ex_disco_opts *o);

struct ex_disco_events {
    void (*changed)(void *arg);                  /* the tree or a node's state changed */
    void (*message)(void *arg, const char *txt); /* something the user should read */
    void *arg;
};

enum ex_verify_state { EX_VERIFY_NONE, EX_VERIFY_PENDING, EX_VERIFY_OK, EX_VERIFY_FAILED };

/* What a probe found (views copy what they need; valid until the next
 * probe of the node). */
struct ex_details {
    int state;             /* 0 not probed, 1 waiting, 2 found, 3 nothing answered */
    const uint8_t *object; /* the ContentObject probed */
    size_t len;
    enum ex_verify_state verify;
    const char *verify_error;
};

struct ex_disco;
int ex_disco_create(struct ccnx_client *c, struct ex_tree *t, const struct ex_disco_opts *o,
                    const struct ex_disco_events *ev, struct ex_disco **out);
void ex_disco_destroy(struct ex_disco *d);

/* Starts discovery of the node's children (again when it was explored);
 * nothing while it is being explored. */
int ex_disco_explore(struct ex_disco *d, struct ex_node *node);
/* The same, but while the node is being explored, once more when that
 * ends: a refresh after a change must not be answered by a discovery that
 * started before it. */
int ex_disco_refresh(struct ex_disco *d, struct ex_node *node);
/* Starts a probe of the node (again when `again`, else only once). */
int ex_disco_probe(struct ex_disco *d, struct ex_node *node, int again);
/* 1 once the node was explored at least once and nothing is running for it. */
int ex_disco_explored(const struct ex_node *node);
/* 1 while discovery or a probe of the node is running. */
int ex_disco_busy(const struct ex_node *node);
void ex_disco_details(const struct ex_node *node, struct ex_details *out);
/* Requests in flight (Interests and segment fetches), for the status line. */
size_t ex_disco_in_flight(const struct ex_disco *d);

#endif
