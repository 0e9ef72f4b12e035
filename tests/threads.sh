#!/usr/bin/env bash
# threads.sh - `jobfix lint -j N` and the fact cache print what one thread without it prints
#
# usage: threads.sh JOBFIX FIXTURES_DIR
# Every golden case's paths at once (a path that does not exist and a folder
# among them, for the errors' order), in each format, with --verbose's
# skipped checks, --statistics, and --staged-files (the jobs that read a
# changed file): the output of 2 and 7 threads against one thread's, without
# the cache, and with JOBFIX_TREE_BUDGET=0 (no tree kept: each file's read
# again when a check asks). Then the cache: where it is, --no-cache, a second run and runs
# at the same time against a run without it, byte for byte.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"
jobfix=$(realpath "$1")
cd "$2" || exit 2

# The paths of each case's `args` (its options and their values left out), else its job.yaml.
paths=()
while read -r expected; do
	dir=$(dirname "$expected")
	if [[ -f $dir/args ]]; then
		read -r -a args <"$dir/args"
		skip=0
		for a in "${args[@]}"; do
			if ((skip)); then
				skip=0
			elif [[ $a == --config || $a == --fail-on || $a == --ignore || $a == --rules-dir || $a == --select ]]; then
				skip=1
			elif [[ $a != -* ]]; then
				paths+=("$dir/$a")
			fi
		done
	elif [[ -f $dir/job.yaml ]]; then
		paths+=("$dir/job.yaml")
	fi
done < <(find . -name expected.txt -not -path '*/expected.fixed/*' | sort)
paths+=(no-such-job.yaml .)
check "the golden cases give more than 200 paths" test "${#paths[@]}" -gt 200

same() { # same NAME ARGS...: -j 2 and -j 7 print what -j 1 prints
	local name=$1 j
	shift
	"$jobfix" lint -j 1 --no-cache --no-config --color never "$@" >"$tmp/one" 2>&1
	echo "exit $?" >>"$tmp/one"
	for j in 2 7; do
		"$jobfix" lint -j "$j" --no-cache --no-config --color never "$@" >"$tmp/many" 2>&1
		echo "exit $?" >>"$tmp/many"
		check "$name: -j $j prints what -j 1 prints" cmp -s "$tmp/one" "$tmp/many"
	done
	# Every file's tree released as soon as it may be, and read again when asked for.
	for j in 1 2; do
		JOBFIX_TREE_BUDGET=0 "$jobfix" lint -j "$j" --no-cache --no-config --color never "$@" \
			>"$tmp/many" 2>&1
		echo "exit $?" >>"$tmp/many"
		check "$name: -j $j with no tree kept prints what -j 1 prints" cmp -s "$tmp/one" "$tmp/many"
	done
}

same "text, --verbose" --verbose "${paths[@]}"
same "json" --format json "${paths[@]}"
same "sarif" --format sarif "${paths[@]}"
check "the paths give many findings" test "$(grep -c '"ruleId"' "$tmp/one")" -gt 300
check "the paths give errors" grep -q "cannot read 'no-such-job.yaml'" "$tmp/one"
same "concise" --format concise "${paths[@]}"
same "--statistics" --statistics "${paths[@]}"

# The changed files of a commit: every Python file of the cases whose name is train.py.
mapfile -t changed < <(find . -name train.py -not -path '*/expected.fixed/*' | sort | head -40)
same "--staged-files" --staged-files "${changed[@]}"

# The fact cache.
# entries DIR [MAGIC]: the entries of a lint (JFCACHE), or of files (JFFILE)
entries() {
	local n=0 f
	for f in "$1"/????????????????????????????????; do
		[ -f "$f" ] && case "$(head -c 8 "$f")" in "${2:-JFCACHE}"*) n=$((n + 1)) ;; esac
	done
	echo $n
}
cache=$tmp/cache
XDG_CACHE_HOME=$cache "$jobfix" lint --no-cache --no-config demo/job.yaml >/dev/null 2>&1
check "--no-cache writes no cache" test ! -e "$cache"
XDG_CACHE_HOME=$cache "$jobfix" lint --no-config demo/job.yaml >/dev/null 2>&1
check "the cache is in \$XDG_CACHE_HOME/jobfix" test "$(entries "$cache/jobfix")" -eq 1
check "with an entry for each Python file of the job" test "$(entries "$cache/jobfix" JFFILE)" -ge 1
mkdir "$tmp/home"
HOME=$tmp/home XDG_CACHE_HOME=relative "$jobfix" lint --no-config demo/job.yaml >/dev/null 2>&1
check "else in \$HOME/.cache/jobfix" test "$(entries "$tmp/home/.cache/jobfix")" -eq 1
HOME=$tmp/nohome "$jobfix" lint --no-config demo/job.yaml >/dev/null 2>&1
check "a \$HOME that does not exist is not made" test ! -e "$tmp/nohome"
check "a relative \$XDG_CACHE_HOME is not used" test ! -e relative
"$jobfix" lint -j 2 --no-cache --no-config --color never --verbose "${paths[@]}" >"$tmp/fresh" 2>&1
echo "exit $?" >>"$tmp/fresh"
for run in cold warm; do
	XDG_CACHE_HOME=$cache "$jobfix" lint -j 2 --no-config --color never --verbose "${paths[@]}" >"$tmp/$run" 2>&1
	echo "exit $?" >>"$tmp/$run"
	check "every case, cache $run: the output without the cache" cmp -s "$tmp/fresh" "$tmp/$run"
done
check "an entry for each path linted" test "$(entries "$cache/jobfix")" -gt 200
# Eight runs at once on a fresh cache: each whole, none broken by another's entries.
for i in 1 2 3 4 5 6 7 8; do
	(XDG_CACHE_HOME=$tmp/shared "$jobfix" lint -j 1 --no-config --color never --verbose "${paths[@]}" >"$tmp/at-once.$i" 2>&1
		echo "exit $?" >>"$tmp/at-once.$i") &
done
wait
for i in 1 2 3 4 5 6 7 8; do
	check "runs at the same time: run $i prints the output without the cache" cmp -s "$tmp/fresh" "$tmp/at-once.$i"
done
check "runs at the same time leave no temporary file" test -z "$(find "$tmp/shared" -name '.tmp-*')"

# The option itself.
"$jobfix" lint -j 0 job.yaml >/dev/null 2>"$tmp/err"
check "-j 0 is a usage error" test $? -eq 2
check "-j 0 says why" grep -q "from 1 to" "$tmp/err"
"$jobfix" lint -j x job.yaml >/dev/null 2>&1
check "-j x is a usage error" test $? -eq 2
"$jobfix" lint -j >/dev/null 2>"$tmp/err"
check "-j without N is a usage error" grep -q "needs a value" "$tmp/err"
"$jobfix" lint --threads=3 --threads 1 -j2 --no-config demo/job.yaml >/dev/null 2>&1
check "--threads=N, --threads N and -jN are read" test $? -ne 2
finish
