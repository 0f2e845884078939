#include <ccnx/error.h>
#include <ccnx/local.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/un.h>

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
