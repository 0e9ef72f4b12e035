#!/usr/bin/env bash
# staged.sh - `jobfix lint --staged` and `--staged-files` in a throwaway git repository,
# and `jobfix hook install|uninstall` with real commits
#
# usage: staged.sh JOBFIX
# Exits 77 (skipped) when git is not installed.
set -u
jobfix=$1
command -v git >/dev/null 2>&1 || {
	echo "git is not installed: skipped"
	exit 77
}
# shellcheck source=tests/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"

# git alone: no user or system config, no repository around the test's.
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com GIT_CEILING_DIRECTORIES=$tmp
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME"
repo=$tmp/repo
mkdir -p "$repo"
cd "$repo" || exit 2
git init -q . && git config commit.gpgsign false

# Each file holds a finding that names it, so the output tells which files were linted.
bad() { # bad FILE: a Python line with a JF101 naming FILE
	printf 'open("/home/alice/%s")\n' "$1"
}
mkdir -p jobs/a/lib jobs/b tools vendor/v docs
printf 'version: 1\nimage: python:3.11\ncommand: bash run.sh\n' >jobs/a/job.yaml
printf 'python train.py\n' >jobs/a/run.sh
{ printf 'import lib.util\n'; bad jobs/a/train.py; } >jobs/a/train.py
bad jobs/a/lib/util.py >jobs/a/lib/util.py
: >jobs/a/lib/__init__.py
printf 'version: 1\nimage: python:3.11\ncommand: python main.py\n' >jobs/b/job.yaml
bad jobs/b/main.py >jobs/b/main.py
bad tools/export.py >tools/export.py
printf '#!/bin/bash\nls /home/alice/tools/sync\n' >tools/sync
printf 'version: 1\nimage: python:3.11\ncommand: python v.py\n' >vendor/v/job.yaml
bad vendor/v/v.py >vendor/v/v.py
printf '# docs\n' >docs/README.md
printf 'exclude: [vendor/]\n' >.jobfix.yaml
git add -A && git commit -qm init

