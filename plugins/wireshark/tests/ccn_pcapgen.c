/* ccn_pcapgen: writes pcap files of ccnb traffic for the dissector tests.
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   ccn_pcapgen SCENARIO VECTORS_DIR OUT.pcap [SEED]
 *
 * Every message comes from the CCNx 0.8.2 reference vectors (or is built
 * from them); only the framing is made here: Ethernet, IPv4 or IPv6, UDP or
 * TCP on loopback addresses, with correct checksums. Scenarios:
 *
 *   tcp    a TCP connection on port 9695: messages split across segments
 *          (down to 1 byte), several messages per segment, a 4 KB object
 *          over many segments
 *   udp    two forwarders on UDP 9695: datagrams with a SequenceNumber,
 *          CCNProtocolDataUnit wrappers, several messages per datagram
 *   mcast  UDP to the CCNx group 224.0.23.170:59695
 *   ipv6   TCP and UDP over ::1
 *   heur   TCP and UDP on ports nobody registered (the heuristic's job),
 *          plus non-ccnb datagrams it must leave alone
 *   bad    broken messages, one per datagram, each with a known complaint
 *   fuzz   random and mutated messages, random well-formed trees (SEED)
 *
 * Beside OUT.pcap it writes what the dissector must find:
 *   OUT.pcap.names   "frame<TAB>uri,uri..." for frames carrying named messages
 *   OUT.pcap.msgs    "frame<TAB>dtag,dtag..." for frames carrying messages
 *   OUT.pcap.expect  "filter<TAB>frame" lines (scenario "bad" only)
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccnx/buf.h>
#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>
#include <ccnx/uri.h>

#define DTAG_INTEREST   26
#define DTAG_CONTENTOBJ 64
#define DTAG_SEQNUM     256
#define DTAG_PDU        17702112

static const char *vectors;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "ccn_pcapgen: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

/* ---- Vector files ---- */

static struct ccnx_buf load(const char *name)
{
    struct ccnx_buf b;
    char path[4096];
    ccnx_buf_init(&b);
    snprintf(path, sizeof path, "%s/%s", vectors, name);
    if (ccnx_buf_read_file(&b, path) != 0) {
        die("cannot read", path);
    }
    return b;
}

/* The first top-level element of a file (a datagram without its SequenceNumber). */
static struct ccnx_buf load_first(const char *name)
{
    struct ccnx_buf b = load(name);
    size_t end;
    if (ccnx_ccnb_element_end(b.data, b.len, 0, &end) != 0) {
        die("not ccnb", name);
    }
    b.len = end;
    return b;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every PREFIX*.ccnb, back to back, in name order. */
static struct ccnx_buf load_all(const char *prefix)
{
    struct ccnx_buf all;
    char *names[256];
    size_t n = 0;
    DIR *d = opendir(vectors);
    struct dirent *e;
    if (d == NULL) {
        die("cannot open", vectors);
    }
    while ((e = readdir(d)) != NULL && n < 256) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && l > 5 &&
            strcmp(e->d_name + l - 5, ".ccnb") == 0) {
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    ccnx_buf_init(&all);
    for (size_t i = 0; i < n; i++) {
        struct ccnx_buf b = load(names[i]);
        ccnx_buf_append(&all, b.data, b.len);
        ccnx_buf_free(&b);
        free(names[i]);
    }
    return all;
}

/* ---- What the dissector must report ---- */

struct manifest {
    FILE *names, *msgs, *expect;
    struct ccnx_buf frame_names, frame_msgs; /* for the frame being written */
};
static struct manifest man;

static void list_add(struct ccnx_buf *list, const char *item)
{
    if (list->len > 0) {
        ccnx_buf_append_byte(list, ',');
    }
    ccnx_buf_append_str(list, item);
}

/* Records the message m[0..len) as completed in the current frame. */
static void describe(const uint8_t *m, size_t len)
{
    struct ccnx_ccnb_header h;
    char num[32];
    if (ccnx_ccnb_header_decode(m, len, &h) != 0 || h.tt != CCNX_TT_DTAG) {
        return;
    }
    snprintf(num, sizeof num, "%llu", (unsigned long long)h.numval);
    list_add(&man.frame_msgs, num);
    struct ccnx_buf uri = CCNX_BUF_INIT;
    if (h.numval == DTAG_PDU) {
        size_t pos = h.size, end;
        while (pos < len && m[pos] != 0 && ccnx_ccnb_element_end(m, len, pos, &end) == 0) {
            describe(m + pos, end - pos);
            pos = end;
        }
    } else if (h.numval == DTAG_INTEREST) {
        struct ccnx_interest_parsed pi;
        if (ccnx_interest_parse(m, len, &pi) == 0 &&
            ccnx_uri_append(&uri, m + pi.name.off, pi.name.len) == 0) {
            list_add(&man.frame_names, ccnx_buf_cstr(&uri));
        }
    } else if (h.numval == DTAG_CONTENTOBJ) {
        struct ccnx_content_parsed pc;
        if (ccnx_content_parse(m, len, &pc) == 0 &&
            ccnx_uri_append(&uri, m + pc.name.off, pc.name.len) == 0) {
            list_add(&man.frame_names, ccnx_buf_cstr(&uri));
        }
    }
    ccnx_buf_free(&uri);
}

/* Every whole element of a datagram payload. */
static void describe_all(const uint8_t *p, size_t len)
{
    size_t pos = 0, end;
    while (pos < len && ccnx_ccnb_element_end(p, len, pos, &end) == 0) {
        describe(p + pos, end - pos);
        pos = end;
    }
}

static void expect(const char *filter, unsigned frame)
{
    if (man.expect != NULL) {
        fprintf(man.expect, "%s\t%u\n", filter, frame);
    }
}

/* ---- pcap writing ---- */

struct pcap {
    FILE *f;
    unsigned frame; /* number of the last frame written (1-based) */
    uint64_t usec;
    uint16_t ip_id;
};
static struct pcap cap;

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v & 0xFFFF);
}

