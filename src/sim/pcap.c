/* pcap.c - RoCEv2 and PFC frames in the classic pcap format (pcap.h). */
#include <string.h>

#include "fsafe.h"
#include "pcap.h"

#define PCAP_MAGIC_NS	0xa1b23c4du	/* nanosecond timestamps */
#define LINKTYPE_ETHERNET 1
#define ETH_HDR		14
#define IP_HDR		20
#define UDP_HDR		8
#define BTH_HDR		12
#define AETH_HDR	4
#define ICRC		4
#define ROCE_PORT	4791
#define ETH_MIN		60	/* without the FCS */

static void put16(uint8_t *p, uint16_t v)	/* network order */
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

/* The pcap headers are in the writer's byte order (the magic tells the
 * reader which); this one writes little-endian everywhere. */
static void le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

int pcap_write_header(FILE *fp, uint32_t snaplen)
{
	uint8_t h[24];

	le32(h, PCAP_MAGIC_NS);
	h[4] = 2;		/* version 2.4 */
	h[5] = 0;
	h[6] = 4;
	h[7] = 0;
	le32(h + 8, 0);		/* thiszone */
	le32(h + 12, 0);	/* sigfigs */
	le32(h + 16, snaplen);
	le32(h + 20, LINKTYPE_ETHERNET);
	return fwrite(h, sizeof(h), 1, fp) == 1 ? 0 : -1;
}

uint16_t pcap_ip_csum(const uint8_t *h, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* IPv4, UDP, BTH [, AETH], payload (and its pad to 4 bytes), ICRC after
 * the Ethernet header; the frame's length.
 */
static size_t roce_frame(uint8_t *b, const struct pcap_frame *f)
{
	uint32_t pad = (4 - f->payload % 4) % 4;
	size_t l4 = UDP_HDR + BTH_HDR + (f->aeth ? AETH_HDR : 0) +
		    f->payload + pad + ICRC;
	uint8_t *ip = b + ETH_HDR, *udp = ip + IP_HDR, *bth = udp + UDP_HDR;

	put16(b + 12, 0x0800);
	ip[0] = 0x45;
	ip[1] = (uint8_t)(f->dscp << 2 | (f->ecn & 3));
	put16(ip + 2, (uint16_t)(IP_HDR + l4));
	put16(ip + 4, 0);		/* identification */
	put16(ip + 6, 0x4000);		/* don't fragment */
	ip[8] = 64;			/* TTL */
	ip[9] = 17;			/* UDP */
	put32(ip + 12, f->src_ip);
	put32(ip + 16, f->dst_ip);
	put16(ip + 10, pcap_ip_csum(ip, IP_HDR));
	put16(udp, f->sport);
	put16(udp + 2, ROCE_PORT);
	put16(udp + 4, (uint16_t)l4);
	put16(udp + 6, 0);		/* RoCEv2 sends no UDP checksum */
	bth[0] = f->opcode;
	bth[1] = (uint8_t)(pad << 4);	/* SE 0, M 0, pad, TVer 0 */
	put16(bth + 2, 0xffff);		/* default P_Key */
	bth[4] = f->becn ? 0x40 : 0;
	put24(bth + 5, f->dqp);
	bth[8] = f->ackreq ? 0x80 : 0;
	put24(bth + 9, f->psn);
	if (f->aeth) {
		bth[12] = f->syndrome;
		put24(bth + 13, f->msn);
	}
	return ETH_HDR + IP_HDR + l4;
}

/* RoCEv2's invariant CRC (IBA annex A17): the CRC-32 of 8 bytes of ones
 * (for the LRH RoCEv2 has not), the IP header with its variant fields
 * (DSCP/ECN, TTL, checksum) as ones, UDP with its checksum as ones, the
 * BTH with its reserved byte 4 (FECN/BECN) as ones, and the rest to the
 * ICRC; sent least significant byte first, as the FCS is.
 */
static void roce_icrc(uint8_t *ip, size_t len)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff };
	uint8_t h[IP_HDR + UDP_HDR + BTH_HDR];
	uint32_t c;

	memcpy(h, ip, sizeof(h));
	h[1] = h[8] = h[10] = h[11] = 0xff;
	h[IP_HDR + 6] = h[IP_HDR + 7] = 0xff;
	h[IP_HDR + UDP_HDR + 4] = 0xff;
	c = pcb_crc32(0, ones, sizeof(ones));
	c = pcb_crc32(c, h, sizeof(h));
	c = pcb_crc32(c, ip + sizeof(h), len - ICRC - sizeof(h));
	le32(ip + len - ICRC, c);
}

/* 802.1Qbb: opcode, class-enable vector, eight pause times, padding. */
static size_t pfc_frame(uint8_t *b, const struct pcap_frame *f)
{
	int i;

	put16(b + 12, 0x8808);
	put16(b + 14, 0x0101);
	put16(b + 16, f->prio_mask);
	for (i = 0; i < 8; i++)
		put16(b + 18 + 2 * i, f->quanta[i]);
	return ETH_MIN;
}

int pcap_write_frame(FILE *fp, int64_t t_ps, const struct pcap_frame *f,
		     uint32_t snaplen, uint8_t *buf)
{
	uint8_t rec[16];
	size_t len, cap;

	if (!f->pfc && f->payload > PCAP_FRAME_MAX - 128)
		return -1;
	/* only what is kept is built: the rest are zeros anyway */
	memset(buf, 0, 128 + (f->pfc ? 0 : (f->payload < snaplen ?
						f->payload : snaplen)));
	memcpy(buf, f->dst_mac, 6);
	memcpy(buf + 6, f->src_mac, 6);
	len = f->pfc ? pfc_frame(buf, f) : roce_frame(buf, f);
	if (!f->pfc && len <= snaplen)	/* its ICRC is kept: compute it */
		roce_icrc(buf + ETH_HDR, len - ETH_HDR);
	if (len < ETH_MIN)	/* padded (a probe): zeros after the ICRC */
		len = ETH_MIN;
	cap = len < snaplen ? len : snaplen;
	le32(rec, (uint32_t)(t_ps / 1000000000000LL));
	le32(rec + 4, (uint32_t)(t_ps % 1000000000000LL / 1000));
	le32(rec + 8, (uint32_t)cap);
	le32(rec + 12, (uint32_t)len);
	if (fwrite(rec, sizeof(rec), 1, fp) != 1 ||
	    fwrite(buf, cap, 1, fp) != 1)
		return -1;
	return (int)len;
}
