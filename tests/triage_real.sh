#!/usr/bin/env bash
# triage_real.sh - `jobfix triage` on the real failure logs of fixtures/triage/real/
#
#   triage_real.sh JOBFIX [MIN_CATEGORY MIN_RETRY]
#
# Each folder's README labels its logs by hand (file, category, retry, source,
# why). Prints every log whose category or retry differs from its label, then
# the accuracy on each; fails when either is below its floor (percent).
set -u
jobfix=$1
min_category=${2:-0}
min_retry=${3:-0}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures/triage/real" && pwd)
total=0 cat_ok=0 retry_ok=0
while IFS=$'\t' read -r dir file category retry source; do
	out=$("$jobfix" triage --format json "$root/$dir/$file")
	got_category=$(sed -n 's/^      "category": "\(.*\)",$/\1/p' <<<"$out")
	got_retry=$(sed -n 's/^      "retry": "\(.*\)",$/\1/p' <<<"$out")
	total=$((total + 1))
	[[ $got_category == "$category" ]] && cat_ok=$((cat_ok + 1))
	[[ $got_retry == "$retry" ]] && retry_ok=$((retry_ok + 1))
	if [[ $got_category != "$category" || $got_retry != "$retry" ]]; then
		echo "$dir/$file: labelled $category / $retry, triaged $got_category / $got_retry ($source)"
	fi
done < <(for readme in "$root"/*/README; do
	d=$(basename "$(dirname "$readme")")
	grep -v '^#' "$readme" | awk -F'\t' -v d="$d" 'NF >= 4 { print d "\t" $1 "\t" $2 "\t" $3 "\t" $4 }'
done)
if ((total < 150)); then
	echo "triage_real: only $total labelled logs"
	exit 1
fi
cat_pct=$((cat_ok * 100 / total))
retry_pct=$((retry_ok * 100 / total))
echo "category: $cat_ok/$total ($cat_pct%), retry: $retry_ok/$total ($retry_pct%)"
((cat_pct >= min_category && retry_pct >= min_retry))