static void le32(FILE *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fwrite(b, 1, 4, f);
}

static void pcap_open(const char *path)
{
    cap.f = fopen(path, "wb");
    if (cap.f == NULL) {
        die("cannot write", path);
    }
    le32(cap.f, 0xA1B2C3D4);
    le32(cap.f, 2 | (4u << 16)); /* version 2.4 */
    le32(cap.f, 0);
    le32(cap.f, 0);
    le32(cap.f, 262144); /* snaplen */
    le32(cap.f, 1);      /* Ethernet */
    cap.usec = 1700000000ull * 1000000ull;
}

/* Writes one frame; captured may be less than len (a snaplen cut). The
 * messages recorded in the manifest since the last frame belong to it. */
static void pcap_frame(const uint8_t *p, size_t len, size_t captured)
{
    cap.frame++;
    cap.usec += 1000;
    le32(cap.f, (uint32_t)(cap.usec / 1000000));
    le32(cap.f, (uint32_t)(cap.usec % 1000000));
    le32(cap.f, (uint32_t)captured);
    le32(cap.f, (uint32_t)len);
    fwrite(p, 1, captured, cap.f);
    if (man.frame_names.len > 0) {
        fprintf(man.names, "%u\t%s\n", cap.frame, ccnx_buf_cstr(&man.frame_names));
    }
    if (man.frame_msgs.len > 0) {
        fprintf(man.msgs, "%u\t%s\n", cap.frame, ccnx_buf_cstr(&man.frame_msgs));
    }
    ccnx_buf_reset(&man.frame_names);
    ccnx_buf_reset(&man.frame_msgs);
}

/* ---- Ethernet / IP / UDP / TCP ---- */

struct ep {
    int v6;
    uint8_t addr[16];
    uint16_t port;
};

static struct ep ep4(const char *dotted, uint16_t port)
{
    struct ep e;
    unsigned a, b, c, d;
    memset(&e, 0, sizeof e);
    if (sscanf(dotted, "%u.%u.%u.%u", &a, &b, &c, &d) != 4) {
        die("bad address", dotted);
    }
    e.addr[0] = (uint8_t)a;
    e.addr[1] = (uint8_t)b;
    e.addr[2] = (uint8_t)c;
    e.addr[3] = (uint8_t)d;
    e.port = port;
    return e;
}

static struct ep ep6_loopback(uint16_t port)
{
    struct ep e;
    memset(&e, 0, sizeof e);
    e.v6 = 1;
    e.addr[15] = 1;
    e.port = port;
    return e;
}

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t sum)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        sum += (uint32_t)(p[i] << 8 | p[i + 1]);
    }
    if (n & 1) {
        sum += (uint32_t)(p[n - 1] << 8);
    }
    return sum;
}

static uint16_t fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return (uint16_t)~sum;
}

