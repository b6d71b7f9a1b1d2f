/* pcap.h - frames for a packet capture of the simulated fabric, in the
 * classic pcap format (nanosecond timestamps, LINKTYPE_ETHERNET), which
 * Wireshark and tshark open.
 *
 * The simulator moves packet descriptors, not bytes; these functions
 * write the frames those descriptors stand for: RoCEv2 (Ethernet, IPv4,
 * UDP to port 4791, the InfiniBand BTH, payload, ICRC) and PFC
 * (IEEE 802.1Qbb: MAC control 0x8808, opcode 0x0101).  What is not
 * modelled is written as zeros: the payload bytes.  The ICRC is that of
 * the frame as written (zeros for payload), computed when the snap length
 * keeps it; the frames carry no FCS, as captures on a host do.
 *
 * Ownership: none; the FILE is the caller's.
 */
#ifndef PCCB_SIM_PCAP_H
#define PCCB_SIM_PCAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PCAP_SNAPLEN_MIN 64
#define PCAP_SNAPLEN_MAX 65535
#define PCAP_FRAME_MAX (9216 + 128)	/* an MTU of 9 KB and headers */

/* BTH opcodes (IBA vol. 1, 9.2) */
#define BTH_SEND_FIRST	0x00
#define BTH_SEND_MIDDLE	0x01
#define BTH_SEND_LAST	0x02
#define BTH_SEND_ONLY	0x04
#define BTH_ACK		0x11	/* RC Acknowledge: BTH + AETH */
#define BTH_CNP		0x81	/* RoCEv2 CNP (annex A17) */
/* [reconstructed] the RTT probe and its answer: NVIDIA's RTT request
 * format is not public; opcodes from the manufacturer-specific range */
#define BTH_PROBE	0xc0
#define BTH_PROBE_RESP	0xc1

/* AETH syndromes */
#define AETH_ACK	0x1f	/* ACK, credit count invalid (no credits) */
#define AETH_NAK_PSN	0x60	/* NAK: PSN sequence error */

struct pcap_frame {
	bool pfc;
	uint8_t dst_mac[6], src_mac[6];
	/* RoCEv2 */
	uint32_t src_ip, dst_ip;
	uint8_t dscp, ecn;		/* ecn: the IP header's two bits */
	uint16_t sport;
	uint8_t opcode;
	bool becn, ackreq;
	uint32_t dqp, psn;		/* 24 bits each */
	bool aeth;
	uint8_t syndrome;
	uint32_t msn;
	uint32_t payload;		/* bytes after BTH (and AETH) */
	/* PFC: the priorities in the class-enable vector, and their pause
	 * times in quanta (512 bit times) */
	uint8_t prio_mask;
	uint16_t quanta[8];
};

/* The file header; -1 with errno on a write error. */
int pcap_write_header(FILE *fp, uint32_t snaplen);
/* One record at t_ps of simulated time, cut to snaplen; buf holds
 * PCAP_FRAME_MAX bytes of scratch.  Frame length, or -1 (write error,
 * or a frame over PCAP_FRAME_MAX).
 */
int pcap_write_frame(FILE *fp, int64_t t_ps, const struct pcap_frame *f,
		     uint32_t snaplen, uint8_t *buf);
/* The IPv4 header checksum (RFC 1071) of len bytes. */
uint16_t pcap_ip_csum(const uint8_t *h, size_t len);

#endif
