#!/bin/sh
# sweep never writes through, or reads from, what somebody planted in a
# sweep's directory: links at results.csv(.tmp), meta.json, plot.dat and
# plot.gp are replaced (the files they point to are unchanged); a link or
# a FIFO at sweep.args or results.csv, or a link in place of the sweep's
# directory, is refused with one line and no wait; sweep directories are
# private (0700).
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
dir="$tmp/data/pccbench/sweeps"
S="-d sim:links"
T="timeout -k 5 20"	# a hang fails the test (124) instead of holding it

# one_line NAME EXPECTED-RC WORD COMMAND: the exit code, one line on
# stderr saying WORD
one_line() {
	$T "$BIN" $S -c "$4" >"$tmp/out" 2>"$tmp/err"
	check "$1: exit" "$2" $?
	check "$1: one line" 1 "$(grep -c '' "$tmp/err")"
	grep -q "$3" "$tmp/err" || { echo "sweep_links: $1: $(cat "$tmp/err")"; fail=1; }
}
# untouched NAME FILE: FILE still holds what it was made with
untouched() {
	check "$1: outside file" "precious" "$(cat "$2")"
}
# replaced NAME PATH: PATH is now a regular file of ours, not a link
replaced() {
	[ -f "$2" ] && [ ! -L "$2" ] ||
		{ echo "sweep_links: $1: $2 is not a regular file"; fail=1; }
}

"$BIN" $S -c 'sweep ALPHA 0.1,0.2 for 1ms into s1 scenario incast senders 2' >/dev/null
check "sweep exit" 0 $?
check "sweeps dir private" 700 "$(stat -c %a "$dir")"
check "sweep dir private" 700 "$(stat -c %a "$dir/s1")"

# ---- resume: the rewritten files replace the links planted there
cp -r "$dir/s1" "$dir/rs"
sed -i '/^1,/d' "$dir/rs/results.csv"
for f in out1 out2; do echo precious >"$tmp/$f"; done
ln -s "$tmp/out1" "$dir/rs/results.csv.tmp"
ln -sf "$tmp/out2" "$dir/rs/meta.json"
$T "$BIN" $S -c 'sweep resume rs' >/dev/null 2>"$tmp/err"
check "resume exit" 0 $?
untouched "results.csv.tmp" "$tmp/out1"
untouched "meta.json" "$tmp/out2"
replaced "results.csv" "$dir/rs/results.csv"
replaced "meta.json" "$dir/rs/meta.json"
check "resumed rows" 3 "$(grep -c '' "$dir/rs/results.csv")"
# a link at results.csv itself: refused before anything runs
sed -i '/^1,/d' "$dir/rs/results.csv"
mv "$dir/rs/results.csv" "$tmp/out3"
ln -s "$tmp/out3" "$dir/rs/results.csv"
one_line "resume, results.csv a link" 1 "symbolic link" 'sweep resume rs'
check "results.csv link: target" 2 "$(grep -c '' "$tmp/out3")"

# ---- plot: plot.dat and plot.gp are written fresh
echo precious >"$tmp/out4"
echo precious >"$tmp/out5"
ln -s "$tmp/out4" "$dir/s1/plot.dat"
ln -s "$tmp/out5" "$dir/s1/plot.gp"
$T "$BIN" $S -c "sweep plot s1 to $tmp/p.svg" >/dev/null 2>"$tmp/err"
check "plot exit" 0 $?
untouched "plot.dat" "$tmp/out4"
untouched "plot.gp" "$tmp/out5"
replaced "plot.dat" "$dir/s1/plot.dat"
replaced "plot.gp" "$dir/s1/plot.gp"
grep -q '<svg' "$tmp/p.svg" || { echo "sweep_links: no plot"; fail=1; }

# ---- reads: a link or a FIFO is refused, quickly, with one line
cp -r "$dir/s1" "$dir/la"
mv "$dir/la/sweep.args" "$tmp/args"
ln -s "$tmp/args" "$dir/la/sweep.args"
for verb in show plot resume; do
	one_line "sweep.args a link: $verb" 1 "symbolic link" "sweep $verb la"
done
cp -r "$dir/s1" "$dir/lr"
mv "$dir/lr/results.csv" "$tmp/res"
ln -s "$tmp/res" "$dir/lr/results.csv"
one_line "results.csv a link: show" 1 "symbolic link" 'sweep show lr'
cp -r "$dir/s1" "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$dir/ld"
one_line "sweep dir a link: show" 1 "not a directory" 'sweep show ld'
one_line "sweep dir a link: resume" 1 "not a directory" 'sweep resume ld'
cp -r "$dir/s1" "$dir/ff"
rm "$dir/ff/sweep.args"
mkfifo "$dir/ff/sweep.args"
for verb in show plot resume; do
	one_line "sweep.args a FIFO: $verb" 1 "not a regular file" "sweep $verb ff"
done
cp -r "$dir/s1" "$dir/fr"
rm "$dir/fr/results.csv"
mkfifo "$dir/fr/results.csv"
for verb in show plot resume; do
	one_line "results.csv a FIFO: $verb" 1 "not a regular file" "sweep $verb fr"
done
# list: the good sweep listed, one warning per bad one, no wait (a link
# in place of a sweep's directory is not a sweep: not listed)
$T "$BIN" $S -j -c 'sweep list' >"$tmp/list" 2>"$tmp/err"
check "list exit" 0 $?
check "list" "s1" "$(grep -o '"name":"[a-z0-9]*"' "$tmp/list" | cut -d'"' -f4 | tr '\n' ' ' | sed 's/ $//')"
for bad in rs la lr ff fr; do
	grep -q "^warning: .*$bad" "$tmp/err" ||
		{ echo "sweep_links: list does not warn about $bad: $(cat "$tmp/err")"; fail=1; }
done
check "list warnings" 5 "$(grep -c '' "$tmp/err")"
exit $fail
