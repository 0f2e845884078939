/* What the discovery's files share (explore_disco.c: per-node state,
 * requests, walks, probes; explore_enum.c: repositories' name
 * enumeration). Not for the view: explore_disco.h is the API. */
#ifndef EXPLORE_DISCO_INTERNAL_H
#define EXPLORE_DISCO_INTERNAL_H

#include "explore_disco.h"

#include <ccnx/buf.h>
#include <ccnx/content.h>
#include <ccnx/fetch.h>
#include <ccnx/interest.h>
#include <ccnx/naming.h>
#include <ccnx/verifier.h>

#include <stddef.h>
#include <stdint.h>

#define ENUM_BODY_MAX (16u << 20) /* a listing bigger than this is refused */

struct walk {
    int scope;       /* -1 none, 0 the local content store */
    unsigned source; /* EX_SRC_* credited for new names */
    int running;
    int rounds;
    uint8_t *last; /* everything up to this component is excluded */
    size_t last_n;
};

/* A repository heard answering the enumeration request. */
struct responder {
    struct dnode *dn;
    uint8_t keyid[CCNX_KEYID_LEN];
    size_t keyid_n;
    uint64_t version; /* of the reply read; 0 none yet */
    struct ccnx_buf body;
    struct ccnx_fetch *fetch;
    uint64_t reap; /* the timer that destroys a finished fetch, 0 when none */
};

struct dnode {
    struct ex_disco *d;
    struct ex_node *node;
    int exploring; /* discovery started and not finished */
    int explored;  /* finished at least once */
    int again;     /* a refresh asked for while exploring */
    int enum_running;
    unsigned replies; /* listing requests and fetches running */
    struct responder **resp;
    size_t nresp;
    struct walk cache, net;
    int probe_state;
    struct ccnx_buf object;
    size_t first_len; /* content bytes of the probed first segment */
    enum ex_verify_state verify;
    char *verify_error;
    unsigned busy;
};

enum req_kind { REQ_ENUM, REQ_REPLY, REQ_WALK, REQ_PROBE, REQ_SIZE };

struct req {
    struct req *next, *prev;
    struct dnode *dn;
    enum req_kind kind;
    struct responder *resp;
    struct walk *walk;
    struct ex_node *holder; /* REQ_SIZE: the node whose content is measured */
    size_t seg_count;       /* REQ_SIZE: name components of one of its segments */
    int tries;              /* REQ_SIZE: answers that were not yet the final segment */
    uint64_t id;
};

struct ex_disco {
    struct ccnx_client *c;
    struct ex_tree *t;
    struct ex_disco_opts o;
    struct ex_disco_events ev;
    struct ccnx_verifier *v;
    struct req head;
    struct dnode **all;
    size_t nall, capall;
    size_t fetches;
};

/* explore_disco.c */
void disco_changed(struct ex_disco *d);
/* A message about node ("... under <its URI>"). */
void disco_say(struct ex_disco *d, const struct ex_node *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* qsort order of Exclude components (canonical order). */
int disco_cmp_exclude_item(const void *a, const void *b);
struct req *disco_new_req(struct dnode *dn, enum req_kind kind);
/* Expresses an Interest for `name` with the given selectors; q is filled
 * by the caller and owned by the request from here on. */
int disco_express(struct ex_disco *d, struct req *q, const struct ccnx_name *name,
                  const struct ccnx_exclude_item *ex, size_t nex, int child, int scope);
/* The node's name plus the components given (each a pointer and length). */
int disco_node_name_plus(struct dnode *dn, struct ccnx_name *out, const char *command,
                         const uint8_t *comp, size_t n);
/* Starts the network walk once the repositories and the cache are done,
 * and marks the node explored when everything is. */
void disco_finish_if_idle(struct dnode *dn);

/* explore_enum.c */
/* Asks the repositories under the node for their listing. */
void disco_enum_round(struct dnode *dn);
/* Asks one repository for a listing newer than the one read. */
void disco_reply_request(struct responder *rp);
/* Answers to the two requests. */
void disco_enum_content(struct req *q, const uint8_t *obj, const struct ccnx_content_parsed *pc);
void disco_reply_content(struct req *q, const uint8_t *obj, const struct ccnx_content_parsed *pc);

#endif
