/* The repository policy (RepoPolicies.txt): the namespaces whose content
 * the repository answers for and accepts, kept in the repository itself as
 * the versioned object <global prefix>/data/policy.xml/<version>/%00.
 *
 * Its content is one ccnb Policy element, every child text (UDATA):
 *   <Policy>
 *     <PolicyVersion>1.5</PolicyVersion>
 *     <LocalName>Repository</LocalName>
 *     <GlobalPrefix>ccnx:/parc.com/csl/ccn/Repos</GlobalPrefix>
 *     <Namespace>/</Namespace>            (zero or more)
 *   </Policy>
 * GlobalPrefix and each Namespace are ccnx: URIs (the scheme optional).
 *
 * This part needs only the store and the core, so unit tests and fuzz
 * targets link it; policy_apply.c puts it to work in the daemon. */
#ifndef CCNR_POLICY_H
#define CCNR_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ccnx/buf.h>
#include <ccnx/name.h>
#include <ccnx/key.h>

#include "store.h"

#define CCNR_POLICY_VERSION     "1.5" /* the PolicyVersion the reference writes */
#define CCNR_POLICY_LOCAL_NAME  "Repository"
#define CCNR_POLICY_MAX_BYTES   65536 /* a policy larger than this is refused */
#define CCNR_POLICY_MAX_TEXT    4096  /* one child's text */
#define CCNR_POLICY_MAX_SPACES  1024  /* Namespace elements */
#define CCNR_POLICY_MAX_SEGMENT 16    /* a stored policy spans at most this many segments */

struct ccnr_policy {
    char *version;     /* PolicyVersion text */
    char *local_name;  /* LocalName text */
    char *global_text; /* GlobalPrefix text as written */
    struct ccnx_name global_prefix;
    size_t count;      /* namespaces */
    char **space_text; /* Namespace texts as written */
    struct ccnx_name *spaces;
};

/* An empty policy (no texts, no namespaces); 0 or CCNX_E_NOMEM. */
int ccnr_policy_init(struct ccnr_policy *p);
void ccnr_policy_free(struct ccnr_policy *p);
/* The default policy: PolicyVersion 1.5, LocalName Repository, the global
 * prefix given, namespace "/". Allocates; 0 or a negative error. */
int ccnr_policy_default(struct ccnr_policy *p, const struct ccnx_name *global_prefix);
/* Adds a namespace given as URI text. 0, CCNX_E_URI, CCNX_E_TOOBIG or
 * CCNX_E_NOMEM. */
int ccnr_policy_add_namespace(struct ccnr_policy *p, const char *uri);

/* Parses the Policy element that is exactly buf[0..len) into p (not yet
 * initialised; allocates). Total over arbitrary bytes: 0, or a negative
 * error with a sentence in why naming what is wrong (p then holds nothing). */
int ccnr_policy_parse(struct ccnr_policy *p, const uint8_t *buf, size_t len, char *why,
                      size_t whylen);
/* Appends the Policy element for p to out. 0 or a negative error. */
int ccnr_policy_build(struct ccnx_buf *out, const struct ccnr_policy *p);
/* Appends "ns1 ns2 ... (global prefix G)" for log lines. */
int ccnr_policy_describe(struct ccnx_buf *out, const struct ccnr_policy *p);

/* 1 when the encoded Name element name[0..len) is under one of the
 * namespaces or under the global prefix, else 0. */
int ccnr_policy_covers(const struct ccnr_policy *p, const uint8_t *name, size_t len);

/* <global prefix>/data/policy.xml, where the policy is stored. */
int ccnr_policy_name(struct ccnx_name *out, const struct ccnx_name *global_prefix);
/* 1 when the encoded Name name[0..len) is <policy name>/<version> for this
 * global prefix (what a start-write of a new policy names), else 0. */
int ccnr_policy_is_version_name(const struct ccnx_name *global_prefix, const uint8_t *name,
                                size_t len);

/* Appends the policy as one signed object named <policy name>/<version of
 * `when`>/%00 with FinalBlockID %00, signed with key. *version gets the
 * version's time (1/4096 s). 0 or a negative error. */
int ccnr_policy_sign(struct ccnx_buf *out, const struct ccnr_policy *p, const struct ccnx_key *key,
                     const struct timespec *when, uint64_t *version);

/* Reads the stored policy of version `version` (the encoded version
 * component ver[0..vlen)) under the policy name: its segments' contents are
 * concatenated into body. 1 when found whole, 0 when absent or incomplete,
 * or a negative store error. */
int ccnr_policy_read_version(struct ccnr_store *s, const struct ccnx_name *policy_name,
                             const uint8_t *ver, size_t vlen, struct ccnx_buf *body);

/* Finds the newest stored policy that parses and names global_prefix as
 * its GlobalPrefix (older ones are tried when newer ones do not qualify,
 * each skipped one reported through note when not NULL). 1 with p (not
 * initialised before; to be freed) and *version set, 0 when none
 * qualifies, or a negative store error; p holds nothing unless 1. */
int ccnr_policy_load(struct ccnr_store *s, const struct ccnx_name *global_prefix,
                     struct ccnr_policy *p, uint64_t *version,
                     void (*note)(void *arg, const char *why), void *arg);

#endif
