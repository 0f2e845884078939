/* Control messages of the forwarder (Registration.txt): FaceInstance,
 * ForwardingEntry and StrategySelection bodies, and the names of control
 * requests, /ccnx/<ccndid>/<verb>/<signed request object>.
 *
 * Parsing fills views into the caller's buffer (nothing is copied); the
 * same structs, filled by hand, drive the builders, so a parsed body
 * rebuilds to the same bytes. */
#ifndef CCNX_MGMT_H
#define CCNX_MGMT_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/name.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* Forwarding flags of a ForwardingEntry (Registration.txt). */
#define CCNX_FORW_ACTIVE        1
#define CCNX_FORW_CHILD_INHERIT 2
#define CCNX_FORW_ADVERTISE     4
#define CCNX_FORW_LAST          8
#define CCNX_FORW_CAPTURE       16
#define CCNX_FORW_LOCAL         32
#define CCNX_FORW_TAP           64
#define CCNX_FORW_CAPTURE_OK    128
/* What ccndc and the client library ask for when no flags are given. */
#define CCNX_FORW_DEFAULT (CCNX_FORW_ACTIVE | CCNX_FORW_CHILD_INHERIT)

#define CCNX_STRATEGY_ID_MAX 15 /* longest StrategyID the reference accepts */

/* Bytes or text inside someone's buffer; p == NULL means absent. */
struct ccnx_view {
    const uint8_t *p;
    size_t n;
};

struct ccnx_face_instance {
    struct ccnx_view action;          /* "newface", "destroyface", "queryface" */
    struct ccnx_view ccndid;          /* PublisherPublicKeyDigest of the forwarder */
    int64_t face_id;                  /* -1 when absent */
    int64_t ip_proto;                 /* 6 TCP, 17 UDP; -1 when absent */
    struct ccnx_view host;            /* numeric IPv4/IPv6 address text */
    int64_t port;                     /* -1 when absent */
    struct ccnx_view mcast_interface; /* numeric address text of the interface */
    int64_t mcast_ttl;                /* -1 when absent */
    int64_t lifetime;                 /* FreshnessSeconds, -1 when absent */
};

struct ccnx_forwarding_entry {
    struct ccnx_view action; /* "prefixreg", "selfreg", "unreg" */
    struct ccnx_view name;   /* the prefix, an encoded Name element */
    struct ccnx_view ccndid;
    int64_t face_id;
    int64_t flags; /* CCNX_FORW_* bits, -1 when absent */
    int64_t lifetime;
};

struct ccnx_strategy_selection {
    struct ccnx_view action; /* "setstrategy", "getstrategy", "removestrategy" */
    struct ccnx_view name;   /* encoded Name element */
    struct ccnx_view ccndid;
    struct ccnx_view strategy_id; /* at most CCNX_STRATEGY_ID_MAX bytes */
    struct ccnx_view parameters;
    int64_t lifetime;
};

/* Clear to "everything absent". */
void ccnx_face_instance_init(struct ccnx_face_instance *fi);
void ccnx_forwarding_entry_init(struct ccnx_forwarding_entry *fe);
void ccnx_strategy_selection_init(struct ccnx_strategy_selection *ss);

/* Parse one element occupying buf[0..len) exactly. Total over any bytes. */
int ccnx_face_instance_parse(const uint8_t *buf, size_t len, struct ccnx_face_instance *fi);
int ccnx_forwarding_entry_parse(const uint8_t *buf, size_t len, struct ccnx_forwarding_entry *fe);
int ccnx_strategy_selection_parse(const uint8_t *buf, size_t len,
                                  struct ccnx_strategy_selection *ss);

/* Append the element; CCNX_E_VALUE for out-of-range fields. */
int ccnx_face_instance_build(struct ccnx_buf *out, const struct ccnx_face_instance *fi);
int ccnx_forwarding_entry_build(struct ccnx_buf *out, const struct ccnx_forwarding_entry *fe);
int ccnx_strategy_selection_build(struct ccnx_buf *out, const struct ccnx_strategy_selection *ss);

/* 1 when the view holds exactly the text s. */
int ccnx_view_equals(struct ccnx_view v, const char *s);

/* ---- Control request names ---- */

/* Sets out to /ccnx/<ccndid>/<verb>/<request>, request being the encoded,
 * signed ContentObject that carries the body. */
int ccnx_mgmt_request_name(struct ccnx_name *out, const uint8_t ccndid[CCNX_DIGEST_LEN],
                           const char *verb, const uint8_t *request, size_t request_len);

struct ccnx_key;

/* The same name for a body not yet signed: signs it with key as every
 * control client sends it (a ContentObject with an empty Name and the key
 * itself in the KeyLocator), then builds the name as above. */
int ccnx_mgmt_signed_request_name(struct ccnx_name *out, const uint8_t ccndid[CCNX_DIGEST_LEN],
                                  const char *verb, const uint8_t *body, size_t body_len,
                                  const struct ccnx_key *key);

/* The StatusCode and StatusText of the StatusResponse a refused request
 * gets (the Content of a NACK); text is a view into buf. CCNX_E_STRUCTURE
 * (or another CCNX_E* code) when buf is not one. */
int ccnx_status_response_parse(const uint8_t *buf, size_t len, uint64_t *code,
                               struct ccnx_view *text);

struct ccnx_mgmt_request {
    struct ccnx_view ccndid;  /* 32 bytes */
    struct ccnx_view verb;    /* e.g. "prefixreg" */
    struct ccnx_view request; /* the embedded ContentObject; absent for verbs without one */
};
/* Splits an encoded Interest Name of the form above (three or four
 * components). CCNX_E_NOTFOUND when the name is not a control request: first
 * component not "ccnx", second not 32 bytes, or more than four components. */
int ccnx_mgmt_request_parse(const uint8_t *name, size_t len, struct ccnx_mgmt_request *req);

CCNX_API_END

#endif
