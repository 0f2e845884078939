/* A small synchronous link from a command-line tool to the local ccnd: the
 * unix socket (or TCP on loopback when CCN_LOCAL_TRANSPORT=tcp), whole ccnb
 * elements in and out, ccnd's identity and signed control requests
 * /ccnx/<ccndid>/<verb>/<request> (Registration.txt).
 *
 * Every failure leaves a sentence for the user in link->err that names what
 * was tried, so tools can print it as it is. */
#ifndef CCNX_TOOL_CCND_LINK_H
#define CCNX_TOOL_CCND_LINK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ccnx/buf.h>
#include <ccnx/name.h>

#define CCND_LINK_TIMEOUT_MS 4000 /* default wait for one answer */

struct ccnx_keystore;

struct ccnd_link {
    int fd;
    int timeout_ms;
    char where[160]; /* "/tmp/.ccnd.sock" or "tcp 127.0.0.1:9695" */
    char err[512];
    struct ccnx_buf in; /* bytes read but not yet handed out */
    uint8_t ccndid[CCNX_DIGEST_LEN];
    int have_ccndid;
    struct ccnx_keystore *ks; /* opened on the first control request */
};

/* Result of ccnd_link_control besides 0 (success) and negative (no answer). */
#define CCND_LINK_NACK 1

/* Where the local ccnd listens, from the environment (CCN_LOCAL_TRANSPORT,
 * CCN_LOCAL_SOCKNAME, CCN_LOCAL_PORT): the text goes into out. Returns 1 for
 * TCP, 0 for the unix socket, negative when the settings do not fit. */
int ccnd_link_address(char *out, size_t n);

/* Connects; 0, or negative with link->err saying which socket was tried and
 * how to start ccnd. The link must be closed with ccnd_link_close either way. */
int ccnd_link_open(struct ccnd_link *link);
void ccnd_link_close(struct ccnd_link *link);

/* Sends n bytes (one or more whole elements). */
int ccnd_link_send(struct ccnd_link *link, const uint8_t *p, size_t n);
/* Waits up to timeout_ms for one whole ccnb element and puts it in out. */
int ccnd_link_recv(struct ccnd_link *link, struct ccnx_buf *out, int timeout_ms);

/* Sends an Interest and waits for the first ContentObject (Interests that
 * arrive meanwhile are skipped). 0, or negative with link->err set. */
int ccnd_link_get(struct ccnd_link *link, const uint8_t *interest, size_t len,
                  struct ccnx_buf *object);

/* Learns ccnd's id (the publisher digest of its KEY object), once. */
int ccnd_link_ccndid(struct ccnd_link *link);

/* Signs body with the user's key (the default keystore, created on first
 * use), sends /ccnx/<ccndid>/<verb>/<request> with Scope 1 and puts the
 * answer's Content in reply. 0 on success; CCND_LINK_NACK when ccnd refused
 * (link->err holds its StatusResponse as "<code> <text>"); negative when no
 * answer came (link->err says why). */
int ccnd_link_control(struct ccnd_link *link, const char *verb, const uint8_t *body, size_t n,
                      struct ccnx_buf *reply);

/* The process id of the program listening on the unix socket at path (the
 * kernel's peer credentials). 0 with *pid set; CCNX_E_NOTFOUND when nothing
 * answers there; CCNX_E_UNSUPPORTED when the system cannot tell. */
int ccnd_link_peer_pid(const char *path, long *pid);

#endif
