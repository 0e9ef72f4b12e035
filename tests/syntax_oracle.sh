#!/usr/bin/env bash
# syntax_oracle.sh - JF301 agrees with bash and Python on every fixture
#
#   syntax_oracle.sh FIXTURES
#
# A JF301 "does not parse" must be true: for every JF301 a fixture expects
# (expected.json) on a .py or shell file, `python3 -m py_compile` or `bash -n`
# rejects that file too, and reports the same line. Every Python and shell
# file of a silent-* case of JF301 is accepted by them (a file whose #! line
# names another shell is that shell's business: skipped unless it is
# installed). Needs bash and python3 (tools/dev.sh installs them).
set -u
fixtures=$1
command -v python3 >/dev/null || { echo "syntax_oracle: python3 not found (tools/dev.sh installs it)"; exit 1; }
bad=0
checked=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# oracle FILE: prints the line of the first syntax error the language's own
# parser reports, or nothing when the file parses.
oracle() {
	local f=$1 out
	case $f in
	*.py)
		out=$(PYTHONPYCACHEPREFIX=$tmp/pycache python3 -m py_compile "$f" 2>&1) && return
		# File "x.py", line N  /  SyntaxError: ... (x.py, line N)
		grep -o 'line [0-9]*' <<<"$out" | head -1 | cut -d' ' -f2
		;;
	*)
		local shell=bash
		local first
		first=$(head -1 "$f")
		if [[ $first == '#!'* && $first != *bash* && $first != *'/sh'* && $first != *' sh'* ]]; then
			shell=$(basename "${first#\#!}" | awk '{print $NF}')
			command -v "$shell" >/dev/null || { echo skip; return; }
		fi
		out=$("$shell" -n "$f" 2>&1) && return
		grep -o 'line [0-9]*' <<<"$out" | head -1 | cut -d' ' -f2
		;;
	esac
}

# JF301s the fixtures expect: file and line, as "case<TAB>file<TAB>line<TAB>message".
while IFS=$'\t' read -r case file line message; do
	[[ $message == *"NUL bytes"* || $message == *UTF-8* ]] && continue # not a grammar matter
	[[ $file == *.py || $file == *.sh || $file == *.sbatch || $file == *.slurm ]] || continue
	checked=$((checked + 1))
	got=$(cd "$case" && oracle "$file")
	if [[ -z $got ]]; then
		echo "syntax_oracle: $case/$file:$line: JF301 ($message), but the language's own parser accepts the file"
		bad=1
	elif [[ $got != skip && $got != "$line" ]]; then
		echo "syntax_oracle: $case/$file:$line: JF301 ($message), but the language's own parser reports line $got"
		bad=1
	fi
done < <(find "$fixtures" -name expected.json -print0 | xargs -0 python3 -c '
import json, os, sys
for path in sys.argv[1:]:
    case = os.path.dirname(path)
    with open(path) as f:
        report = json.load(f)
    for d in report.get("diagnostics", []):
        if d["rule"] == "JF301":
            print(case, d["file"], d["line"], d["message"], sep="\t")
')

# The silent cases: every Python and shell file parses.
for case in "$fixtures"/JF301/silent-*/; do
	while IFS= read -r -d '' f; do
		checked=$((checked + 1))
		got=$(oracle "$f")
		if [[ -n $got && $got != skip ]]; then
			echo "syntax_oracle: $f: a silent case, but the language's own parser rejects line $got"
			bad=1
		fi
	done < <(find "$case" -type f \( -name '*.py' -o -name '*.sh' \) -print0)
done

((checked >= 10)) || { echo "syntax_oracle: only $checked files checked"; bad=1; }
exit $bad
