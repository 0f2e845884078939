/* dns_answer: a DNS server of two records for the tests of `ccndc srv`.
 *
 *   dns_answer ADDR SERVICE TARGET TARGET_ADDR PORT
 *
 * On UDP ADDR:53 it answers an SRV query for SERVICE (as "_ccnx._tcp.test")
 * with "0 0 PORT TARGET", an A query for TARGET with TARGET_ADDR, any other
 * query for a name under SERVICE's domain with no records, and a name
 * outside it with "no such name". It prints "ready" once it listens, and
 * exits by itself after a minute. */
#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define T_A            1
#define T_SRV          33
#define RCODE_NXDOMAIN 3
#define LIFETIME_S     60

/* The dotted name at p (no compression: queries carry none); its end, or NULL. */
static const uint8_t *read_name(const uint8_t *p, const uint8_t *end, char *out, size_t n)
{
    size_t len = 0;
    while (p < end && *p != 0) {
        size_t label = *p++;
        if (label > 63 || p + label > end || len + label + 2 > n)
            return NULL;
        if (len > 0)
            out[len++] = '.';
        for (size_t i = 0; i < label; i++)
            out[len++] = (char)tolower(p[i]);
        p += label;
    }
    out[len] = '\0';
    return p < end ? p + 1 : NULL;
}

static size_t put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return 2;
}

static size_t put_name(uint8_t *p, const char *name)
{
    size_t n = 0;
    for (const char *s = name; *s != '\0';) {
        size_t label = strcspn(s, ".");
        p[n++] = (uint8_t)label;
        memcpy(p + n, s, label);
        n += label;
        s += label + (s[label] == '.');
    }
    p[n++] = 0;
    return n;
}

/* The answer record after the question: its owner is the question's name
 * (a pointer to offset 12), type, class IN, a TTL of 60 s, then rdata. */
static size_t put_answer(uint8_t *p, unsigned type, const uint8_t *rdata, size_t rdlen)
{
    size_t n = put16(p, 0xc00c);
    n += put16(p + n, type);
    n += put16(p + n, 1);
    n += put16(p + n, 0);
    n += put16(p + n, 60);
    n += put16(p + n, (unsigned)rdlen);
    memcpy(p + n, rdata, rdlen);
    return n + rdlen;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: dns_answer ADDR SERVICE TARGET TARGET_ADDR PORT\n");
        return 2;
    }
    const char *service = argv[2], *target = argv[3], *dot = strchr(service, '.');
    const char *domain = dot != NULL ? strchr(dot + 1, '.') : NULL;
    struct in_addr target_addr;
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(53)};
    if (domain == NULL || inet_pton(AF_INET, argv[1], &sin.sin_addr) != 1 ||
        inet_pton(AF_INET, argv[4], &target_addr) != 1) {
        fprintf(stderr, "dns_answer: bad address or service\n");
        return 2;
    }
    domain++;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
        perror("dns_answer: bind");
        return 1;
    }
    alarm(LIFETIME_S);
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        uint8_t q[512], a[1024], rdata[300];
        struct sockaddr_storage from;
        socklen_t fromlen = sizeof from;
        ssize_t len = recvfrom(fd, q, sizeof q, 0, (struct sockaddr *)&from, &fromlen);
        char name[256];
        const uint8_t *qend = len > 12 ? read_name(q + 12, q + len, name, sizeof name) : NULL;
        if (qend == NULL || qend + 4 > q + len)
            continue;
        unsigned qtype = (unsigned)(qend[0] << 8 | qend[1]);
        size_t n = (size_t)(qend + 4 - q), rdlen = 0;
        memcpy(a, q, n);
        a[2] = (uint8_t)(0x84 | (q[2] & 0x01)); /* a response, authoritative, RD as asked */
        a[3] = 0x80;                            /* recursion available, no error */
        memset(a + 6, 0, 6);
        size_t nlen = strlen(name), dlen = strlen(domain);
        if (qtype == T_SRV && strcasecmp(name, service) == 0) {
            rdlen = put16(rdata, 0) + put16(rdata + 2, 0);
            rdlen += put16(rdata + 4, (unsigned)atoi(argv[5]));
            rdlen += put_name(rdata + 6, target);
            n += put_answer(a + n, T_SRV, rdata, rdlen);
        } else if (qtype == T_A && strcasecmp(name, target) == 0) {
            n += put_answer(a + n, T_A, (const uint8_t *)&target_addr, 4);
        } else if (nlen < dlen || strcasecmp(name + nlen - dlen, domain) != 0) {
            a[3] |= RCODE_NXDOMAIN;
        }
        a[7] = n > (size_t)(qend + 4 - q) ? 1 : 0; /* the answer count */
        sendto(fd, a, n, 0, (struct sockaddr *)&from, fromlen);
    }
}
