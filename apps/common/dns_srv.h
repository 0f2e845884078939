/* The CCNx hub that the DNS search domains name in an SRV record, which is
 * how `ccndc srv` (and the reference's ccnd-autoconfig after it) finds a
 * default route when no hub answers on the local link. */
#ifndef CCNX_DNS_SRV_H
#define CCNX_DNS_SRV_H

#include <stddef.h>

/* Looks up the SRV records of service (such as "_ccnx._tcp") in the
 * resolver's search domains and takes the one of lowest priority, heaviest
 * weight among those: 0 with its target in host and its port in *port; -1
 * when there is none (or only the "." that says there is no such service),
 * with the resolver's reason in why. */
int dns_srv_find(const char *service, char *host, size_t hostlen, unsigned *port, char *why,
                 size_t whylen);

#endif
