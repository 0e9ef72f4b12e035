#!/usr/bin/env bash
# layering.sh - the folders of lib/ include only the folders below them; only the rules say skips
#
#   layering.sh SOURCE_DIR
#
# The pipeline's stages, lowest first (docs/development.md): a file may
# include its own folder's headers and those of the folders before its own,
# never one after it, so no include cycle can form between folders. The
# files at lib/'s top (the public API over the stages) may include any.
set -u
root=$1
order=(core job env sources shell python facts rules report triage)
rank() { # rank FOLDER: its place in `order`, or nothing
	local i
	for i in "${!order[@]}"; do
		[[ ${order[$i]} == "$1" ]] && echo "$i" && return
	done
}
bad=0
checked=0
shopt -s nullglob
# A stage's subfolders (python/parsers/) belong to the stage.
for f in "$root"/lib/*/*.[ch] "$root"/lib/*/*/*.[ch] "$root"/lib/*/*/*.def; do
	folder=${f#"$root"/lib/}
	folder=${folder%%/*}
	[[ $folder == include ]] && continue
	mine=$(rank "$folder")
	if [[ -z $mine ]]; then
		echo "layering: $f: lib/$folder/ is not a stage of the pipeline: add it to tests/layering.sh and docs/development.md"
		bad=1
		continue
	fi
	while IFS= read -r inc; do
		theirs=$(rank "$inc")
		checked=$((checked + 1))
		if [[ -z $theirs ]]; then
			echo "layering: $f includes \"$inc/...\", which is no stage of lib/"
			bad=1
		elif ((theirs > mine)); then
			echo "layering: $f (lib/$folder/) includes \"$inc/...\", a later stage"
			bad=1
		fi
	done < <(sed -n 's|^#include "\([a-z_]*\)/.*|\1|p' "$f" | grep -v '^jobfix$')
done
# No stage before the rules says a skip of a rule (jf_sink_skip): it keeps
# why it does not know a fact on what it hands on (the job's notes, the
# shell facts' not_followed, the workspace's unread), and the rule that
# needs the fact says it.
while IFS= read -r hit; do
	echo "layering: ${hit#"$root"/}: only lib/rules/ says skips: keep why on the fact instead"
	bad=1
done < <(grep -n 'jf_sink_skip(' "$root"/lib/*/*.c | grep -v -e "^$root/lib/rules/" -e "^$root/lib/core/sink.c:")
# A test that checks nothing is no test.
((checked > 100)) || { echo "layering: only $checked includes checked"; bad=1; }
exit $bad
