#include <ccnx/error.h>
#include <ccnx/local.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

unsigned ccnx_local_port(const char *port_text)
{
    if (port_text == NULL || port_text[0] == '\0') {
        return CCNX_DEFAULT_PORT;
    }
    char *end;
    unsigned long v = strtoul(port_text, &end, 10);
    if (*end != '\0' || v == 0 || v > 65535 || port_text[0] == '-' || port_text[0] == '+') {
        return CCNX_DEFAULT_PORT;
    }
    return (unsigned)v;
}

int ccnx_local_sockname(char *out, size_t n, const char *sockname, const char *port_text)
{
    if (sockname == NULL || sockname[0] == '\0') {
        sockname = CCNX_DEFAULT_SOCKNAME;
    }
    unsigned port = ccnx_local_port(port_text);
    int len = port != CCNX_DEFAULT_PORT ? snprintf(out, n, "%s.%u", sockname, port)
                                        : snprintf(out, n, "%s", sockname);
    if (len < 0 || (size_t)len >= n || (size_t)len >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
        return CCNX_E_TOOBIG;
    }
    return 0;
}

/* The service manager's notification protocol is one datagram of
 * newline-separated VAR=value lines; systemd documents it as a stable
 * interface, which is why it is spoken here rather than through libsystemd. */
int ccnx_local_notify(const char *notify_socket, const char *state)
{
    if (notify_socket == NULL || notify_socket[0] == '\0') {
        return 0;
    }
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    size_t len = strlen(notify_socket);
    if ((notify_socket[0] != '/' && notify_socket[0] != '@') || len < 2 ||
        len > sizeof sun.sun_path) {
        return CCNX_E_INVAL;
    }
    memcpy(sun.sun_path, notify_socket, len);
    if (sun.sun_path[0] == '@') {
        sun.sun_path[0] = '\0';
    } else if (len == sizeof sun.sun_path) {
        return CCNX_E_INVAL; /* a path needs its terminating NUL */
    }
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return CCNX_E_IO;
    }
    socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
    ssize_t sent = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sun, alen);
    close(fd);
    return sent == (ssize_t)strlen(state) ? 0 : CCNX_E_IO;
}
