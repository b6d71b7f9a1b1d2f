#!/bin/sh
# A command's words are said once, in its keyword table (struct cmd_kw,
# src/util/keywords.h): the parser takes them through it, never compares
# one again (strcmp/strcasecmp with the word as a literal), and usage,
# help and completion are made from the same table.  Checked over src/:
#   1. no file that uses a table compares one of its words as a literal
#      (statements joined across lines, so a call split over two lines
#      counts too);
#   2. every table is read by a parser (cmd_kw_parse, cmd_kw_find or
#      cmd_kw_take, directly or through the variable it is passed in) and
#      offered by completion or printed by usage (a row's .keys,
#      cand_keywords, cand_kw_names, cmd_kw_synopsis, cmd_kw_names);
#   3. the check finds a planted comparison.
. "$(dirname "$0")/lib.inc"
cd "$top" || exit 1
files=$(ls src/*.c src/*/*.c src/*/*.h)
# TABLE FILE WORD for every row of every table
tables() {
	for f in "$@"; do
		awk -v f="$f" '
		/struct cmd_kw [a-z_0-9]+\[\] = \{/ {
			t = $0; sub(/\[\].*/, "", t); sub(/.* /, "", t)
			in_t = 1; next }
		in_t && /^};/ { in_t = 0 }
		in_t {
			line = $0
			while (match(line,
			    /(\.name = |MX_KW_[A-Z]+\()"[^"]*"/)) {
				w = substr(line, RSTART, RLENGTH)
				sub(/^[^"]*"/, "", w); sub(/"$/, "", w)
				print t, f, w
				line = substr(line, RSTART + RLENGTH)
			}
		}' "$f"
	done
}
# the literals a file compares with strcmp/strcasecmp/strncmp, one a line
literals() {
	tr '\n' ' ' <"$1" | grep -o 'str[a-z]*cmp *([^;{]*' |
		grep -o '"[^"]*"' | tr -d '"' | sort -u
}
# 1. FILE: WORD of TABLE, for each file naming a table it compares a word of
violations() {
	tables $files >"$tmp/words"
	for f in $files; do
		literals "$f" >"$tmp/lit"
		[ -s "$tmp/lit" ] || continue
		awk '{ print $1 }' "$tmp/words" | sort -u | while read -r t; do
			grep -qw "$t" "$f" || continue
			awk -v t="$t" '$1 == t { print $3 }' "$tmp/words" |
				sort -u | grep -Fxf - "$tmp/lit" |
				sed "s|^|$f: '|; s|\$|' of $t|"
		done
	done
}
tables $files >"$tmp/all"
[ "$(wc -l <"$tmp/all")" -gt 100 ] ||
	{ echo "keywords: only $(wc -l <"$tmp/all") table words"; fail=1; }
check "no table's word compared again" "" "$(violations)"
# 2. read by a parser and by usage or completion
unread=""
for t in $(awk '{ print $1 }' "$tmp/all" | sort -u); do
	# its statements, each on one line
	uses=$(for f in $files; do tr '\n' ' ' <"$f" | tr ';{}' '\n\n\n'; done |
		grep -w "$t" | grep -v "struct cmd_kw $t\[\]")
	# a table handed to a function (mx_parse_opts), chosen by a ?: or
	# assigned to a variable is read where that is
	pick="\\? *$t *:|: *$t *([;)]|\$)"
	parse="(cmd_kw_parse|cmd_kw_find|cmd_kw_take)\\([^;]*\\b$t\\b"
	echo "$uses" | grep -Eq "$parse|mx_parse_opts\\(|$pick|= *$t *(;|\$)" ||
		unread="$unread $t(parser)"
	show="cand_keywords|cand_kw_names|cmd_kw_synopsis|cmd_kw_names"
	echo "$uses" |
		grep -Eq "\\.keys = $t|for \\(k = $t|($show)\\([^;]*\\b$t\\b|$pick" ||
		unread="$unread $t(usage/completion)"
done
check "every table read by its parser and its usage or completion" "" \
	"$unread"
# 3. the check can fail: a copy of record.c comparing "replace" again
mkdir -p "$tmp/src/cmd"
cp src/cmd/record.c "$tmp/src/cmd/record.c"
printf 'static int x(const char *w)\n{\n\treturn !strcmp(w,\n\t\t%s);\n}\n' \
	'"replace"' >>"$tmp/src/cmd/record.c"
planted=$(cd "$tmp" && files=src/cmd/record.c && violations)
check "a planted comparison is found" \
	"src/cmd/record.c: 'replace' of cmd_record_keys" "$planted"
exit $fail
