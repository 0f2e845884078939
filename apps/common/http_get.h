/* Fetching ccnd's status page (HTTP on its TCP port) for ccndstatus and
 * ccndlogging. */
#ifndef CCNX_TOOL_HTTP_GET_H
#define CCNX_TOOL_HTTP_GET_H

#include <ccnx/buf.h>

/* GETs target from host:port and appends the body (without the HTTP header)
 * to body. Any failure ends the program with a message naming the cause and
 * the fix (no ccnd answering, a refusal, a timeout after 10 s). */
void tool_http_get(const char *host, const char *port, const char *target, struct ccnx_buf *body);

#endif
