#!/usr/bin/env bash
# bench.sh - wall time of `jobfix lint` from process start, and parse throughput
#
#   tools/bench.sh [JOBFIX]    (default: build/jobfix, a Release build)
#
# 1. The demo job, run N times: median, 95th percentile, best (budget: 25 ms).
# 2. One large generated Python file (about 5 MB) linted alone, and the same
#    file as the entry script of a job with every check on, in PAIRS runs one
#    after the other (a busy machine slows both alike): the medians of wall
#    and CPU time, MB/s, and the median of the pairs' ratios (job speed over
#    alone speed; the goal is 0.8 or more).
# 3. `jobfix triage` on a generated log of about 200 MB (training progress lines with
#    timestamps, then an out-of-memory error): wall time, MB/s and peak memory, beside
#    `grep -ci error` on the same file (the page cache's speed for a line scan).
# 4. 400 files of the Python standard library linted alone with -j 1 and -j 2, beside
#    pyflakes3 on them and build/jobfix-parse-only (tree-sitter's parse of the same
#    files on one thread: the limit), in 5 rounds that run each once in turn (a
#    machine busy for a while slows a round's runs alike): medians, MB/s, and the
#    ratios as medians of the rounds' ratios.
# 5. With BIG_JOB=path/to/job.yaml (e.g. a job of the Megatron-LM gpt3 example at the
#    top of a checkout; docs/development.md): its lint with -j 1 and -j 2 without the
#    fact cache, the same with no tree kept (JOBFIX_TREE_BUDGET=0: the least memory) and,
#    with strace installed, the parse-only time of the Python files it reads, in 3
#    rounds as above, with peak memory; then a first (cold) and second
#    (warm) lint with a fresh cache, and a third as after an edit of one file
#    (the lint's entry and one file's removed), medians of 3.
# Every run but the warm ones is --no-cache: the fact cache would answer them.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobfix=$(realpath "${1:-$root/build/jobfix}")
runs=${RUNS:-200}

ms_stats() { # reads nanoseconds, one per line
	sort -n | awk '{ a[NR] = $1 } END {
		printf "median %.2f ms, p95 %.2f ms, best %.2f ms (%d runs)\n",
			a[int((NR + 1) / 2)] / 1e6, a[int(NR * 0.95)] / 1e6, a[1] / 1e6, NR }'
}

time_runs() { # time_runs N CMD...
	local n=$1 i t0 t1
	shift
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		t1=$(date +%s%N)
		echo $((t1 - t0))
	done
}

cd "$root/fixtures/demo"
files=$(find . -name '*.py' -o -name '*.sh' -o -name '*.yaml' | wc -l)
lines=$(cat $(find . -name '*.py' -o -name '*.sh' -o -name '*.yaml') | wc -l)
echo "demo job ($files files, $lines lines):"
time_runs 5 "$jobfix" lint --no-cache job.yaml >/dev/null # warm the page cache
echo "  jobfix lint job.yaml: $(time_runs "$runs" "$jobfix" lint --no-cache job.yaml | ms_stats)"
echo "  jobfix --version:     $(time_runs "$runs" "$jobfix" --version | ms_stats)"
echo "  /bin/true (the cost of starting a process from this script): $(time_runs "$runs" /bin/true | ms_stats)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while [[ $(stat -c %s "$tmp/big.py" 2>/dev/null || echo 0) -lt 5000000 ]]; do
	cat "$root"/fixtures/demo/*.py "$root"/fixtures/demo/*/*.py >>"$tmp/big.py" 2>/dev/null
done
size=$(stat -c %s "$tmp/big.py")
# The same Python as a job's entry script, with every job check on: a known
# image (manifest, Python), workdir and mounts, so imports, paths, env reads
# and syntax are all evaluated.
mkdir -p "$tmp/job"
cp "$tmp/big.py" "$tmp/job/train.py"
printf 'numpy==1.26.4\ntorch==2.1.0\ntensorflow==1.15.5\n' >"$tmp/job/packages.txt"
cat >"$tmp/job/job.yaml" <<'YAML'
version: 1
image: {name: registry.example.com/team/train:7, user: "1000", python: "3.10", manifest: packages.txt}
workdir: /workspace
inputs: {data: /mnt/data}
outputs: {out: /mnt/out}
command: python train.py
YAML
pairs=${PAIRS:-11}
for ((i = 0; i < pairs; i++)); do
	for target in "$tmp/big.py" "$tmp/job/job.yaml"; do
		/usr/bin/time -o "$tmp/t" -f '%e %U %S' "$jobfix" lint --no-cache "$target" >/dev/null 2>&1 || true
		printf '%s ' "$(tail -1 "$tmp/t")"
	done
	echo
