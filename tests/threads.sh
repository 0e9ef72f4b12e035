#!/usr/bin/env bash
# threads.sh - `jobfix lint -j N` prints what `-j 1` prints, byte for byte
#
# usage: threads.sh JOBFIX FIXTURES_DIR
# Every golden case's paths at once (a path that does not exist and a folder
# among them, for the errors' order), in each format, with --verbose's
# skipped checks, --statistics, and --staged-files (the jobs that read a
# changed file): the output of 2 and 7 threads against one thread's.
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
	"$jobfix" lint -j 1 --no-config --color never "$@" >"$tmp/one" 2>&1
	echo "exit $?" >>"$tmp/one"
	for j in 2 7; do
		"$jobfix" lint -j "$j" --no-config --color never "$@" >"$tmp/many" 2>&1
		echo "exit $?" >>"$tmp/many"
		check "$name: -j $j prints what -j 1 prints" cmp -s "$tmp/one" "$tmp/many"
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
