/* LAN mode: the multicast faces that join this host to its local networks,
 * one per interface and address family: IPv4 group 224.0.23.170 (the group
 * IANA assigned to CCNx, as the reference used) and, for IPv6, the
 * link-local group ff02::170 (a choice of this suite: the reference named
 * no IPv6 group), both on UDP port 59695. */
#ifndef CCNX_TOOL_LAN_H
#define CCNX_TOOL_LAN_H

#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>

#define LAN_GROUP4 "224.0.23.170"
#define LAN_GROUP6 "ff02::170"
#define LAN_PORT   "59695"

struct lan_face {
    char ifname[IF_NAMESIZE];
    const char *group; /* LAN_GROUP4 or LAN_GROUP6 */
    /* the local address ccndc names as the face's interface (an IPv6 one
     * with its zone: fe80::1%eth0) */
    char ifaddr[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
};

/* Fills out[0..max) with the faces for the interfaces named in names[0..n)
 * (every interface that is up, multicast-capable and not loopback when n
 * is 0): one per IPv4 address and one per interface with an IPv6
 * link-local address. Returns how many, or -1 with the reason in err (an
 * interface that does not exist, is down or cannot multicast). */
int lan_faces(const char *const *names, size_t n, struct lan_face *out, size_t max, char *err,
              size_t errlen);

#endif
