# pcap-check.awk - an independent reader of the simulator's captures for the
# e2e tests: reads `od -An -v -tu1 FILE` (decimal bytes) and checks the
# classic pcap header (nanosecond magic, Ethernet), every record's
# lengths, and in every frame: IPv4 (header checksum, lengths, UDP to
# 4791, BTH opcode, ECN bits) or PFC (01:80:c2:00:00:01, 0x8808, opcode
# 0x0101, class-enable vector, pause times).  Prints "bad: WHY" for each
# fault, then counts as KEY VALUE lines; -v hosts=N counts the frames
# whose source MAC is a port index below N (the hosts' ports), -v to=N
# the data frames sent to port N (its MAC) and -v snap=N is the snaplen.
{ for (i = 1; i <= NF; i++) b[n++] = $i + 0 }
function u16(o) { return b[o] * 256 + b[o + 1] }
function le32(o) { return b[o] + b[o + 1] * 256 + b[o + 2] * 65536 + b[o + 3] * 16777216 }
function bad(why) { print "bad: " why " (frame " frames ")"; nbad++ }
END {
	if (le32(0) != 2712812621) bad("magic " le32(0))
	if (le32(16) != snap) bad("snaplen " le32(16))
	if (le32(20) != 1) bad("linktype " le32(20))
	o = 24
	while (o < n) {
		frames++
		cap = le32(o + 8); len = le32(o + 12); f = o + 16
		if (cap != (len < snap ? len : snap)) bad("caplen " cap " of " len)
		if (f + cap > n) { bad("truncated file"); break }
		# source MAC 02:00 and the port index: a host's below hosts
		if (b[f + 6] == 2 && b[f + 7] == 0 && b[f + 8] == 0 && b[f + 9] == 0 &&
		    b[f + 10] * 256 + b[f + 11] < hosts)
			from_host++
		et = u16(f + 12)
		if (et == 2048) {
			ip = f + 14
			if (b[ip] != 69) bad("ip version/ihl")
			s = 0
			for (i = 0; i < 20; i += 2) s += u16(ip + i)
			while (s > 65535) s = int(s / 65536) + s % 65536
			if (s != 65535) bad("ip checksum")
			else csum_ok++
			tot = u16(ip + 2)
			if (tot + 14 != len && !(len == 60 && tot + 14 < 60))
				bad("ip length " tot " frame " len)
			if (b[ip + 9] != 17 || u16(ip + 22) != 4791) bad("not udp 4791")
			if (u16(ip + 24) != tot - 20) bad("udp length")
			op = b[ip + 28]
			ecn = b[ip + 1] % 4
			dst = -1
			if (b[f] == 2 && b[f + 1] == 0 && b[f + 2] == 0 && b[f + 3] == 0)
				dst = b[f + 4] * 256 + b[f + 5]
			opc[op]++
			if (ecn == 3) ce++
			if (op < 16 && ecn == 0) bad("data without ECT")
			if (op >= 16 && op < 192 && ecn != 0) bad("control with ECN")
			if (op == 129 && int(b[ip + 32] / 64) % 2 != 1) bad("CNP without BECN")
			if (op == 17) { if (b[ip + 40] == 96) nak++; else if (b[ip + 40] == 31) ack++; else bad("syndrome") }
			if (to != "" && dst == to + 0 && (op < 16 || op == 192)) { to_data++; if (ecn == 3) to_ce++ }
		} else if (et == 34824) {
			if (len != 60) bad("pfc length")
			if (b[f] != 1 || b[f + 1] != 128 || b[f + 2] != 194 || b[f + 5] != 1) bad("pfc dst")
			if (u16(f + 14) != 257 || u16(f + 16) != 8) bad("pfc opcode/vector")
			q = u16(f + 18 + 6)
			for (i = 0; i < 8; i++) if (i != 3 && u16(f + 18 + 2 * i)) bad("pfc other prio")
			if (q == 65535) pause++; else if (q == 0) resume++; else bad("pfc time " q)
		} else bad("ethertype " et)
		o = f + cap
	}
	print "frames", frames + 0; print "bad", nbad + 0
	print "csum_ok", csum_ok + 0; print "from_host", from_host + 0
	print "pause", pause + 0; print "resume", resume + 0
	print "ce", ce + 0; print "ack", ack + 0; print "nak", nak + 0
	print "cnp", opc[129] + 0; print "to_data", to_data + 0; print "to_ce", to_ce + 0
	for (k in opc) print "op" k, opc[k]
}
