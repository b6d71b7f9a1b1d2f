# icrc-frames.awk - from `od -An -v -tu1` of a pcap (little-endian, as
# pccbench writes it), the first `max` RoCEv2 frames kept whole: per frame
# one line "OPCODE ICRC0 ICRC1 ICRC2 ICRC3 FMT", FMT being printf(1) octal
# escapes of the bytes RoCEv2's invariant CRC covers (8 bytes of ones, the
# IP and UDP headers and the BTH with their variant fields as ones, then
# the rest up to the ICRC).  The CRC itself is left to another program
# (gzip's trailer in sim2_trace.sh), so this reader computes nothing the
# writer computes.
{ for (i = 1; i <= NF; i++) b[n++] = $i + 0 }
function le32(o) { return b[o] + 256 * (b[o + 1] + 256 * (b[o + 2] + 256 * b[o + 3])) }
END {
	o = 24
	while (o + 16 <= n && out < max) {
		incl = le32(o + 8); orig = le32(o + 12); f = o + 16; o = f + incl
		if (incl != orig || b[f + 12] != 8 || b[f + 13] != 0) continue
		ip = f + 14
		if (b[ip + 9] != 17 || b[ip + 22] * 256 + b[ip + 23] != 4791) continue
		tot = b[ip + 2] * 256 + b[ip + 3]
		s = "\\377\\377\\377\\377\\377\\377\\377\\377"
		for (i = 0; i < tot - 4; i++) {
			v = b[ip + i]
			if (i == 1 || i == 8 || i == 10 || i == 11 || i == 26 ||
			    i == 27 || i == 32)
				v = 255
			s = s sprintf("\\%03o", v)
		}
		e = ip + tot - 4
		print b[ip + 28], b[e], b[e + 1], b[e + 2], b[e + 3], s
		out++
	}
}
