/* Where the local forwarder is found: the conventions ccnd and every client
 * share (the reference's defaults and environment variables). The caller
 * reads the environment and passes the values in. */
#ifndef CCNX_LOCAL_H
#define CCNX_LOCAL_H

#include <stddef.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

#define CCNX_DEFAULT_PORT     9695
#define CCNX_DEFAULT_SOCKNAME "/tmp/.ccnd.sock"
#define CCNX_ENV_PORT         "CCN_LOCAL_PORT"
#define CCNX_ENV_SOCKNAME     "CCN_LOCAL_SOCKNAME"

/* The port from CCN_LOCAL_PORT's value: a number in 1..65535, else (NULL,
 * empty, malformed, out of range) the default 9695. */
unsigned ccnx_local_port(const char *port_text);

/* The unix socket path: `sockname` (NULL or empty: /tmp/.ccnd.sock), with
 * "." and the port number appended when the port is set and is not 9695, as
 * the reference does so that several forwarders can share a host. Returns 0,
 * or CCNX_E_TOOBIG when the path does not fit in n bytes (nor in a
 * sockaddr_un). */
int ccnx_local_sockname(char *out, size_t n, const char *sockname, const char *port_text);

/* Tells the service manager that started this daemon about its state, for
 * example "READY=1" once it listens (systemd's Type=notify). `notify_socket`
 * is $NOTIFY_SOCKET's value: a datagram socket path, or an abstract one
 * written with a leading '@'. Returns 0 when it was told or there is no
 * manager to tell (NULL or empty), CCNX_E_INVAL for a path that is neither,
 * CCNX_E_IO when the message could not be sent. */
int ccnx_local_notify(const char *notify_socket, const char *state);

CCNX_API_END

#endif
