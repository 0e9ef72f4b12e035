#!/usr/bin/env bash
# docs_examples.sh - the example of every rule fires, with exactly the output its text shows
#
# usage: docs_examples.sh JOBFIX
#
# In the "## Example" section of `jobfix explain --format markdown ID`, a line
# `path`: followed by a fenced block is a file of the example job; a
# ```console block whose first line is `$ jobfix ...` is run in the folder of
# those files and its stdout must be the rest of the block (but for blank
# lines at the end), with findings of rule ID only. A caption `path` (CRLF
# line endings): writes the file with CR LF line ends.
set -u
jobfix=$1
# shellcheck source=tests/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# Rules whose example cannot be a short snippet.
no_runnable_example=" JF005 " # needs a file over 8 MiB

# extract PAGE DIR: the example's files into DIR, its console blocks into DIR/.console-N
extract() {
	awk -v dir="$2" '
		/^## / { in_ex = ($0 == "## Example"); next }
		!in_ex { next }
		fence && /^```/ { fence = 0; if (out != "") close(out); out = ""; next }
		fence { if (out != "") printf "%s%s\n", $0, (crlf ? "\r" : "") > out; next }
		/^`[A-Za-z0-9_.\/-]+`( \(CRLF line endings\))?:$/ {
			crlf = ($0 ~ /CRLF/)
			caption = substr($0, 2, index(substr($0, 2), "`") - 1)
			if (caption ~ /(^|\/)\.\.(\/|$)/ || caption ~ /^\//) {
				print "bad file name: " caption > "/dev/stderr"; bad = 1; caption = ""
			}
			next
		}
		/^```/ {
			fence = 1; info = substr($0, 4); out = ""
			if (caption != "") {
				out = dir "/" caption
				if (sub(/\/[^\/]*$/, "", caption)) system("mkdir -p \"" dir "/" caption "\"")
			} else if (info == "console") {
				out = dir "/.console-" ++n
			}
			if (out == "" || info == "console") crlf = 0
			caption = ""
			next
		}
		/[^ \t]/ { caption = ""; crlf = 0 }
		END { exit bad }
	' "$1"
}

for id in $("$jobfix" rules --no-config | awk 'NR > 1 { print $1 }'); do
	dir=$tmp/$id
	mkdir -p "$dir"
	"$jobfix" explain --format markdown "$id" >"$tmp/$id.md"
	extract "$tmp/$id.md" "$dir"
	check "$id: the example's file names are plain relative paths" test $? -eq 0
	consoles=("$dir"/.console-*)
	if [[ $no_runnable_example == *" $id "* ]]; then
		check "$id: listed as without a runnable example, and has none" test ! -e "${consoles[0]}"
		continue
	fi
	check "$id: the example has a \`\`\`console block" test -e "${consoles[0]}"
	[[ -e ${consoles[0]} ]] || continue
	for console in "${consoles[@]}"; do
		cmdline=$(head -n 1 "$console")
		if [[ $cmdline != '$ jobfix '* ]]; then
			check "$id: console block starts with '\$ jobfix ...' ($cmdline)" false
			continue
		fi
		tail -n +2 "$console" >"$tmp/expected"
		# shellcheck disable=SC2086 # the words of the command line, as a shell splits them
		(cd "$dir" && set -f && "$jobfix" ${cmdline#'$ jobfix '}) >"$tmp/actual" 2>/dev/null
		# The text format ends each finding with a blank line, which a code block
		# cannot: blank lines at the end do not count.
		diff -u <(printf '%s\n' "$(cat "$tmp/expected")") <(printf '%s\n' "$(cat "$tmp/actual")") \
			>"$tmp/diff"
		check "$id: '${cmdline#'$ '}' prints what the example shows" test $? -eq 0
		[[ -s $tmp/diff ]] && cat "$tmp/diff"
		findings=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: (error|warning|note): ' "$tmp/actual")
		check "$id: the example fires $id" grep -q "\[$id " <<<"$findings"
		check "$id: the example fires no other rule" test -z "$(grep -v "\[$id " <<<"$findings")"
	done
done

finish
