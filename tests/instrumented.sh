#!/usr/bin/env bash
# instrumented.sh - whether each static library carries the instrumentation marks
# usage: instrumented.sh "MARK;MARK..." LIBRARY...
# A mark is the prefix of a symbol the instrumentation calls (__asan_report,
# __sanitizer_cov); a library that calls none of one was built without it.
set -u
IFS=';' read -r -a marks <<<"$1"
shift
failed=0
for lib in "$@"; do
	symbols=$(nm "$lib" 2>/dev/null) || { echo "FAIL: cannot read $lib"; failed=1; continue; }
	for mark in "${marks[@]}"; do
		if ! grep -q " U ${mark}" <<<"$symbols"; then
			echo "FAIL: $(basename "$lib") is not instrumented: no call of ${mark}*"
			failed=1
		fi
	done
done
exit "$failed"
