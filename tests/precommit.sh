#!/usr/bin/env bash
# precommit.sh - jobfix under the pre-commit framework, both ways the README shows:
# the hook of this repository's .pre-commit-hooks.yaml (pre-commit try-repo, and a
# commit through `pre-commit install`), and a `repo: local` hook
#
# usage: precommit.sh JOBFIX SOURCE_DIR
# Exits 77 (skipped) when pre-commit or git is not installed (tools/dev.sh installs both).
set -u
jobfix=$1
src=$2
for tool in git pre-commit; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "$tool is not installed: skipped"
		exit 77
	}
done
# shellcheck source=tests/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"

# git and pre-commit alone: no user config, caches in the test's folder, and
# `jobfix` on PATH is the one under test (language: system runs it from PATH).
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com GIT_CEILING_DIRECTORIES=$tmp
export PRE_COMMIT_HOME=$tmp/cache PRE_COMMIT_COLOR=never NO_COLOR=1
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$tmp/bin"
ln -s "$(realpath "$jobfix")" "$tmp/bin/jobfix"
export PATH=$tmp/bin:$PATH

check "the manifest is valid" pre-commit validate-manifest "$src/.pre-commit-hooks.yaml"

# A hook repository holding this repository's manifest, committed (try-repo
# and `repo:` clone it).
hooks=$tmp/hooks
mkdir -p "$hooks"
cp "$src/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" init -q . && git -C "$hooks" add -A && git -C "$hooks" commit -qm hooks

# A training repository with one clean job.
repo=$tmp/repo
mkdir -p "$repo/jobs/a"
cd "$repo" || exit 2
git init -q . && git config commit.gpgsign false
printf 'version: 1\nimage: python:3.11\ncommand: bash run.sh\n' >jobs/a/job.yaml
printf 'python train.py --epochs 2\n' >jobs/a/run.sh
printf 'import argparse\n\nimport data\n\nparser = argparse.ArgumentParser()\nparser.add_argument("--epochs", type=int)\nargs = parser.parse_args()\n' >jobs/a/train.py
printf 'def load(root):\n    return open(root + "/train.csv")\n' >jobs/a/data.py
git add -A && git commit -qm init

# 1. try-repo on the staged files: a clean change passes, a finding fails.
echo "# reads the training set" >>jobs/a/data.py
git add jobs/a/data.py
pre-commit try-repo "$hooks" jobfix >"$tmp/out" 2>&1
check "try-repo, clean change: passes" test $? -eq 0
check "try-repo, clean change: the hook ran" grep -q "^jobfix\.*Passed" "$tmp/out"
echo 'CACHE = open("/home/alice/cache.bin")' >>jobs/a/data.py
git add jobs/a/data.py
pre-commit try-repo "$hooks" jobfix >"$tmp/out" 2>&1
check "try-repo, finding: fails" test $? -eq 1
check "try-repo, finding: reported" grep -q "jobs/a/data.py:4:14: error: .*JF101" "$tmp/out"
git checkout -q HEAD -- jobs/a/data.py
# A job spec's flag the script does not accept, found through the launch script.
sed -i 's/--epochs 2/--epoch 2 --lr 0.1/' jobs/a/run.sh
git add jobs/a/run.sh
pre-commit try-repo "$hooks" jobfix >"$tmp/out" 2>&1
check "try-repo, a flag the script does not accept: fails" test $? -eq 1
check "try-repo, a flag the script does not accept: JF302" grep -q "JF302 unknown-flag" "$tmp/out"
git checkout -q HEAD -- jobs/a/run.sh
pre-commit try-repo "$hooks" jobfix --all-files >"$tmp/out" 2>&1
check "try-repo --all-files on a clean tree: passes" test $? -eq 0

# 2. The manifest as a `repo:` of .pre-commit-config.yaml, through git commit.
cat >.pre-commit-config.yaml <<EOF
repos:
  - repo: $hooks
    rev: $(git -C "$hooks" rev-parse HEAD)
    hooks:
      - id: jobfix
EOF
git add .pre-commit-config.yaml && git commit -qm "pre-commit config" --no-verify
pre-commit install >"$tmp/out" 2>&1
check "pre-commit install" test $? -eq 0
head=$(git rev-parse HEAD)
printf 'def size(xs):\n    return len(xs)\n' >jobs/a/util.py
echo "import util" >>jobs/a/train.py
git add jobs/a
git commit -qm "clean" >"$tmp/out" 2>&1
check "commit through pre-commit, clean: made" test $? -eq 0 -a "$(git rev-parse HEAD)" != "$head"
head=$(git rev-parse HEAD)
echo 'LOG = open("/Users/bob/log.txt", "w")' >>jobs/a/util.py
git add jobs/a/util.py
git commit -qm "finding" >"$tmp/out" 2>&1
check "commit through pre-commit, finding: blocked" test $? -ne 0 -a "$(git rev-parse HEAD)" = "$head"
check "commit through pre-commit, finding: shown" grep -q "jobs/a/util.py:3:12: error: .*JF101" "$tmp/out"
git checkout -q HEAD -- jobs/a/util.py
pre-commit uninstall >/dev/null 2>&1

# 3. A `repo: local` hook calling a built binary, as the README shows.
cat >.pre-commit-config.yaml <<EOF
repos:
  - repo: local
    hooks:
      - id: jobfix
        name: jobfix
        entry: $(realpath "$jobfix") lint --staged-files
        language: system
        types_or: [yaml, python, shell]
        require_serial: true
EOF
git add .pre-commit-config.yaml && git commit -qm "local hook" --no-verify
pre-commit install >/dev/null 2>&1
head=$(git rev-parse HEAD)
printf 'pip install --user tqdm\npython train.py --epochs 2\n' >jobs/a/run.sh
git add jobs/a/run.sh
git commit -qm "clean" >"$tmp/out" 2>&1
check "repo: local hook, clean: made" test $? -eq 0 -a "$(git rev-parse HEAD)" != "$head"
head=$(git rev-parse HEAD)
printf 'python train.py --epochs 2 --batch-size 8\n' >jobs/a/run.sh
git add jobs/a/run.sh
git commit -qm "finding" >"$tmp/out" 2>&1
check "repo: local hook, finding: blocked" test $? -ne 0 -a "$(git rev-parse HEAD)" = "$head"
check "repo: local hook, finding: shown" grep -q "jobs/a/run.sh:1:28: error: .*JF302" "$tmp/out"

finish
