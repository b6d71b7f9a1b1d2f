#!/bin/sh
# make install puts the binary, data, man page and bash completion under
# PREFIX; the man page renders without warnings and names every object
# of `pccbench help`; the bash completion completes options, objects and
# verbs from the program itself.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

make -C "$top" --no-print-directory -s -o all install PREFIX="$tmp/usr" \
	BIN="$BIN" >/dev/null || { echo "install: make install failed"; exit 1; }
for f in bin/pccbench share/man/man1/pccbench.1 \
	share/bash-completion/completions/pccbench \
	share/pccbench/reg/ppcc.adb share/pccbench/algos/ztr_rtt/algo.xml \
	share/pccbench/plots/timeline.gp share/pccbench/plots/hist.gp; do
	[ -f "$tmp/usr/$f" ] || { echo "install: $f missing"; fail=1; }
done
# the installed binary finds its data files
check "installed runs" 0 "$("$tmp/usr/bin/pccbench" -d sim:i -j algo list >/dev/null 2>&1; echo $?)"

warn=$(groff -man -ww -z "$top/src/pccbench.1" 2>&1)
check "man warnings" "" "$warn"
for o in $("$BIN" help | awk 'NR > 1 { print $1 }'); do
	grep -q "^\.BR\{0,1\} \(.* \)\{0,1\}$o\b" "$top/src/pccbench.1" ||
		{ echo "install: man page lacks '$o'"; fail=1; }
done

comp() {	# comp WORDS...: what the completion offers for the last word
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_pccbench
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "
	' comp "$top/scripts/pccbench.bash-completion" "$@"
}
PATH="$(dirname "$BIN"):$PATH"
export PATH
prog=$(basename "$BIN")
check "objects" "dev diag " "$(comp "$prog" d)"
check "verbs" "start stop " "$(comp "$prog" -j diag st)"
check "verbs after -d DEV" "show " "$(comp "$prog" -d sim diag sh)"
check "options" "--backend " "$(comp "$prog" --back)"
check "backend" "mstreg " "$(comp "$prog" --backend m)"
check "objects: export" "export " "$(comp "$prog" exp)"
# every option of --help and of main.c's table is offered, and the
# values of --telemetry (issue 35.8)
want=$( { "$BIN" --help 2>&1 | grep -o -e '--[a-z-]*' -e '^  -[a-zA-Z]'
	sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", [a-z_]*_argument.*/--\1/p' "$top/src/main.c"; } |
	tr -d ' ' | sort -u | tr '\n' ' ')
got=$(comp "$prog" -)
for o in $want; do
	case " $got " in *" $o "*) ;; *) echo "install: completion lacks $o"; fail=1 ;; esac
done
check "telemetry values" "doca native none " "$(comp "$prog" --telemetry '')"
check "after --telemetry VALUE, objects" "dev diag " "$(comp "$prog" --telemetry none d)"
# the man page: every variable the program reads under ENVIRONMENT, and
# the exit codes of a run stopped by a signal
envs=$(cd "$top" && { grep -rho 'getenv("[A-Z_]*")' src reg; grep -rho '"XDG_[A-Z_]*_HOME"' reg; } |
	grep -o '[A-Z_]*[A-Z]' | sort -u)
man_env=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$top/src/pccbench.1")
for e in $envs; do
	echo "$man_env" | grep -q "\b$e\b" || { echo "install: man ENVIRONMENT lacks $e"; fail=1; }
done
check "man: some variables" "yes" "$([ "$(echo "$envs" | wc -w)" -ge 12 ] && echo yes)"
sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$top/src/pccbench.1" | grep -q '^\.BR 130 ", " 143' ||
	{ echo "install: man EXIT STATUS lacks 130/143"; fail=1; }

# make uninstall takes back all of it, and nothing else
touch "$tmp/usr/bin/other"
make -C "$top" --no-print-directory -s uninstall PREFIX="$tmp/usr" >/dev/null ||
	{ echo "install: make uninstall failed"; fail=1; }
check "left after uninstall" "bin/other" \
	"$(cd "$tmp/usr" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')"
exit $fail
