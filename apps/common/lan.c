/* The multicast faces of LAN mode (see lan.h). */
#include "lan.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <string.h>

static int named(const char *ifname, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], ifname) == 0)
            return 1;
    return n == 0;
}

static int usable(const struct ifaddrs *i)
{
    return (i->ifa_flags & IFF_UP) && (i->ifa_flags & IFF_MULTICAST) &&
           !(i->ifa_flags & IFF_LOOPBACK);
}

/* One face for the address, unless the interface has one of its family. */
static int add_face(const struct ifaddrs *i, struct lan_face *out, size_t count, size_t max)
{
    const struct sockaddr *a = i->ifa_addr;
    const char *group = a->sa_family == AF_INET ? LAN_GROUP4 : LAN_GROUP6;
    char text[INET6_ADDRSTRLEN];
    if (a->sa_family == AF_INET6 &&
        !IN6_IS_ADDR_LINKLOCAL(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr))
        return 0;
    for (size_t k = 0; k < count; k++)
        if (out[k].group == group && strcmp(out[k].ifname, i->ifa_name) == 0)
            return 0;
    if (count == max)
        return 0;
    const void *bytes =
        a->sa_family == AF_INET
            ? (const void *)&((const struct sockaddr_in *)(const void *)a)->sin_addr
            : (const void *)&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr;
    if (inet_ntop(a->sa_family, bytes, text, sizeof text) == NULL)
        return 0;
    struct lan_face *f = &out[count];
    snprintf(f->ifname, sizeof f->ifname, "%s", i->ifa_name);
    f->group = group;
    snprintf(f->ifaddr, sizeof f->ifaddr, "%s%s%s", text, a->sa_family == AF_INET6 ? "%" : "",
             a->sa_family == AF_INET6 ? i->ifa_name : "");
    return 1;
}

int lan_faces(const char *const *names, size_t n, struct lan_face *out, size_t max, char *err,
              size_t errlen)
{
    struct ifaddrs *all;
    if (getifaddrs(&all) != 0) {
        snprintf(err, errlen, "cannot list the network interfaces");
        return -1;
    }
    size_t count = 0;
    for (const struct ifaddrs *i = all; i != NULL; i = i->ifa_next) {
        if (i->ifa_addr == NULL || !named(i->ifa_name, names, n) || !usable(i) ||
            (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
            continue;
        count += (size_t)add_face(i, out, count, max);
    }
    /* An interface asked for by name that gave nothing: say why. */
    for (size_t k = 0; k < n && errlen > 0; k++) {
        int seen = 0, up = 0;
        for (size_t j = 0; j < count; j++)
            seen |= strcmp(out[j].ifname, names[k]) == 0;
        for (const struct ifaddrs *i = all; i != NULL && !seen; i = i->ifa_next)
            if (strcmp(i->ifa_name, names[k]) == 0)
                up |= usable(i) ? 2 : 1;
        if (!seen) {
            snprintf(err, errlen, "%s: %s", names[k],
                     up == 0   ? "no such interface (see 'ip link')"
                     : up == 1 ? "down, loopback or without multicast"
                               : "no IPv4 address and no IPv6 link-local address");
            freeifaddrs(all);
            return -1;
        }
    }
    freeifaddrs(all);
    if (count == 0)
        snprintf(err, errlen, "no interface is up with multicast (see 'ip link')");
    return count == 0 ? -1 : (int)count;
}