/* Builds Ethernet + IP around the transport segment l4[0..n) and writes it. */
static void send_ip(const struct ep *src, const struct ep *dst, uint8_t proto, uint8_t *l4,
                    size_t n, size_t snap_payload)
{
    static uint8_t frame[70000];
    size_t ipl = src->v6 ? 40 : 20;
    size_t csum_at = proto == 6 ? 16 : 6;
    uint8_t *eth = frame, *ip = frame + 14;
    if (n + ipl + 14 > sizeof frame) {
        die("segment too large", NULL);
    }
    /* Ethernet: a multicast group maps to 01:00:5e + its low 23 bits. */
    if (!dst->v6 && dst->addr[0] >= 224 && dst->addr[0] <= 239) {
        uint8_t m[6] = {0x01,         0x00,        0x5e, (uint8_t)(dst->addr[1] & 0x7F),
                        dst->addr[2], dst->addr[3]};
        memcpy(eth, m, 6);
    } else {
        uint8_t m[6] = {0x02, 0, 0, 0, 0, dst->addr[src->v6 ? 15 : 3]};
        memcpy(eth, m, 6);
    }
    uint8_t s[6] = {0x02, 0, 0, 0, 1, src->addr[src->v6 ? 15 : 3]};
    memcpy(eth + 6, s, 6);
    put16(eth + 12, src->v6 ? 0x86DD : 0x0800);
    /* Transport checksum over the pseudo-header. */
    uint8_t pseudo[40];
    size_t pl;
    memset(pseudo, 0, sizeof pseudo);
    if (src->v6) {
        memcpy(pseudo, src->addr, 16);
        memcpy(pseudo + 16, dst->addr, 16);
        put32(pseudo + 32, (uint32_t)n);
        pseudo[39] = proto;
        pl = 40;
    } else {
        memcpy(pseudo, src->addr, 4);
        memcpy(pseudo + 4, dst->addr, 4);
        pseudo[9] = proto;
        put16(pseudo + 10, (unsigned)n);
        pl = 12;
    }
    put16(l4 + csum_at, 0);
    uint16_t c = fold(sum16(l4, n, sum16(pseudo, pl, 0)));
    put16(l4 + csum_at, proto == 17 && c == 0 ? 0xFFFF : c);
    if (src->v6) {
        put32(ip, 0x60000000);
        put16(ip + 4, (unsigned)n);
        ip[6] = proto;
        ip[7] = 64;
        memcpy(ip + 8, src->addr, 16);
        memcpy(ip + 24, dst->addr, 16);
    } else {
        ip[0] = 0x45;
        ip[1] = 0;
        put16(ip + 2, (unsigned)(20 + n));
        put16(ip + 4, cap.ip_id++);
        put16(ip + 6, 0x4000);
        ip[8] = 64;
        ip[9] = proto;
        put16(ip + 10, 0);
        memcpy(ip + 12, src->addr, 4);
        memcpy(ip + 16, dst->addr, 4);
        put16(ip + 10, fold(sum16(ip, 20, 0)));
    }
    memcpy(frame + 14 + ipl, l4, n);
    size_t total = 14 + ipl + n;
    size_t hdrs = total - n + (proto == 6 ? 20 : 8);
    pcap_frame(frame, total, snap_payload < total - hdrs ? hdrs + snap_payload : total);
}

static void send_udp_snap(const struct ep *src, const struct ep *dst, const uint8_t *p, size_t n,
                          size_t snap_payload)
{
    static uint8_t seg[66000];
    if (n + 8 > sizeof seg) {
        die("datagram too large", NULL);
    }
    put16(seg, src->port);
    put16(seg + 2, dst->port);
    put16(seg + 4, (unsigned)(n + 8));
    memcpy(seg + 8, p, n);
    send_ip(src, dst, 17, seg, n + 8, snap_payload);
}

/* One datagram; its whole messages go to the manifest. */
static void send_udp(const struct ep *src, const struct ep *dst, const uint8_t *p, size_t n)
{
    describe_all(p, n);
    send_udp_snap(src, dst, p, n, (size_t)-1);
}

/* A message boundary inside a TCP byte stream, for the manifest. */
struct boundary {
    uint64_t end; /* stream offset just past the message */
    size_t off;   /* where it starts in the stream buffer */
};

struct tcp_dir {
    struct ep from, to;
    uint32_t seq;
    uint32_t *peer_seq;
    struct ccnx_buf stream; /* everything queued in this direction */
    uint64_t sent;
    struct boundary b[4096];
    size_t nb, next_b;
};

struct tcp_conn {
    struct tcp_dir d[2]; /* 0: client to server, 1: server to client */
};

static void tcp_segment(struct tcp_dir *d, uint8_t flags, const uint8_t *p, size_t n)
{
    static uint8_t seg[66000];
    put16(seg, d->from.port);
    put16(seg + 2, d->to.port);
    put32(seg + 4, d->seq);
    put32(seg + 8, (flags & 0x10) ? *d->peer_seq : 0);
    seg[12] = 5 << 4;
    seg[13] = flags;
    put16(seg + 14, 65535);
    put16(seg + 16, 0);
    put16(seg + 18, 0);
    if (n > 0) {
        memcpy(seg + 20, p, n);
    }
    send_ip(&d->from, &d->to, 6, seg, n + 20, (size_t)-1);
    d->seq += (uint32_t)n + ((flags & 0x03) ? 1 : 0); /* SYN and FIN count */
}

