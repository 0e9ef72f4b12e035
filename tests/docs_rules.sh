#!/usr/bin/env bash
# docs_rules.sh - docs/rules.md documents every rule of the table, and only those
# usage: docs_rules.sh JOBFIX DOCS_RULES_MD
set -u
jobfix=$1
doc=$2
status=0
table=$("$jobfix" rules | awk 'NR>1{print $1, $2}')
while read -r id name; do
	if ! grep -q "^## $id $name\$" "$doc"; then
		echo "FAIL: $doc has no section '## $id $name'"
		status=1
	fi
done <<<"$table"
while read -r id name; do
	if ! grep -q "^$id $name\$" <<<"$table"; then
		echo "FAIL: $doc documents '$id $name', which is not a rule"
		status=1
	fi
done < <(grep -E '^## JF[0-9]{3} ' "$doc" | sed 's/^## //')
for section in "What it finds" "Why" "How to fix" "How to silence"; do
	n=$(grep -c "^\*\*$section\*\*" "$doc")
	rules=$(wc -l <<<"$table")
	if [[ $n -ne $rules ]]; then
		echo "FAIL: $doc has $n '**$section**' paragraphs for $rules rules"
		status=1
	fi
done
exit $status
