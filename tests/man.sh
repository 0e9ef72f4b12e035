#!/usr/bin/env bash
# man.sh - the man page jobfix(1) is built, renders without warnings, and covers the command line
#
# usage: man.sh JOBFIX MAN_PAGE
set -u
jobfix=$1
page=$2
# shellcheck source=tests/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"

check "the man page is built and not empty" test -s "$page"
version=$("$jobfix" --version | awk '{ print $2 }')
check "the title names jobfix(1) and version $version" \
	grep -qx ".TH JOBFIX 1 \"\" \"jobfix $version\" \"User Commands\"" "$page"

# Render it as man does, and with groff's warnings all on; neither may complain.
rendered=no
if command -v man >/dev/null 2>&1; then
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err"
	check "man -l renders it" test $? -eq 0 -a -s "$tmp/man.txt"
	check "man -l: no warnings ($(head -c 300 "$tmp/man.err"))" test ! -s "$tmp/man.err"
	rendered=yes
fi
if command -v groff >/dev/null 2>&1; then
	groff -man -ww -z "$page" 2>"$tmp/groff.err"
	check "groff -ww: no warnings ($(head -c 300 "$tmp/groff.err"))" test ! -s "$tmp/groff.err"
	groff -man -Tascii -P-c -P-b -P-u "$page" >"$tmp/page.txt" 2>/dev/null
	check "groff renders it as text" test -s "$tmp/page.txt"
	rendered=yes
	# What the page says.
	for section in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" FILES EXAMPLES \
		"SEE ALSO"; do
		check "section $section" grep -qx "$section" "$tmp/page.txt"
	done
	# Every subcommand of `jobfix --help` is in the synopsis and has its entry.
	while read -r cmd; do
		check "synopsis has 'jobfix $cmd'" grep -Eq "^ +jobfix $cmd( |$)" "$tmp/page.txt"
	done < <("$jobfix" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
	# Every long option of every subcommand's --help is documented.
	for cmd in $("$jobfix" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'); do
		for opt in $("$jobfix" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
			check "option $opt of $cmd is documented" grep -q -- "$opt" "$tmp/page.txt"
		done
	done
	sed -n '/^EXIT STATUS$/,/^[A-Z]/p' "$tmp/page.txt" >"$tmp/exit.txt"
	for status in 0 1 2; do
		check "exit status $status" grep -Eq "^ +$status +[A-Za-z]" "$tmp/exit.txt"
	done
fi
[[ $rendered == yes ]] || echo "note: neither man nor groff is installed: the page was not rendered"

finish