done | awk -v s="$size" -v n="$pairs" '
	function median(a, k,   i, j, t) { # sorts a[1..k] in place
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
	{ aw[NR] = $1; ac[NR] = $2 + $3; jw[NR] = $4; jc[NR] = $5 + $6
	  rw[NR] = $1 / $4; rc[NR] = ($2 + $3) / ($5 + $6) }
	END {
		maw = median(aw, NR); mac = median(ac, NR); mjw = median(jw, NR); mjc = median(jc, NR)
		printf "large file (%d kB of Python), %d pairs of runs, medians:\n", s / 1000, NR
		printf "  alone:            wall %.2f s (%.1f MB/s), cpu %.2f s\n", maw, s / maw / 1e6, mac
		printf "  as a job'"'"'s entry: wall %.2f s (%.1f MB/s), cpu %.2f s\n", mjw, s / mjw / 1e6, mjc
		printf "  job speed / alone speed: wall %.2f, cpu %.2f (median of the pairs)\n",
			median(rw, NR), median(rc, NR) }'

log=$tmp/train.log
line='2025-01-01 10:00:00,000 - INFO - epoch 3 step 91234 loss 1.2345 lr 3.0e-04 grad_norm 0.91'
head -c 200000000 >"$log" < <(yes "$line")
echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB' >>"$log"
size=$(stat -c %s "$log")
cat "$log" >/dev/null # warm the page cache
for ((i = 0; i < 5; i++)); do
	/usr/bin/time -o "$tmp/t" -f '%e %M' "$jobfix" triage "$log" >/dev/null 2>&1 || true
	tail -1 "$tmp/t"
done | sort -n | awk -v s="$size" 'NR == 3 {
	printf "triage of a %d MB log, median of 5: %.2f s (%.0f MB/s), peak memory %.1f MB\n",
		s / 1e6, $1, s / $1 / 1e6, $2 / 1024 }'
start=$(date +%s%N)
grep -ci error "$log" >/dev/null || true
end=$(date +%s%N)
awk -v s="$size" -v ns=$((end - start)) 'BEGIN {
	printf "  grep -ci error on it: %.2f s (%.0f MB/s)\n", ns / 1e9, s / (ns / 1e9) / 1e6 }'

# rounds N NAME...: N rounds, each running the functions NAME... once, one after
# the other, so that a machine busy for a while slows each alike; $tmp/t.NAME
# gets the wall seconds of each run, one per line.
rounds() {
	local n=$1 i f
	shift
	for f; do : >"$tmp/t.$f"; done
	for ((i = 0; i < n; i++)); do
		for f; do
			{ TIMEFORMAT=%R; time "$f" >/dev/null 2>&1; } 2>>"$tmp/t.$f" || true
		done
	done
}
median() { # the median of the numbers of file $1
	sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
ratio() { # the median of the rounds' ratios: a run of $1 over a run of $2
	paste "$tmp/t.$1" "$tmp/t.$2" | awk '$2 > 0 { print $1 / $2 }' >"$tmp/ratio"
	median "$tmp/ratio"
}

parse_only=$(dirname "$jobfix")/jobfix-parse-only
stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || echo /usr/lib/python3)
mapfile -t files < <(find "$stdlib" -name '*.py' -not -path '*/site-packages/*' -not -path '*/test*' | sort | head -400)
if ((${#files[@]} >= 100)); then
	bytes=$(cat "${files[@]}" | wc -c)
	lib_j1() { "$jobfix" lint -j 1 --no-cache --no-config "${files[@]}"; }
	lib_j2() { "$jobfix" lint -j 2 --no-cache --no-config "${files[@]}"; }
	lib_pyflakes() { pyflakes3 "${files[@]}"; }
	lib_parse() { "$parse_only" "${files[@]}"; }
	run=(lib_j1 lib_j2)
	command -v pyflakes3 >/dev/null && run+=(lib_pyflakes)
	[[ -x $parse_only ]] && run+=(lib_parse)
	echo "${#files[@]} files of the standard library ($((bytes / 1000)) kB), 5 rounds of ${run[*]}: medians, and the median of the rounds' ratios:"
	rounds 5 "${run[@]}"
	awk -v t="$(median "$tmp/t.lib_j1")" -v t2="$(median "$tmp/t.lib_j2")" -v r="$(ratio lib_j1 lib_j2)" -v b="$bytes" 'BEGIN {
		printf "  jobfix lint -j 1:   %.2f s (%.1f MB/s)\n", t, b / t / 1e6
		printf "  jobfix lint -j 2:   %.2f s (%.1f MB/s); %.2fx -j 1\n", t2, b / t2 / 1e6, r }'
	if [[ -s $tmp/t.lib_pyflakes ]]; then
		awk -v t="$(median "$tmp/t.lib_pyflakes")" -v r="$(ratio lib_pyflakes lib_j1)" -v b="$bytes" 'BEGIN {
			printf "  pyflakes3:          %.2f s (%.1f MB/s); jobfix -j 1 is %.1fx its speed\n", t, b / t / 1e6, r }'
	fi
	if [[ -s $tmp/t.lib_parse ]]; then
		awk -v t="$(median "$tmp/t.lib_parse")" -v r="$(ratio lib_parse lib_j1)" -v b="$bytes" 'BEGIN {
			printf "  parse only:         %.2f s (%.1f MB/s); jobfix -j 1 is %.2fx its speed\n", t, b / t / 1e6, r }'
	fi