static void tcp_open(struct tcp_conn *c, struct ep client, struct ep server)
{
    memset(c, 0, sizeof *c);
    c->d[0].from = client;
    c->d[0].to = server;
    c->d[1].from = server;
    c->d[1].to = client;
    c->d[0].seq = 0x10000000;
    c->d[1].seq = 0x20000000;
    c->d[0].peer_seq = &c->d[1].seq;
    c->d[1].peer_seq = &c->d[0].seq;
    tcp_segment(&c->d[0], 0x02, NULL, 0); /* SYN */
    tcp_segment(&c->d[1], 0x12, NULL, 0); /* SYN ACK */
    tcp_segment(&c->d[0], 0x10, NULL, 0); /* ACK */
}

/* Queues messages (whole elements) for sending in direction d. */
static void tcp_queue(struct tcp_dir *d, const uint8_t *p, size_t n)
{
    size_t pos = 0, end;
    while (pos < n && ccnx_ccnb_element_end(p, n, pos, &end) == 0 && d->nb < 4096) {
        d->b[d->nb].off = d->stream.len + pos;
        d->b[d->nb].end = d->stream.len + end;
        d->nb++;
        pos = end;
    }
    ccnx_buf_append(&d->stream, p, n);
}

/* Sends the next n queued bytes as one segment. */
static void tcp_send(struct tcp_dir *d, size_t n)
{
    if (n > d->stream.len - d->sent) {
        n = d->stream.len - d->sent;
    }
    if (n == 0) {
        return;
    }
    uint64_t stop = d->sent + n;
    while (d->next_b < d->nb && d->b[d->next_b].end <= stop) {
        struct boundary *b = &d->b[d->next_b++];
        describe(d->stream.data + b->off, b->end - b->off);
    }
    tcp_segment(d, 0x18, d->stream.data + d->sent, n); /* PSH ACK */
    d->sent = stop;
}

/* Sends what is queued in segments of the given sizes, the last repeating. */
static void tcp_send_pattern(struct tcp_dir *d, const size_t *sizes, size_t count)
{
    size_t i = 0;
    while (d->sent < d->stream.len) {
        tcp_send(d, sizes[i]);
        if (i + 1 < count) {
            i++;
        }
    }
}

static void tcp_close(struct tcp_conn *c)
{
    tcp_segment(&c->d[0], 0x11, NULL, 0);
    tcp_segment(&c->d[1], 0x11, NULL, 0);
    tcp_segment(&c->d[0], 0x10, NULL, 0);
    ccnx_buf_free(&c->d[0].stream);
    ccnx_buf_free(&c->d[1].stream);
}

/* ---- Building messages ---- */