# staged [ARGS...]: runs `jobfix lint --staged --format concise`, sets rc and
# `linted`, the files named by the findings, sorted, one a line.
staged() {
	"$jobfix" lint --staged --format concise "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	linted=$(grep -o "/home/alice/[^']*" "$tmp/out" | sed 's|^/home/alice/||' | LC_ALL=C sort -u)
}
reset() { git reset -q --hard && git clean -qfd; }

staged
check "nothing staged: exit 0" test "$rc" -eq 0
check "nothing staged: nothing linted" test -z "$(cat "$tmp/out" "$tmp/err")"

echo "x = 1" >>jobs/a/lib/util.py
git add jobs/a/lib/util.py
staged
check "a module a job imports: exit 1" test "$rc" -eq 1
check "a module a job imports: that job, whole" \
	test "$linted" = "$(printf '%s\n' jobs/a/lib/util.py jobs/a/train.py)"
echo "x = 1" >>jobs/b/main.py
staged
check "an unstaged change is not the commit's" test "$linted" = "$(printf '%s\n' jobs/a/lib/util.py jobs/a/train.py)"
reset

echo "python train.py --epochs 1" >>jobs/a/run.sh
git add jobs/a/run.sh
staged
check "a launch script: its job" test "$linted" = "$(printf '%s\n' jobs/a/lib/util.py jobs/a/train.py)"
check "a launch script: exit 1" test "$rc" -eq 1
reset

printf 'env: {A: "1"}\n' >>jobs/b/job.yaml
git add jobs/b/job.yaml
staged
check "a job spec: that job only" test "$linted" = "jobs/b/main.py"
reset

echo "y = 2" >>tools/export.py
echo "ls" >>tools/sync
git add tools
staged
check "scripts no job reads: each alone" test "$linted" = "$(printf '%s\n' tools/export.py tools/sync)"
reset

echo "y = 2" >>vendor/v/v.py
echo "more" >>docs/README.md
mkdir -p .ci node_modules/m
printf 'version: 1\nimage: python:3.11\ncommand: python t.py\nbogus_key: 1\n' >.ci/job.yaml
cp .ci/job.yaml node_modules/m/job.yaml
git add -A
git add -f node_modules
staged
check "excluded, hidden and other files: exit 0" test "$rc" -eq 0
check "excluded, hidden and other files: nothing linted" test ! -s "$tmp/out"
reset

git rm -q tools/export.py
staged
check "a deleted file: nothing linted" test "$rc" -eq 0 -a -z "$linted"
reset

git mv tools/export.py tools/export2.py
staged
check "a renamed file: linted under its new name" grep -q "^tools/export2.py:" "$tmp/out"
reset

printf 'select: [JF1]\n' >>.jobfix.yaml
git add .jobfix.yaml
staged
check "the config itself: every job" \
	test "$linted" = "$(printf '%s\n' jobs/a/lib/util.py jobs/a/train.py jobs/b/main.py)"
reset

echo "z = 3" >>jobs/b/main.py
git add jobs/b/main.py
(cd jobs/a && "$jobfix" lint --staged --format concise >"$tmp/sub" 2>&1)
check "from a subfolder: the whole repository, paths from its top" \
	grep -q "^jobs/b/main.py:1:6: error: " "$tmp/sub"
mkdir -p "$tmp/cfg"
printf 'ignore: [JF101]\n' >"$tmp/cfg/strict.yaml"
(cd jobs/a && "$jobfix" lint --staged --config "$tmp/cfg/strict.yaml" --output ../../../o.json \
	>/dev/null 2>&1)
check "from a subfolder: --config and --output name the current folder's paths" \
	grep -q '"diagnostics": \[\]' "$tmp/o.json"

# --staged-files: the files come from the command line (pre-commit passes them).
"$jobfix" lint --staged-files --format concise jobs/a/lib/util.py docs/README.md >"$tmp/out" 2>&1
check "--staged-files: exit 1" test $? -eq 1
check "--staged-files: the job that imports the file" \
	test "$(grep -c "^jobs/a/" "$tmp/out")" -eq 2 -a "$(grep -c "^jobs/b/" "$tmp/out")" -eq 0
"$jobfix" lint --staged-files vendor/v/v.py vendor/v/job.yaml >"$tmp/out" 2>&1
check "--staged-files: the config's exclude applies to files named" test $? -eq 0 -a ! -s "$tmp/out"
"$jobfix" lint --staged-files >"$tmp/out" 2>&1
check "--staged-files without files: nothing, exit 0" test $? -eq 0 -a ! -s "$tmp/out"
reset

(cd "$tmp" && "$jobfix" lint --staged >"$tmp/out" 2>&1)
check "--staged outside a repository: exit 2" test $? -eq 2
check "--staged outside a repository: says why" grep -q "^jobfix: error: --staged needs a git repository" "$tmp/out"

# hook install / uninstall, and real commits through the hook.
hook=.git/hooks/pre-commit
"$jobfix" hook install >"$tmp/out" 2>&1
check "hook install: exit 0" test $? -eq 0
check "hook install: an executable hook" test -x "$hook"
check "hook install: it runs this jobfix" grep -qF "installed='$(realpath "$jobfix")'" "$hook"
check "hook install: it says where" grep -q "installed the pre-commit hook .git/hooks/pre-commit" "$tmp/out"
cp "$hook" "$tmp/hook.first"
"$jobfix" hook install >"$tmp/out" 2>&1
check "hook install again: its own hook is updated" test $? -eq 0
check "hook install again: says so" grep -q "updated the pre-commit hook" "$tmp/out"
check "hook install again: same hook" cmp -s "$hook" "$tmp/hook.first"

head=$(git rev-parse HEAD)
echo "# a comment" >>tools/export.py
printf 'version: 1\nimage: python:3.11\ncommand: python ok.py\n' >ok.job.yaml
printf 'print("fine")\n' >ok.py
git add ok.job.yaml ok.py
git commit -qm "a clean job" >"$tmp/out" 2>&1
check "hook: a clean commit passes" test $? -eq 0
check "hook: a clean commit is made" test "$(git rev-parse HEAD)" != "$head"
head=$(git rev-parse HEAD)
git add tools/export.py
git commit -qm "a finding" >"$tmp/out" 2>&1
check "hook: a commit with a finding is blocked" test $? -ne 0
check "hook: no commit made" test "$(git rev-parse HEAD)" = "$head"
check "hook: the finding is shown" grep -q "tools/export.py:1:6: error: .*JF101" "$tmp/out"
git commit -q --no-verify -m "forced" >/dev/null 2>&1
check "hook: --no-verify skips it" test "$(git rev-parse HEAD)" != "$head"

printf '#!/bin/sh\nexit 0\n' >"$hook"
"$jobfix" hook install >"$tmp/out" 2>&1
check "hook install over a foreign hook: exit 2" test $? -eq 2
check "hook install over a foreign hook: says why" grep -q "jobfix did not write it" "$tmp/out"
check "hook install over a foreign hook: left alone" grep -qx "exit 0" "$hook"
"$jobfix" hook uninstall >"$tmp/out" 2>&1
check "hook uninstall of a foreign hook: exit 2, left alone" test $? -eq 2 -a -f "$hook"
"$jobfix" hook install --force >"$tmp/out" 2>&1
check "hook install --force: exit 0" test $? -eq 0
check "hook install --force: replaced" grep -q "^# jobfix-hook 1: " "$hook"
check "hook install --force: says so" grep -q "replaced the pre-commit hook" "$tmp/out"
"$jobfix" hook uninstall >"$tmp/out" 2>&1
check "hook uninstall: exit 0" test $? -eq 0
check "hook uninstall: removed" test ! -e "$hook"
"$jobfix" hook uninstall >"$tmp/out" 2>&1
check "hook uninstall without a hook: exit 0" test $? -eq 0

git config core.hooksPath .githooks
"$jobfix" hook install >/dev/null 2>&1
check "hook install follows core.hooksPath" test -x .githooks/pre-commit -a ! -e "$hook"
git config --unset core.hooksPath
rm -rf .githooks

"$jobfix" hook >"$tmp/out" 2>&1
check "hook without an action: exit 2" test $? -eq 2
"$jobfix" hook frobnicate >"$tmp/out" 2>&1
check "hook with an unknown action: exit 2" test $? -eq 2
"$jobfix" hook --help >"$tmp/out" 2>&1
check "hook --help: exit 0" test $? -eq 0
(cd "$tmp" && "$jobfix" hook install >"$tmp/out" 2>&1)
check "hook install outside a repository: exit 2" test $? -eq 2

finish
