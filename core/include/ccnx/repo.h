/* The repository write protocol (RepoProtocol.txt): RepositoryInfo bodies
 * and the start-write Interest. */
#ifndef CCNX_REPO_H
#define CCNX_REPO_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/name.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

struct ccnx_client;

/* ---- RepositoryInfo (RepositoryInfoObject.txt) ---- */

#define CCNX_REPO_INFO_INFO      0 /* request accepted, no data */
#define CCNX_REPO_INFO_DATA      1 /* data returned in Name (e.g. already present) */
#define CCNX_REPO_INFO_MAX_NAMES 16

/* Spans into the parsed buffer. The reference repository writes the
 * GlobalPrefixName element empty and its components right after it;
 * components inside the element (the schema's form, the Java reference's)
 * are accepted too: either way global_prefix spans the Component elements
 * and global_prefix_count counts them. */
struct ccnx_repo_info {
    struct ccnx_span version;      /* Version text, e.g. "1.1" */
    int type;                      /* CCNX_REPO_INFO_INFO or _DATA */
    struct ccnx_span repo_version; /* RepositoryVersion text, e.g. "2.0" */
    struct ccnx_span global_prefix;
    size_t global_prefix_count;
    struct ccnx_span local_name;                      /* LocalName text */
    struct ccnx_span names[CCNX_REPO_INFO_MAX_NAMES]; /* Name elements */
    size_t name_count;
    struct ccnx_span info_string; /* InfoString text (len 0: absent) */
    int has_info_string;
};

/* Parses one RepositoryInfo element at buf[0..len) (trailing bytes are an
 * error). Total: 0 or a CCNX_E* code. Type may be text ("INFO", "DATA") or
 * the 3-byte binary form. */
int ccnx_repo_info_parse(const uint8_t *buf, size_t len, struct ccnx_repo_info *ri);
/* The global prefix as a name (n initialised by the caller). */
int ccnx_repo_info_global_prefix(const uint8_t *buf, const struct ccnx_repo_info *ri,
                                 struct ccnx_name *n);

/* Appends a RepositoryInfo as a repository answers: Version "1.1",
 * RepositoryVersion "2.0", LocalName "Repository", the global prefix inside
 * GlobalPrefixName; type DATA when `names` (n_names encoded Name elements)
 * is given, else INFO; InfoString when info is not NULL. */
int ccnx_repo_info_build(struct ccnx_buf *out, const struct ccnx_name *global_prefix,
                         const struct ccnx_name *names, size_t n_names, const char *info);

/* ---- Start-write ---- */

struct ccnx_repo_write_opts {
    int scope;      /* 1 local (default), 2 neighbourhood, 3 unlimited (no Scope) */
    int timeout_ms; /* how long to wait for a repository (default 60000, the reference's) */
    /* Checked start-write (%C1.R.sw-c): the first segment's number and the
     * implicit digest of its object; the repository answers DATA and
     * fetches nothing when it already holds that object. */
    int checked;
    uint64_t segment;
    uint8_t digest[32];
};
void ccnx_repo_write_opts_init(struct ccnx_repo_write_opts *o);

/* Appends the start-write Interest for the versioned name:
 * <name>/%C1.R.sw/<nonce>, or <name>/%C1.R.sw-c/<nonce>/<segment>/<digest>
 * when o->checked; Scope as o->scope. */
int ccnx_repo_start_write_interest(struct ccnx_buf *out, const struct ccnx_name *name,
                                   const struct ccnx_repo_write_opts *o);

/* Sends a start-write for `name` and runs the client's loop until a
 * repository answers (the seqwriter meanwhile answers the repository's
 * first Interests). 0 with the reply object in *reply and its RepositoryInfo
 * in *ri (spans into reply->data; either may be NULL when not wanted);
 * CCNX_E_REFUSED when the repository answered that it takes nothing now
 * (a NACK: the reply and its RepositoryInfo are set, the reason in
 * ri->info_string, e.g. "repository full"); CCNX_E_NOTFOUND when no
 * repository answered in time (the caller may serve the content itself),
 * CCNX_E_VALUE when the answer is not a RepositoryInfo, CCNX_E_IO when
 * ccnd is gone. */
int ccnx_repo_start_write(struct ccnx_client *c, const struct ccnx_name *name,
                          const struct ccnx_repo_write_opts *o, struct ccnx_buf *reply,
                          struct ccnx_repo_info *ri);

CCNX_API_END

#endif