static void seqnum(struct ccnx_buf *b, unsigned v)
{
    uint8_t s[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    ccnx_ccnb_append_blob_element(b, DTAG_SEQNUM, s, 2);
}

static void append_file(struct ccnx_buf *b, const char *name, int first_only)
{
    struct ccnx_buf f = first_only ? load_first(name) : load(name);
    ccnx_buf_append(b, f.data, f.len);
    ccnx_buf_free(&f);
}

/* ---- Scenarios ---- */

static void scenario_tcp(void)
{
    struct tcp_conn c;
    static const size_t tiny_first[] = {1, 10, 100, 1001, 4096};
    static const size_t replies[] = {585, 500};
    static const size_t one_segment[] = {65000};
    static const size_t bytewise_then_mss[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   1,
                                               1, 1, 1, 1, 1, 1, 1, 1, 1, 1448};
    static const size_t unaligned[] = {1000};
    static const size_t mss[] = {1448};
    tcp_open(&c, ep4("127.0.0.1", 40001), ep4("127.0.0.1", 9695));
    struct ccnx_buf b = load("stream_tcp_ccndc_to_ccnd.ccnb");
    tcp_queue(&c.d[0], b.data, b.len);
    tcp_send_pattern(&c.d[0], tiny_first, 5);
    ccnx_buf_free(&b);
    b = load("stream_tcp_ccnd_to_ccndc.ccnb");
    tcp_queue(&c.d[1], b.data, b.len);
    tcp_send_pattern(&c.d[1], replies, 2);
    ccnx_buf_free(&b);
    /* Every handwritten and library Interest in one segment. */
    b = load_all("int_");
    tcp_queue(&c.d[0], b.data, b.len);
    tcp_send_pattern(&c.d[0], one_segment, 1);
    ccnx_buf_free(&b);
    /* The answer to the Interests for /example/vec/data/hello. */
    b = load("co_data_fresh.ccnb");
    tcp_queue(&c.d[1], b.data, b.len);
    tcp_send_pattern(&c.d[1], one_segment, 1);
    ccnx_buf_free(&b);
    /* A 4 KB object: twenty 1-byte segments, then full ones. */
    b = load("co_data_large.ccnb");
    tcp_queue(&c.d[1], b.data, b.len);
    tcp_send_pattern(&c.d[1], bytewise_then_mss, 21);
    ccnx_buf_free(&b);
    /* Three segments of a stream, cut where no message ends. */
    ccnx_buf_init(&b);
    append_file(&b, "co_stream_seg0.ccnb", 0);
    append_file(&b, "co_stream_seg1.ccnb", 0);
    append_file(&b, "co_stream_seg2.ccnb", 0);
    tcp_queue(&c.d[1], b.data, b.len);
    tcp_send_pattern(&c.d[1], unaligned, 1);
    ccnx_buf_free(&b);
    /* Every reference ContentObject: each type, key locator and body. */
    b = load_all("co_");
    tcp_queue(&c.d[1], b.data, b.len);
    tcp_send_pattern(&c.d[1], mss, 1);
    ccnx_buf_free(&b);
    tcp_close(&c);
}

static void scenario_udp(void)
{
    struct ep a = ep4("127.0.0.1", 9695), b = ep4("127.0.0.2", 9695);
    static const char *dgrams[] = {"udp_dgram_0_a_to_b.ccnb", "udp_dgram_1_b_to_a.ccnb",
                                   "udp_dgram_2_a_to_b.ccnb", "udp_dgram_3_b_to_a.ccnb"};
    for (int i = 0; i < 4; i++) {
        struct ccnx_buf d = load(dgrams[i]);
        send_udp(i % 2 ? &b : &a, i % 2 ? &a : &b, d.data, d.len);
        ccnx_buf_free(&d);
    }
    /* CCNProtocolDataUnit around two Interests, then the SequenceNumber. */
    struct ccnx_buf d = CCNX_BUF_INIT;
    ccnx_ccnb_open(&d, DTAG_PDU);
    append_file(&d, "int_nonce.ccnb", 0);
    append_file(&d, "int_scope.ccnb", 0);
    ccnx_ccnb_append_closer(&d);
    seqnum(&d, 5);
    send_udp(&a, &b, d.data, d.len);
    /* The answer, wrapped too. */
    ccnx_buf_reset(&d);
    ccnx_ccnb_open(&d, DTAG_PDU);
    append_file(&d, "co_data_fresh.ccnb", 0);
    ccnx_ccnb_append_closer(&d);
    seqnum(&d, 6);
    send_udp(&b, &a, d.data, d.len);
    /* Two bare messages and a SequenceNumber in one datagram. */
    ccnx_buf_reset(&d);
    append_file(&d, "int_lifetime.ccnb", 0);
    append_file(&d, "int_lib_ccnpeek.ccnb", 0);
    seqnum(&d, 7);
    send_udp(&a, &b, d.data, d.len);
    ccnx_buf_free(&d);
}

static void scenario_mcast(void)
{
    struct ep group = ep4("224.0.23.170", 59695);
    struct ep a = ep4("127.0.0.1", 59695), b = ep4("127.0.0.2", 59695);
    struct ccnx_buf d = load("int_forwarded_udp.ccnb");
    send_udp(&a, &group, d.data, d.len);
    ccnx_buf_free(&d);
    d = load_first("udp_dgram_1_b_to_a.ccnb");
    send_udp(&b, &group, d.data, d.len);
    ccnx_buf_free(&d);
    ccnx_buf_init(&d);
    ccnx_ccnb_open(&d, DTAG_PDU);
    append_file(&d, "int_lib_ccnls_0.ccnb", 0);
    append_file(&d, "int_lib_ccnls_1.ccnb", 0);
    ccnx_ccnb_append_closer(&d);
    send_udp(&a, &group, d.data, d.len);
    ccnx_buf_free(&d);
}

static void scenario_ipv6(void)
{
    struct tcp_conn c;
    static const size_t pattern[] = {7, 300, 64};
    tcp_open(&c, ep6_loopback(40002), ep6_loopback(9695));
    struct ccnx_buf b = load("stream_unix_producer_to_ccnd.ccnb");
    tcp_queue(&c.d[0], b.data, b.len);
    tcp_send_pattern(&c.d[0], pattern, 3);
    ccnx_buf_free(&b);
    b = load("stream_unix_ccnd_to_producer.ccnb");
    tcp_queue(&c.d[1], b.data, b.len);
    tcp_send_pattern(&c.d[1], pattern, 3);
    ccnx_buf_free(&b);
    tcp_close(&c);
    struct ep a = ep6_loopback(9695), z = ep6_loopback(9696);
    b = load("udp_dgram_0_a_to_b.ccnb");
    send_udp(&a, &z, b.data, b.len);
    ccnx_buf_free(&b);
    b = load("udp_dgram_1_b_to_a.ccnb");
    send_udp(&z, &a, b.data, b.len);
    ccnx_buf_free(&b);
}

static void scenario_heur(void)
{
    struct ep a = ep4("127.0.0.1", 40100), b = ep4("127.0.0.1", 40200);
    static const char *dgrams[] = {"udp_dgram_0_a_to_b.ccnb", "udp_dgram_1_b_to_a.ccnb",
                                   "udp_dgram_2_a_to_b.ccnb", "udp_dgram_3_b_to_a.ccnb"};
    for (int i = 0; i < 4; i++) {
        struct ccnx_buf d = load(dgrams[i]);
        send_udp(i % 2 ? &b : &a, i % 2 ? &a : &b, d.data, d.len);
        ccnx_buf_free(&d);
    }
    /* Not ccnb: must not be claimed. */
    struct ep x = ep4("127.0.0.1", 40500), y = ep4("127.0.0.1", 40501);
    static const char text[] = "hello, this is not ccnb at all\n";
    static const uint8_t near_miss[] = {0x01, 0xD2, 0xF2, 0xFA, 0x9D, 'a', 'b', 'c', 0x00};
    send_udp_snap(&x, &y, (const uint8_t *)text, sizeof text - 1, (size_t)-1);
    send_udp_snap(&x, &y, near_miss, sizeof near_miss, (size_t)-1);
    struct tcp_conn c;
    static const size_t pattern[] = {100, 25, 300};
    tcp_open(&c, ep4("127.0.0.1", 40300), ep4("127.0.0.1", 40400));
    struct ccnx_buf s = load("stream_unix_consumer_to_ccnd.ccnb");
    tcp_queue(&c.d[0], s.data, s.len);
    tcp_send_pattern(&c.d[0], pattern, 3);
    ccnx_buf_free(&s);
    s = load("stream_unix_ccnd_to_consumer.ccnb");
    tcp_queue(&c.d[1], s.data, s.len);
    tcp_send_pattern(&c.d[1], pattern, 3);
    ccnx_buf_free(&s);
    tcp_close(&c);
}

/* ---- Broken messages ---- */

static struct ep bad_src, bad_dst;

static void bad_dgram(const uint8_t *p, size_t n, const char *filter)
{
    send_udp_snap(&bad_src, &bad_dst, p, n, (size_t)-1);
    expect(filter, cap.frame);
}

/* An Interest named /x whose extra bytes come after the Name. */
static void interest_with(struct ccnx_buf *out, const uint8_t *extra, size_t n)
{
    static const uint8_t name_x[] = {0xF2, 0xFA, 0x8D, 'x', 0x00, 0x00};
    ccnx_ccnb_open(out, DTAG_INTEREST);
    ccnx_buf_append(out, name_x, sizeof name_x);
    ccnx_buf_append(out, extra, n);
    ccnx_ccnb_append_closer(out);
}

/* A ContentObject with a 2-byte Type. */
static void bad_type_object(struct ccnx_buf *b)
{
    static const uint8_t bits[4] = {1, 2, 3, 4};
    static const uint8_t digest[32] = {0};
    static const uint8_t ts[6] = {0x06, 0xB1, 0x12, 0x1D, 0x8D, 0xC3};
    static const uint8_t type[2] = {0x28, 0x46};
    static const uint8_t name_x[] = {0xF2, 0xFA, 0x8D, 'x', 0x00, 0x00};
    ccnx_ccnb_open(b, DTAG_CONTENTOBJ);
    ccnx_ccnb_open(b, 37); /* Signature */
    ccnx_ccnb_append_blob_element(b, 54, bits, sizeof bits);
    ccnx_ccnb_append_closer(b);
    ccnx_buf_append(b, name_x, sizeof name_x);
    ccnx_ccnb_open(b, 20); /* SignedInfo */
    ccnx_ccnb_append_blob_element(b, 60, digest, sizeof digest);
    ccnx_ccnb_append_blob_element(b, 39, ts, sizeof ts);
    ccnx_ccnb_append_blob_element(b, 40, type, sizeof type);
    ccnx_ccnb_append_closer(b);
    ccnx_ccnb_append_blob_element(b, 19, "hi", 2);
    ccnx_ccnb_append_closer(b);
}

static void scenario_bad(void)
{
    bad_src = ep4("127.0.0.1", 40600);
    bad_dst = ep4("127.0.0.1", 9695);
    struct ccnx_buf b = load("int_all_fields.ccnb");
    struct ccnx_buf m = CCNX_BUF_INIT;
    bad_dgram(b.data, 20, "ccn.truncated");
    static const uint8_t badtt[] = {0x01, 0xD2, 0x87, 0x00};
    bad_dgram(badtt, sizeof badtt, "ccn.malformed");
    static const uint8_t closer[] = {0x00, 0x00};
    bad_dgram(closer, sizeof closer, "ccn.malformed");
    ccnx_buf_append(&m, b.data, b.len);
    ccnx_buf_append(&m, "\0\1\2", 3); /* a closer where a message should start */
    bad_dgram(m.data, m.len, "ccn.malformed");
    expect("ccn.name == \"ccnx:/example/vec/sel\"", cap.frame);
    static const uint8_t no_name[] = {0x01, 0xD2, 0x00};
    bad_dgram(no_name, sizeof no_name, "ccn.schema");
    /* An element the dictionary does not know (DTAG 999) inside an Interest. */
    ccnx_buf_reset(&m);
    struct ccnx_buf unknown = CCNX_BUF_INIT;
    ccnx_ccnb_append_blob_element(&unknown, 999, "??", 2);
    interest_with(&m, unknown.data, unknown.len);
    bad_dgram(m.data, m.len, "ccn.unknown");
    expect("ccn.schema", cap.frame);
    ccnx_buf_free(&unknown);
    /* Scope that is not a number. */
    ccnx_buf_reset(&m);
    struct ccnx_buf scope = CCNX_BUF_INIT;
    ccnx_ccnb_append_udata_element(&scope, 42, "abc", 3);
    interest_with(&m, scope.data, scope.len);
    ccnx_buf_free(&scope);
    bad_dgram(m.data, m.len, "ccn.badvalue");
    /* Nesting: 32 levels are allowed, 33 are not. */
    for (int depth = 32; depth <= 33; depth++) {
        ccnx_buf_reset(&m);
        ccnx_ccnb_open(&m, DTAG_INTEREST);
        for (int i = 1; i < depth; i++) {
            ccnx_ccnb_open(&m, 999);
        }
        for (int i = 0; i < depth; i++) {
            ccnx_ccnb_append_closer(&m);
        }
        bad_dgram(m.data, m.len, depth == 32 ? "ccn.flat" : "ccn.malformed");
    }
    ccnx_buf_reset(&m);
    bad_type_object(&m);
    bad_dgram(m.data, m.len, "ccn.badvalue");
    /* Cut short by the capture length (snaplen). */
    send_udp_snap(&bad_src, &bad_dst, b.data, b.len, 30);
    expect("ccn.truncated", cap.frame);
    ccnx_buf_free(&m);
    ccnx_buf_free(&b);
}

/* ---- Fuzz ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static unsigned rnd_below(unsigned n)
{
    return n ? (unsigned)(rnd() % n) : 0;
}

/* DTAGs the dissector treats specially, and a few it does not know. */
static const unsigned fuzz_dtags[] = {
    13, 14, 15, 16, 17, 19, 20, 26, 27, 28,  29,  31,  32,  34,  37,  39,  40,  41,
    42, 43, 44, 47, 48, 53, 54, 55, 58, 59,  60,  61,  64,  69,  73,  74,  75,  76,
    77, 78, 79, 80, 81, 82, 83, 84, 85, 112, 113, 114, 144, 145, 146, 256, 999, 5000};

static void random_value(struct ccnx_buf *b, unsigned dtag)
{
    uint8_t v[48];
    size_t n = rnd_below(sizeof v);
    int kind = (int)rnd_below(4);
    for (size_t i = 0; i < n; i++) {
        v[i] = kind == 0 ? (uint8_t)('0' + rnd_below(10)) : (uint8_t)rnd();
    }
    if (kind <= 1) {
        ccnx_ccnb_append_udata_element(b, dtag, (const char *)v, n);
    } else {
        ccnx_ccnb_append_blob_element(b, dtag, v, n);
    }
}

/* A random well-formed tree (depth may exceed the limit on purpose). */
static void random_tree(struct ccnx_buf *b, unsigned dtag, unsigned depth)
{
    if (depth > 34 || b->len > 3000 || rnd_below(3) == 0) {
        random_value(b, dtag);
        return;
    }
    ccnx_ccnb_open(b, dtag);
    unsigned children = rnd_below(5);
    for (unsigned i = 0; i < children; i++) {
        unsigned child = fuzz_dtags[rnd_below(sizeof fuzz_dtags / sizeof fuzz_dtags[0])];
        if (rnd_below(20) == 0) {
            /* An embedded message inside a component or content value. */
            struct ccnx_buf inner = CCNX_BUF_INIT;
            random_tree(&inner, rnd_below(2) ? DTAG_CONTENTOBJ : 80, depth + 1);
            ccnx_ccnb_append_blob_element(b, rnd_below(2) ? 15 : 19, inner.data, inner.len);
            ccnx_buf_free(&inner);
        } else {
            random_tree(b, child, depth + 1);
        }
    }
    ccnx_ccnb_append_closer(b);
}

static void mutate(struct ccnx_buf *m)
{
    unsigned kind = rnd_below(4);
    if (m->len == 0) {
        return;
    }
    if (kind == 0) {
        m->len = 1 + rnd_below((unsigned)m->len);
        return;
    }
    unsigned flips = 1 + rnd_below(4);
    for (unsigned i = 0; i < flips; i++) {
        size_t at = rnd_below((unsigned)m->len);
        if (kind == 1) {
            m->data[at] ^= (uint8_t)(1u << rnd_below(8));
        } else {
            m->data[at] = (uint8_t)rnd();
        }
    }
}

static void random_message(struct ccnx_buf *m, const char *const *files, size_t nfiles)
{
    unsigned kind = rnd_below(4);
    ccnx_buf_reset(m);
    if (kind == 0) {
        size_t n = 1 + rnd_below(200);
        for (size_t i = 0; i < n; i++) {
            ccnx_buf_append_byte(m, (uint8_t)rnd());
        }
    } else if (kind == 1) {
        random_tree(m, rnd_below(2) ? DTAG_INTEREST : DTAG_CONTENTOBJ, 0);
    } else {
        append_file(m, files[rnd_below((unsigned)nfiles)], 0);
        if (kind == 2) {
            mutate(m);
        }
    }
}

static void scenario_fuzz(void)
{
    static const char *const files[] = {"int_all_fields.ccnb",
                                        "co_data_fresh.ccnb",
                                        "co_keyname_locator.ccnb",
                                        "ctl_newface_interest.ccnb",
                                        "ctl_prefixreg_reply.ccnb",
                                        "co_link.ccnb",
                                        "co_name_enumeration_reply.ccnb",
                                        "udp_dgram_0_a_to_b.ccnb",
                                        "int_lib_ccncat_version_probe.ccnb",
                                        "ctl_selfreg_reply_payload.ccnb",
                                        "co_key.ccnb",
                                        "co_final_block.ccnb"};
    const size_t nfiles = sizeof files / sizeof files[0];
    struct ep a = ep4("127.0.0.1", 9695), b = ep4("127.0.0.2", 9695);
    struct ep ha = ep4("127.0.0.1", 41000), hb = ep4("127.0.0.1", 41001);
    struct ccnx_buf m = CCNX_BUF_INIT;
    for (int i = 0; i < 400; i++) {
        random_message(&m, files, nfiles);
        send_udp_snap(i % 3 ? &a : &ha, i % 3 ? &b : &hb, m.data, m.len, (size_t)-1);
    }
    /* Streams: valid and broken messages, cut at random places. */
    for (int conn = 0; conn < 3; conn++) {
        struct tcp_conn c;
        tcp_open(&c, ep4("127.0.0.1", (uint16_t)(42000 + conn)),
                 ep4("127.0.0.1", conn == 2 ? 43000 : 9695));
        for (int i = 0; i < 60; i++) {
            struct tcp_dir *d = &c.d[rnd_below(2)];
            random_message(&m, files, nfiles);
            ccnx_buf_append(&d->stream, m.data, m.len);
            while (d->sent < d->stream.len && rnd_below(3) != 0) {
                size_t n = 1 + rnd_below(700);
                if (n > d->stream.len - d->sent) {
                    n = d->stream.len - d->sent;
                }
                tcp_segment(d, 0x18, d->stream.data + d->sent, n);
                d->sent += n;
            }
        }
        tcp_close(&c);
    }
    ccnx_buf_free(&m);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: ccn_pcapgen tcp|udp|mcast|ipv6|heur|bad|fuzz VECTORS_DIR OUT.pcap "
                        "[SEED]\n");
        return 2;
    }
    const char *scenario = argv[1];
    vectors = argv[2];
    rng_state = argc > 4 ? strtoull(argv[4], NULL, 0) * 0x9E3779B97F4A7C15ull + 1 : 1;
    char path[4096];
    pcap_open(argv[3]);
    snprintf(path, sizeof path, "%s.names", argv[3]);
    man.names = fopen(path, "w");
    snprintf(path, sizeof path, "%s.msgs", argv[3]);
    man.msgs = fopen(path, "w");
    if (strcmp(scenario, "bad") == 0) {
        snprintf(path, sizeof path, "%s.expect", argv[3]);
        man.expect = fopen(path, "w");
    }
    if (man.names == NULL || man.msgs == NULL) {
        die("cannot write the manifest beside", argv[3]);
    }
    if (strcmp(scenario, "tcp") == 0) {
        scenario_tcp();
    } else if (strcmp(scenario, "udp") == 0) {
        scenario_udp();
    } else if (strcmp(scenario, "mcast") == 0) {
        scenario_mcast();
    } else if (strcmp(scenario, "ipv6") == 0) {
        scenario_ipv6();
    } else if (strcmp(scenario, "heur") == 0) {
        scenario_heur();
    } else if (strcmp(scenario, "bad") == 0) {
        scenario_bad();
    } else if (strcmp(scenario, "fuzz") == 0) {
        scenario_fuzz();
    } else {
        die("unknown scenario", scenario);
    }
    int bad = fclose(cap.f) != 0;
    bad |= fclose(man.names) != 0;
    bad |= fclose(man.msgs) != 0;
    if (man.expect != NULL) {
        bad |= fclose(man.expect) != 0;
    }
    ccnx_buf_free(&man.frame_names);
    ccnx_buf_free(&man.frame_msgs);
    return bad ? 1 : 0;
}
