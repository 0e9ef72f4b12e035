#!/usr/bin/env bash
# triage.sh - `jobfix triage` on the cases of fixtures/triage/cases/, byte for byte
#
#   triage.sh JOBFIX [SARIF_SCHEMA]
#
# A case is a folder with input.log or input.log.gz, and job/spec.yaml when the
# log is linked to a job (--job). Its expected.txt is the transcript of the
# text, json and (with a job) sarif runs, each with its exit status; with
# JOBFIX_UPDATE_GOLDEN=1 it is written instead. With a schema, each case's
# SARIF is validated as the lint's is (sarif_check.js). Then the exit codes,
# standard input and a log of 1 GB read in bounded memory.
set -u
jobfix=$(realpath "$1")
schema=${2:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cases=$here/../fixtures/triage/cases
# shellcheck source=tests/check.sh
. "$here/check.sh"

transcript() { # transcript CASE_DIR: every run of the case, as expected.txt holds it
	local input args=() format
	input=$(cd "$1" && ls input.log* | head -1)
	[[ -f $1/job/spec.yaml ]] && args=(--job job/spec.yaml)
	for format in text json sarif; do
		[[ $format == sarif && ${#args[@]} -eq 0 ]] && continue
		echo "\$ jobfix triage --format $format ${args[*]} $input"
		(cd "$1" && "$jobfix" triage --format "$format" "${args[@]}" "$input" 2>&1)
		echo "[exit $?]"
	done
}

n=0
for dir in "$cases"/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	n=$((n + 1))
	if [[ -n ${JOBFIX_UPDATE_GOLDEN:-} ]]; then
		transcript "$dir" >"$dir/expected.txt"
		continue
	fi
	check "$name: expected.txt exists" test -f "$dir/expected.txt"
	check "$name: output" cmp -s "$dir/expected.txt" <(transcript "$dir")
	cmp -s "$dir/expected.txt" <(transcript "$dir") ||
		diff "$dir/expected.txt" <(transcript "$dir") | head -20
	if [[ -n $schema && -f $dir/job/spec.yaml ]] && command -v node >/dev/null; then
		(cd "$dir" && "$jobfix" triage --format sarif --job job/spec.yaml input.log*) >"$tmp/$name.sarif"
		check "$name: SARIF valid" node "$here/sarif_check.js" "$schema" "$tmp/$name.sarif"
	fi
done
check "found the cases" test "$n" -ge 12

# Exit codes: 0 when read; with --exit-code 0 retry may help, 1 not, 2 unknown.
printf 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB\n' >"$tmp/oom.log"
printf 'NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45012> with error 12, opcode 0, len 0, vendor err 129 (Recv)\nCUDA error: uncorrectable ECC error encountered\n' >"$tmp/ecc.log"
printf 'all good\n' >"$tmp/none.log"
"$jobfix" triage "$tmp/oom.log" >/dev/null
check "exit 0 without --exit-code" test $? -eq 0
"$jobfix" triage --exit-code "$tmp/oom.log" >/dev/null
check "--exit-code: 1 for a deterministic failure" test $? -eq 1
"$jobfix" triage --exit-code "$tmp/ecc.log" >/dev/null
check "--exit-code: 0 when a retry may help" test $? -eq 0
"$jobfix" triage --exit-code "$tmp/none.log" >/dev/null
check "--exit-code: 2 when the log does not tell" test $? -eq 2
"$jobfix" triage --exit-code "$tmp/ecc.log" "$tmp/oom.log" >/dev/null
check "--exit-code: 1 when one of the logs is deterministic" test $? -eq 1
"$jobfix" triage "$tmp/missing.log" >/dev/null 2>"$tmp/err"
check "exit 2 for a log that cannot be read" test $? -eq 2
check "it says why" grep -q "missing.log: cannot open: No such file or directory" "$tmp/err"
"$jobfix" triage --format sarif "$tmp/oom.log" >/dev/null 2>&1
check "sarif needs --job" test $? -eq 2
"$jobfix" triage - - </dev/null >/dev/null 2>&1
check "standard input read once" test $? -eq 2
check "standard input" grep -q "^<stdin>:1: GPU Out of Memory" <("$jobfix" triage - <"$tmp/oom.log")
mkfifo "$tmp/fifo"
check "a FIFO nobody writes to reads as empty" \
	grep -q "no failure message found in 0 lines" <(timeout 10 "$jobfix" triage "$tmp/fifo")
ln -s loop1 "$tmp/loop2" && ln -s loop2 "$tmp/loop1"
"$jobfix" triage "$tmp/loop1" >/dev/null 2>"$tmp/err"
check "a symlink loop: an error, no hang" grep -q "loop1: cannot open: Too many levels of symbolic links" "$tmp/err"
printf '\x1f\x8b\x08\x00\x00\x00\x00\x00' >"$tmp/cut.log.gz"
"$jobfix" triage "$tmp/cut.log.gz" >/dev/null 2>"$tmp/err"
check "a gzip stream cut short: exit 2" test $? -eq 2
check "a gzip stream cut short: said" grep -q "cut short or corrupt" "$tmp/err"

# --job: a frame in no file of the job says so; --verbose says how each line was chosen.
printf 'Traceback (most recent call last):\n  File "/opt/app/elsewhere.py", line 3, in f\nKeyError: 1\n' >"$tmp/elsewhere.log"
check "a frame outside the job's code is said" grep -q "no file of the job's code has this path" \
	<(cd "$cases/job-frame-link" && "$jobfix" triage --job job/spec.yaml "$tmp/elsewhere.log")
check "--verbose names the pattern" grep -q "oom.log:1: matches pattern torch-cuda-oom-any (data/triage.yaml:[0-9]*)$" \
	<("$jobfix" triage --verbose "$tmp/oom.log" 2>&1 >/dev/null)
printf 'step 3\nrunner: fatal: lost the lease\n' >"$tmp/unknown.log"
check "--verbose says why no pattern matched" grep -q "unknown.log:2: no pattern of data/triage.yaml knows this line" \
	<("$jobfix" triage --verbose "$tmp/unknown.log" 2>&1 >/dev/null)
check "--verbose says why no line was taken" grep -q "none.log: no line reads as a failure" \
	<("$jobfix" triage --verbose "$tmp/none.log" 2>&1 >/dev/null)
check "--verbose with --job: exit 0" \
	bash -c "cd '$cases/job-frame-link' && '$jobfix' triage -v --job job/spec.yaml input.log >/dev/null 2>&1"

# 1 GB of training log, then the failure, through a pipe: read to its end in
# bounded memory (the peak resident size stays under 64 MB).
big() {
	yes '2025-01-01 10:00:00,000 - INFO - epoch 3 step 91234 loss 1.2345 lr 3.0e-04 grad_norm 0.91 tokens/s 51234.5' |
		head -c 1000000000
	printf 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB\n'
}
big | /usr/bin/time -f '%M' -o "$tmp/rss" "$jobfix" triage - >"$tmp/big.out"
check "1 GB: the failure at its end is found" grep -q "GPU Out of Memory" "$tmp/big.out"
check "1 GB: peak memory under 64 MB ($(cat "$tmp/rss") kB)" test "$(cat "$tmp/rss")" -lt 65536
finish
