#!/bin/sh
# Issue 34 item 6, start-up: libmicrohttpd and libnlopt (and gnutls,
# nettle, p11-kit, ... that they bring) are not linked: a command that
# does not use them never loads them, `serve metrics` and `tune` open
# them when they run (src/util/lazylib.c; test_lazylib covers a missing
# library).  The dynamic loader's own trace (LD_DEBUG=files) says what a
# process loaded.  (libstdc++ still comes, with libxml2's ICU.)
. "$(dirname "$0")/lib.inc"
needed=$(readelf -d "$BIN" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
case $needed in
*microhttpd* | *nlopt*) echo "lazylib: linked: $needed"; fail=1 ;;
esac
loaded() {	# command... -> the libraries its process initialised
	LD_DEBUG=files "$@" 2>&1 >/dev/null |
		sed -n 's|.*calling init: .*/\(lib[^/]*\.so[.0-9]*\)$|\1|p' |
		sort -u | tr '\n' ' '
}
l=$(loaded "$BIN" -d sim:l -c 'sim scenario incast senders 2; sim run 1us')
case $l in
*libc.so*) ;;
*) echo "lazylib: no trace of the loader: [$l]"; fail=1 ;;
esac
for lib in libmicrohttpd libnlopt libgnutls libnettle libp11-kit; do
	case $l in
	*"$lib".so*) echo "lazylib: sim run loaded $lib: $l"; fail=1 ;;
	esac
done
# serve metrics opens libmicrohttpd before it reads its words
l=$(loaded "$BIN" serve metrics 1.2.3.4.5:80)
case $l in
*libmicrohttpd.so*) ;;
*) echo "lazylib: serve metrics did not load libmicrohttpd: $l"; fail=1 ;;
esac
out=$("$BIN" serve metrics 1.2.3.4.5:80 2>&1)
check "serve metrics: one line" 1 "$(printf '%s\n' "$out" | wc -l)"
exit $fail
