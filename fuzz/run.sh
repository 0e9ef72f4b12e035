#!/usr/bin/env bash
# run.sh - runs a libFuzzer target of build-fuzz/ on a copy of its corpus
# usage: fuzz/run.sh TARGET SECONDS [BUILD_DIR]
#   TARGET: lint, query, config, build or triage. Crashes land in fuzz-out/TARGET/;
#   the last line of fuzz-out/TARGET/log gives executions and coverage.
# LeakSanitizer needs whole stacks to match tests/lsan.supp (libFuzzer's own
# default keeps two frames, where the suppressed function is not).
set -eu
target=$1
seconds=$2
build=${3:-build-fuzz}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$root/fuzz-out/$target
mkdir -p "$out/corpus"
cp -n "$root/fuzz/corpora/$target"/* "$out/corpus/" 2>/dev/null || true
if [[ $target == query ]]; then
	cp -n "$root"/queries/*/*.scm "$out/corpus/" 2>/dev/null || true
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:malloc_context_size=30:fast_unwind_on_malloc=0
export LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd "$out"
"$root/$build/fuzz/${target}_fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
	-artifact_prefix="$out/" -print_final_stats=1 corpus >"$out/log" 2>&1 || {
	echo "$target: a finding, see $out/log"
	exit 1
}
grep -E "^stat::number_of_executed_units|^stat::new_units_added|cov:" "$out/log" | tail -3