fi

if [[ -n ${BIG_JOB:-} ]]; then
	big_j1() { "$jobfix" lint -j 1 --no-cache --no-config "$BIG_JOB"; }
	big_j2() { "$jobfix" lint -j 2 --no-cache --no-config "$BIG_JOB"; }
	lean_j1() { JOBFIX_TREE_BUDGET=0 big_j1; }
	lean_j2() { JOBFIX_TREE_BUDGET=0 big_j2; }
	big_parse() { "$parse_only" "${read[@]}"; }
	run=(big_j1 big_j2 lean_j1 lean_j2)
	read=()
	if command -v strace >/dev/null && [[ -x $parse_only ]]; then
		strace -f -e trace=openat -o "$tmp/strace" "$jobfix" lint -j 1 --no-cache --no-config "$BIG_JOB" >/dev/null 2>&1 || true
		mapfile -t read < <(grep -v ENOENT "$tmp/strace" | grep -o '"[^"]*\.py"' | tr -d '"' | sort -u)
		run+=(big_parse)
	fi
	echo "big job $BIG_JOB, 3 rounds of ${run[*]}: medians, and the median of the rounds' ratios:"
	rounds 3 "${run[@]}"
	for j in 1 2; do
		/usr/bin/time -o "$tmp/t" -f '%M' "$jobfix" lint -j $j --no-cache --no-config "$BIG_JOB" >/dev/null 2>&1 || true
		printf "  -j %d, no cache: %.2f s, peak memory %d MB\n" $j "$(median "$tmp/t.big_j$j")" $(($(tail -1 "$tmp/t") / 1024))
	done
	printf "  -j 2 is %.2fx -j 1\n" "$(ratio big_j1 big_j2)"
	for j in 1 2; do
		JOBFIX_TREE_BUDGET=0 /usr/bin/time -o "$tmp/t" -f '%M' "$jobfix" lint -j $j --no-cache --no-config "$BIG_JOB" >/dev/null 2>&1 || true
		printf "  -j %d, no tree kept (JOBFIX_TREE_BUDGET=0): %.2f s, peak memory %d MB\n" $j "$(median "$tmp/t.lean_j$j")" $(($(tail -1 "$tmp/t") / 1024))
	done
	if ((${#read[@]})); then
		printf "  parse only of the %d Python files it read (%d kB): %.2f s; -j 1 takes %.2fx its time, -j 2 %.2fx\n" \
			${#read[@]} $(($(cat "${read[@]}" | wc -c) / 1000)) "$(median "$tmp/t.big_parse")" \
			"$(ratio big_j1 big_parse)" "$(ratio big_j2 big_parse)"
		printf "    with no tree kept: -j 1 takes %.2fx, -j 2 %.2fx\n" "$(ratio lean_j1 big_parse)" \
			"$(ratio lean_j2 big_parse)"
	fi
	# A fresh cache folder each round (a folder emptied just before makes
	# the file system slower to fill it again than a new one).
	for i in 1 2 3; do
		cache=$tmp/cache$i
		/usr/bin/time -o "$tmp/t" -f '%e' env XDG_CACHE_HOME="$cache" "$jobfix" lint --no-config "$BIG_JOB" >/dev/null 2>&1 || true
		cold=$(tail -1 "$tmp/t")
		/usr/bin/time -o "$tmp/t" -f '%e %M' env XDG_CACHE_HOME="$cache" "$jobfix" lint --no-config "$BIG_JOB" >/dev/null 2>&1 || true
		warm=$(tail -1 "$tmp/t")
		# As after an edit of one file: the lint's entry gone, and one file's.
		n=0
		for e in "$cache"/jobfix/????????????????????????????????; do
			case "$(head -c 8 "$e")" in
			JFCACHE*) rm -f "$e" ;;
			JFFILE*) n=$((n + 1)) && ((n == 7 * i)) && rm -f "$e" ;;
			esac
		done
		/usr/bin/time -o "$tmp/t" -f '%e %M' env XDG_CACHE_HOME="$cache" "$jobfix" lint --no-config "$BIG_JOB" >/dev/null 2>&1 || true
		echo "$cold $warm $(tail -1 "$tmp/t")"
	done | sort -n -k2 | awk 'NR == 2 { printf "  cache cold: %.2f s; warm: %.2f s, peak memory %.1f MB; one file changed: %.2f s, peak memory %.1f MB\n", $1, $2, $3 / 1024, $4, $5 / 1024 }'
fi
