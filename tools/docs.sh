#!/usr/bin/env bash
# docs.sh - write the rule docs from the jobfix binary: DOCS/rules.md and DOCS/rules/<id>-<name>.md
#
#   tools/docs.sh JOBFIX DOCS
#
# The text comes from rules/<id>.md and the rule table, both compiled into
# JOBFIX: `jobfix rules --format markdown` is the index, `jobfix explain
# --format markdown ID` each page. Pages of rules that no longer exist are
# removed. `tools/dev.sh docs` (or `cmake --build build --target docs`) runs
# this on docs/; tests/docs_rules.sh checks the committed files are its output.
set -euo pipefail
jobfix=$1
docs=$2
mkdir -p "$docs/rules"
"$jobfix" rules --format markdown >"$docs/rules.md.tmp"
mv "$docs/rules.md.tmp" "$docs/rules.md"
keep=()
while read -r id name; do
	page=$id-$name.md
	keep+=("$page")
	"$jobfix" explain --format markdown "$id" >"$docs/rules/$page.tmp"
	mv "$docs/rules/$page.tmp" "$docs/rules/$page"
done < <("$jobfix" rules --no-config | awk 'NR > 1 { print $1, $2 }')
for f in "$docs"/rules/JF*.md; do
	[[ " ${keep[*]} " == *" ${f##*/} "* ]] || rm -f -- "$f"
done
