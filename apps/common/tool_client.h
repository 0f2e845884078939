/* What the tools that talk to ccnd through the client library share:
 * connecting (or exiting with the client's sentence, which names the socket
 * and how to start ccnd), reading a ccnx: URI argument, and seconds given
 * on the command line. */
#ifndef CCNX_TOOL_CLIENT_H
#define CCNX_TOOL_CLIENT_H

#include <ccnx/client.h>
#include <ccnx/name.h>
#include <ccnx/seqwriter.h>

/* A connected client, or exit(TOOL_EXIT_FAILURE) with the reason. */
struct ccnx_client *tool_client_open(void);
/* Parses a ccnx: URI into an initialised name, or a usage error. */
void tool_parse_uri(struct ccnx_name *name, const char *uri);
/* Seconds in [min, max] from an option's text, else a usage error naming
 * the option. */
double tool_seconds(const char *text, char option, double min, double max);
/* Once a repository has fetched a closed stream: asks it, for up to 20
 * seconds, to answer for the final segment itself (see
 * ccnx_seqwriter_confirm_stored). 1 when it did; 0 when it did not or a
 * stop signal came; exits when ccnd is gone. */
int tool_confirm_stored(struct ccnx_seqwriter *w, int scope);
/* A URI for an encoded Name, into a static buffer (for messages). */
const char *tool_uri(const uint8_t *enc, size_t len);

#endif
