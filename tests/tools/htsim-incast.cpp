// htsim-incast.cpp - an N:1 DCTCP incast on htsim (github.com/Broadcom/
// csg-htsim), the speed anchor of `make bench` (tests/tools/bench-htsim.sh
// builds it against an htsim tree given in HTSIM_DIR).  Not part of
// pccbench: htsim is C++ and not a dependency.
//
// The case is pccbench's incast: N senders, each on its own host link at
// RATE into one switch whose egress to the receiver is the bottleneck, 1 us
// per link, packets of MTU + 64 bytes on the wire, ECN marking above K.
// Senders run DCTCP, htsim's own (long-lived flows); ACKs return over a
// delay line of two links (htsim's dumbbells do the same).
//
// usage: htsim-incast N RATE_GBPS MTU SIM_MS [BUFFER_BYTES [K_BYTES]]
// prints bottleneck_pkts=N, the data packets acknowledged (each crossed
// the bottleneck once); the caller measures the CPU time.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "config.h"
#include "dctcp.h"
#include "ecnqueue.h"
#include "eventlist.h"
#include "network.h"
#include "pipe.h"
#include "queue.h"
#include "tcp.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        std::cerr << "usage: htsim-incast N RATE_GBPS MTU SIM_MS "
                     "[BUFFER_BYTES [K_BYTES]]\n";
        return 1;
    }
    int n = atoi(argv[1]);
    double gbps = atof(argv[2]);
    int wire = atoi(argv[3]) + 64;
    double ms = atof(argv[4]);
    mem_b buffer = argc > 5 ? atoll(argv[5]) : 32LL << 20;
    mem_b k = argc > 6 ? atoll(argv[6]) : 100 * 1024;
    if (n < 1 || gbps <= 0 || wire <= 64 || ms <= 0)
        return 1;

    EventList &ev = EventList::getTheEventList();
    ev.setEndtime(timeFromMs(ms));
    Packet::set_packet_size(wire);
    linkspeed_bps rate = speedFromGbps(gbps);
    simtime_picosec link = timeFromUs(1.0);

    ECNQueue bottleneck(rate, buffer, ev, NULL, k);
    Pipe down(link, ev);
    TcpRtxTimerScanner scanner(timeFromMs(1), ev);
    std::vector<DCTCPSrc *> srcs;

    for (int i = 0; i < n; i++) {
        DCTCPSrc *src = new DCTCPSrc(NULL, NULL, ev);
        TcpSink *snk = new TcpSink();
        Queue *nic = new Queue(rate, buffer, ev, NULL);
        Pipe *up = new Pipe(link, ev);
        Pipe *back = new Pipe(2 * link, ev);
        route_t *out = new route_t();
        route_t *in = new route_t();

        out->push_back(nic);
        out->push_back(up);
        out->push_back(&bottleneck);
        out->push_back(&down);
        out->push_back(snk);
        in->push_back(back);
        in->push_back(src);
        scanner.registerTcp(*src);
        src->connect(*out, *in, *snk, 0);
        srcs.push_back(src);
    }
    while (ev.doNextEvent()) {
    }
    uint64_t bytes = 0;
    for (DCTCPSrc *s : srcs)
        bytes += s->_last_acked;
    // acknowledged data packets: each crossed the bottleneck once
    printf("bottleneck_pkts=%llu\n",
           (unsigned long long)(bytes / (uint64_t)wire));
    return 0;
}
