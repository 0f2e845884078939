/* SRV lookups through the system resolver (libresolv, part of the C
 * library): it applies resolv.conf's search list and options, as every
 * other program on the host does. */
#include "dns_srv.h"

#include <arpa/nameser.h>
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdio.h>
#include <string.h>

#define SRV_FIXED 6 /* priority, weight, port: 16 bits each, before the target */

int dns_srv_find(const char *service, char *host, size_t hostlen, unsigned *port, char *why,
                 size_t whylen)
{
    unsigned char answer[NS_PACKETSZ * 4];
    int len = res_search(service, ns_c_in, ns_t_srv, answer, sizeof answer);
    if (len < 0) {
        snprintf(why, whylen, "%s: %s", service, hstrerror(h_errno));
        return -1;
    }
    ns_msg msg;
    if (ns_initparse(answer, len, &msg) != 0) {
        snprintf(why, whylen, "%s: the answer is malformed", service);
        return -1;
    }
    unsigned best_priority = 0x10000, best_weight = 0;
    for (int i = 0; i < ns_msg_count(msg, ns_s_an); i++) {
        ns_rr rr;
        if (ns_parserr(&msg, ns_s_an, i, &rr) != 0)
            break;
        const unsigned char *rd = ns_rr_rdata(rr);
        if (ns_rr_type(rr) != ns_t_srv || ns_rr_rdlen(rr) <= SRV_FIXED)
            continue;
        unsigned priority = ns_get16(rd), weight = ns_get16(rd + 2);
        if (priority > best_priority || (priority == best_priority && weight <= best_weight))
            continue;
        char target[NS_MAXDNAME];
        if (dn_expand(ns_msg_base(msg), ns_msg_end(msg), rd + SRV_FIXED, target, sizeof target) <
                0 ||
            target[0] == '\0' || strcmp(target, ".") == 0 || strlen(target) >= hostlen)
            continue;
        memcpy(host, target, strlen(target) + 1);
        *port = ns_get16(rd + 4);
        best_priority = priority;
        best_weight = weight;
    }
    if (best_priority == 0x10000) {
        snprintf(why, whylen, "%s: no usable SRV record", service);
        return -1;
    }
    return 0;
}
