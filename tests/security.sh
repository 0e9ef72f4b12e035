#!/usr/bin/env bash
# security.sh - jobfix on input an attacker controls (docs/security.md): reads
# only in the repository, writes no file through a planted link, and ends in
# bounded time on pathological input
# usage: security.sh JOBFIX
set -u
jobfix=$1
# shellcheck source=tests/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"

run() { # run ARGS...: sets rc; output in $tmp/out and $tmp/err
	"$jobfix" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# A time limit for one run: an input that made jobfix hang fails the check.
timed() { # timed SECONDS ARGS...
	local limit=$1
	shift
	timeout "$limit" "$jobfix" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

secret='jobfix-test-secret-4711'
outside=$tmp/outside
mkdir -p "$outside/code" "$outside/rules/python"
printf '%s = 1 2\n' "$secret" >"$outside/secret.py"
printf 'x = "%s"\n' "$secret" >"$outside/code/passwd"
repo=$tmp/repo
mkdir -p "$repo/.git" "$repo/sub"
cd "$repo" || exit 1

# 1. Files outside the repository are neither read nor shown.
printf 'version: 1\nimage: python:3.11\ncode: %s\ncommand: python passwd\n' "$outside/code" \
	>code.yaml
run lint code.yaml
check "code: outside: a JF005 note at the code value" \
	grep -q "^code.yaml:3:7: note: the code folder '$outside/code' is not read: it lies outside the repository" "$tmp/out"
check "code: outside: nothing of the file shown" bash -c "! grep -q $secret $tmp/out $tmp/err"
check "code: outside: exit 0 (a note)" test "$rc" -eq 0
printf 'version: 1\nimage: python:3.11\ncode: ../outside/code\ncommand: python passwd\n' \
	>dotdot.yaml
run lint dotdot.yaml
check "code: ../ out of the repository: refused" grep -q "is not read: it lies outside" "$tmp/out"

ln -s "$outside/secret.py" creds.py
printf 'version: 1\nimage: python:3.11\ncommand: python creds.py\n' >link.yaml
run lint link.yaml
check "a committed symlink out: a JF005 note naming the file" \
	grep -q "^creds.py:1:1: note: 'creds.py' is not linted: it lies outside the repository" "$tmp/out"
check "a committed symlink out: nothing of the file shown" \
	bash -c "! grep -q $secret $tmp/out $tmp/err"
run lint --format sarif link.yaml
check "a committed symlink out: nothing of it in SARIF" bash -c "! grep -q $secret $tmp/out"
run show --format json link.yaml
check "show: a committed symlink out is no entry script" grep -q '"entry_scripts": \[\]' "$tmp/out"
run lint --allow-outside "$outside" link.yaml
check "--allow-outside DIR reads there" grep -q "JF301" "$tmp/out"
printf 'allow-outside: [%s]\n' "$outside" >allow.yaml
run lint --config allow.yaml link.yaml
check "the config's allow-outside reads there" grep -q "JF301" "$tmp/out"

ln -s "$outside/code" linked
printf 'version: 1\nimage: python:3.11\ncode: linked\ncommand: python passwd\n' >linked.yaml
run lint linked.yaml
check "a code folder that is a symlink out: refused" grep -q "code folder 'linked' is not read" "$tmp/out"

ln -s "$outside/secret.py" job.yaml
run lint job.yaml
check "a job spec that is a symlink out: a JF005 note" \
	grep -q "^job.yaml:1:1: note: 'job.yaml' is not linted: it lies outside" "$tmp/out"
check "a job spec that is a symlink out: nothing shown" bash -c "! grep -q $secret $tmp/out"
rm job.yaml

# A job spec named outside the repository holds its own repository: the
# current folder is no root of it.
printf 'version: 1\nimage: python:3.11\ncommand: python t.py\n' >"$outside/job.yaml"
printf 'import sys\n' >"$outside/t.py"
run lint "$outside/job.yaml"
check "a job outside the current folder is read in its own folder" test "$rc" -eq 0

# A config may name a rules folder only inside its repository.
cat >"$outside/rules/python/X1-whole-file.scm" <<'EOF'
; id: X1
; name: whole-file
; severity: warning
; category: Syntax Error
; summary: the whole file
; message: '{{finding}}'
; help: none

(module) @finding
EOF
printf 'rules-dir: %s\n' "$outside/rules" >.jobfix.yaml
run lint code.yaml
check "a config's rules-dir out of the repository: a config error" \
	grep -q "the rules folder '$outside/rules' lies outside the repository" "$tmp/err"
check "a config's rules-dir out of the repository: exit 2" test "$rc" -eq 2
rm .jobfix.yaml
run lint --rules-dir "$outside/rules" --select X1 sub/../code.yaml
check "--rules-dir on the command line may be anywhere" test "$rc" -ne 2

# Finding the jobs does not follow a link out of the repository.
mkdir -p "$outside/jobs"
printf 'version: 1\nimage: python:3.11\ncommand: python t.py\n' >"$outside/jobs/job.yaml"
ln -s "$outside/jobs" elsewhere
run lint --verbose
check "discovery: a folder linked out of the repository is not searched" \
	bash -c "! grep -q elsewhere/job.yaml $tmp/out"
check "discovery: --verbose names the link" \
	grep -q "skipped elsewhere/: a folder that cannot be read, or a link out of the repository" "$tmp/err"
rm elsewhere

# 2. --output writes no file through a symlink, nor over a linted file.
printf 'keep\n' >"$outside/bashrc"
ln -s "$outside/bashrc" jobfix.txt
run lint --output jobfix.txt code.yaml
check "--output through a symlink: refused, exit 2" test "$rc" -eq 2
check "--output through a symlink: says why" grep -q "is a symbolic link" "$tmp/err"
check "--output through a symlink: the target is untouched" grep -qx keep "$outside/bashrc"
ln -s "$outside" out
run lint --output out/x.txt code.yaml
check "--output through a symlinked folder: refused" grep -q "a folder on its way is a symbolic link" "$tmp/err"
check "--output through a symlinked folder: nothing written" test ! -e "$outside/x.txt"
run lint --output "$repo/out/x.txt" code.yaml
check "--output through a symlinked folder, named absolute: refused" \
	grep -q "a folder on its way is a symbolic link" "$tmp/err"
printf 'print(1)\n' >t.py
printf 'version: 1\nimage: python:3.11\ncommand: python t.py\n' >t.yaml
run lint --output t.py --output-format json t.yaml
check "--output naming a linted file: refused" grep -q "it is a file the lint read" "$tmp/err"
check "--output naming a linted file: it is untouched" grep -qx 'print(1)' t.py
run lint --output /dev/stdout --output-format json t.yaml
check "--output /dev/stdout (a link to a device) is written" grep -q '"version": 1' "$tmp/out"

# 3. Pathological input ends in bounded time, and says where a limit cut it short.
mkdir -p "$tmp/patho/.git" "$tmp/patho/rules/python"
cd "$tmp/patho" || exit 1
for i in $(seq 0 15); do
	for _ in $(seq 16); do echo "source s$((i + 1)).sh"; done >"s$i.sh"
done
echo 'export READY=1' >s16.sh
printf 'version: 1\nimage: python:3.11\ncommand: bash s0.sh\n' >source.yaml
timed 20 lint source.yaml
check "a script sourced 16 times at 16 levels: done in time" test "$rc" -ne 124
check "a script sourced 16 times at 16 levels: a JF005 note" \
	grep -q "followed no further than here" "$tmp/out"

rule() { # rule ID NAME QUERY: a rule file of the rules folder
	printf '; id: %s\n; name: %s\n; severity: warning\n; category: Syntax Error\n' "$1" "$2"
	printf "; summary: a test rule\n; message: '{{finding}}'\n; help: none\n\n%s\n" "$3"
}
rule X2 nested '((string) @finding (#match? @finding "(a+)+$"))' >rules/python/X2-nested.scm
rule X3 names '(identifier) @finding' >rules/python/X3-names.scm
a60=$(printf 'a%.0s' $(seq 60))
for i in $(seq 2000); do echo "x$i = \"$a60!\""; done >strings.py
timed 20 lint --rules-dir rules strings.py
check "a backtracking regex on 2000 strings: done in time" test "$rc" -ne 124
check "a backtracking regex: a JF005 note naming the rule" \
	grep -q "rule X2 is not fully checked in 'strings.py'" "$tmp/out"
# Counted from the line's start for each finding, these took minutes (text) to
# an hour (SARIF); linear, seconds, and under the sanitizers well inside the limit.
{
	printf 'x = ['
	for _ in $(seq 2000); do printf 'a,%.0s' $(seq 100); done
	printf 'a]\n'
} >line.py
for format in text sarif json github; do
	timed 90 lint --rules-dir rules --format "$format" line.py
	check "200,000 findings on one 400 kB line as $format: done in time" test "$rc" -ne 124
	# A sanitizer build parses too slowly to get to the findings: the time is what counts.
	grep -q "parsing took longer" "$tmp/out" ||
		check "200,000 findings on one 400 kB line as $format: all reported" \
			test "$(wc -c <"$tmp/out")" -gt 2000000
done

mkfifo pipe.txt pipe.sh
printf 'version: 1\nimage:\n  name: python:3.11\n  manifest: pipe.txt\ncommand: bash pipe.sh\n' \
	>fifo.yaml
timed 20 lint fifo.yaml
check "FIFOs as manifest and script: done in time" test "$rc" -ne 124
check "a FIFO as manifest: a JF005 note" \
	grep -q "manifest 'pipe.txt' is not read: not a regular file" "$tmp/out"
check "a FIFO as script: a JF005 note" grep -q "'pipe.sh' is not linted: not a regular file" "$tmp/out"
printf '\357\273\277fail-on: note\nselect: [JF999]\n' >bom.yaml
run lint --config bom.yaml source.yaml
check "a config with a byte-order mark is read whole" grep -q "^bom.yaml:2:10: error: unknown rule 'JF999'" "$tmp/err"
ln -s loop1.sh loop2.sh
ln -s loop2.sh loop1.sh
printf 'version: 1\nimage: python:3.11\ncommand: bash loop1.sh\n' >loop.yaml
timed 20 lint loop.yaml
check "a symbolic link loop as script: done in time" test "$rc" -ne 124

finish
