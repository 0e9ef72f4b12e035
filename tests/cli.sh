#!/usr/bin/env bash
# cli.sh - the command line: help, version, usage errors, exit codes, formats, colour, limits
# usage: cli.sh JOBFIX FIXTURES_DIR
set -u
jobfix=$1
fixtures=$2
# shellcheck source=tests/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"

run() { # run ARGS...: sets rc, out, err
	"$jobfix" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

run --help
check "--help exits 0" test "$rc" -eq 0
check "--help prints usage on stdout" grep -q "usage: jobfix" "$tmp/out"
run lint --help
check "lint --help lists --fail-on" grep -q -- "--fail-on" "$tmp/out"
run --version
check "--version" grep -Eq "^jobfix [0-9]+\.[0-9]+\.[0-9]+$" "$tmp/out"

run
check "no command exits 2" test "$rc" -eq 2
check "no command hints at --help" grep -q "see 'jobfix --help'" "$tmp/err"
run frobnicate
check "unknown command exits 2" test "$rc" -eq 2
run lint --bogus x.yaml
check "unknown option exits 2" test "$rc" -eq 2
check "unknown option is named" grep -q "unknown option '--bogus'" "$tmp/err"
check "usage errors hint at lint --help" grep -q "see 'jobfix lint --help'" "$tmp/err"
run lint --format yaml job.yaml
check "unknown format exits 2" test "$rc" -eq 2
run lint --format
check "option without value exits 2" test "$rc" -eq 2
check "option without value is named" grep -q "needs a value" "$tmp/err"
run lint --format yaml
check "usage errors print nothing on stdout" test -z "$out"
run lint --staged job.yaml
check "--staged with a PATH exits 2" test "$rc" -eq 2
check "--staged with a PATH says why" grep -q "no PATH (pass files with --staged-files FILE...)" "$tmp/err"
run lint --staged --staged-files
check "--staged with --staged-files exits 2" test "$rc" -eq 2

# Without PATH: the job specs found from the current folder down.
mkdir -p "$tmp/none/sub" "$tmp/disc"
(cd "$tmp/none" && "$jobfix" lint >"$tmp/out" 2>"$tmp/err")
check "no job specs: exit 0" test $? -eq 0
check "no job specs: says so, with the folder" grep -qx "jobfix: no job files found under $tmp/none" "$tmp/err"
check "no job specs: nothing on stdout" test ! -s "$tmp/out"
(cd "$tmp/none" && "$jobfix" lint --format json >"$tmp/out" 2>/dev/null)
check "no job specs: an empty json document" grep -q '"diagnostics": \[\]' "$tmp/out"
# --verbose names the YAML files found that are no job file, and only those.
printf 'lr: 0.1\nlayers: [64, 128]\n' >"$tmp/none/sub/model.yaml"
(cd "$tmp/none" && "$jobfix" lint --verbose >"$tmp/out" 2>"$tmp/err")
check "--verbose lists a YAML file that is no job" \
	grep -qx "jobfix: skipped sub/model.yaml: a YAML file that is no job file" "$tmp/err"
(cd "$tmp/none" && "$jobfix" lint >"$tmp/out" 2>"$tmp/err")
check "without --verbose a YAML file that is no job is not named" grep -vq "model.yaml" "$tmp/err"
rm "$tmp/none/sub/model.yaml"
# A tree: job specs by name at any depth; hidden folders, node_modules, the
# config's exclude and a symbolic link loop skipped; the config's jobs added.
d=$tmp/disc
mkjob() { # mkjob SPEC: a job whose train.py has a JF101 naming its spec
	mkdir -p "$(dirname "$d/$1")"
	printf 'version: 1\nimage: python:3.11\ncommand: python %s.py\n' "$(basename "$1" .yaml)" >"$d/$1"
	printf 'open("/home/alice/%s")\n' "$1" >"$d/$(dirname "$1")/$(basename "$1" .yaml).py"
}
mkjob job.yaml
mkjob jobs/a/job.yaml
mkjob jobs/b/jobfix.yaml
mkjob jobs/c/resnet.job.yaml
mkjob experiments/e1.yaml
mkjob .hidden/job.yaml
mkjob jobs/.cache/job.yaml
mkjob node_modules/pkg/job.yaml
mkjob vendor/x/job.yaml
mkjob configs/model.yaml
ln -s .. "$d/jobs/loop"
ln -s ../jobs "$d/experiments/jobs-link"
printf 'exclude: [vendor/]\njobs: ["experiments/*.yaml"]\n' >"$d/.jobfix.yaml"
(cd "$d" && "$jobfix" lint --format concise >"$tmp/out" 2>"$tmp/err")
check "discovery: exit 1 (findings)" test $? -eq 1
LC_ALL=C sort -u "$tmp/out" | grep -o "'/home/alice/[^']*'" >"$tmp/found"
printf "'/home/alice/%s'\n" experiments/e1.yaml job.yaml jobs/a/job.yaml jobs/b/jobfix.yaml \
	jobs/c/resnet.job.yaml >"$tmp/want"
check "discovery: the jobs by name and by the config's jobs, nothing hidden, excluded or looped" \
	cmp -s "$tmp/found" "$tmp/want"
[[ -s $tmp/found ]] && ! cmp -s "$tmp/found" "$tmp/want" && diff "$tmp/want" "$tmp/found"
check "discovery: each job once (a link to a folder searched is not searched again)" \
	test "$(wc -l <"$tmp/out")" -eq 5
(cd "$d/jobs" && "$jobfix" lint --format concise >"$tmp/out" 2>/dev/null)
check "discovery from a subfolder: only below it, not through a link to a folder above" \
	test "$(grep -c "/home/alice" "$tmp/out")" -eq 3
(cd "$d" && "$jobfix" lint --no-config --format concise >"$tmp/out" 2>/dev/null)
check "discovery: the exclude is the config's" grep -q "'/home/alice/vendor/x/job.yaml'" "$tmp/out"
check "discovery: the jobs patterns are the config's" bash -c "! grep -q experiments '$tmp/out'"

# Exit codes follow --fail-on; notes never fail by default.
pip=$fixtures/JF104/fires-non-root/job.yaml
run lint "$pip"
check "errors exit 1" test "$rc" -eq 1
run lint --fail-on=error --format concise "$pip"
check "--fail-on=error with errors exits 1" test "$rc" -eq 1
check "concise prints one line per finding" test "$(wc -l <"$tmp/out")" -eq 3
run lint --quiet "$pip"
check "--quiet drops the summary" test -z "$err"
run lint "$fixtures/JF104/silent-root-user/job.yaml"
check "clean job exits 0 and prints nothing" test "$rc" -eq 0 -a -z "$out" -a -z "$err"

# The config: flags, discovery, errors (exit 2, in the format's style).
run lint --help
check "lint --help lists --select, --config, --statistics" \
	bash -c "grep -q -- --select '$tmp/out' && grep -q -- --no-config '$tmp/out' && grep -q -- --statistics '$tmp/out'"
run lint --config x.yaml --no-config "$pip"
check "--config with --no-config exits 2" test "$rc" -eq 2
check "--config with --no-config says why" grep -q "exclude each other" "$tmp/err"
run lint --select JF999 "$pip"
check "unknown rule in --select exits 2" test "$rc" -eq 2
check "unknown rule in --select is named" grep -q "unknown rule 'JF999' in --select" "$tmp/err"
check "a broken config prints nothing on stdout in text" test -z "$out"
run lint --format json --ignore JF999 "$pip"
check "broken config in json: exit 2" test "$rc" -eq 2
check "broken config in json: config_errors on stdout" grep -q '"config_errors": \[' "$tmp/out"
if command -v python3 >/dev/null; then
	check "broken config in json: valid JSON" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out"
fi
run lint --format github --select JF999 "$pip"
check "broken config in github: exit 2" test "$rc" -eq 2
check "broken config in github: an ::error annotation on stdout" \
	grep -q "^::error title=jobfix configuration::unknown rule 'JF999' in --select" "$tmp/out"
check "broken config in github: the summary on stderr" grep -q "nothing was linted" "$tmp/err"
run lint --format sarif --select JF999 --output "$tmp/broken.json" "$pip"
check "broken config in sarif: exit 2" test "$rc" -eq 2
check "broken config in sarif: the invocation failed" grep -q '"executionSuccessful": false' "$tmp/out"
check "broken config in sarif: a configuration notification" \
	grep -q '"toolConfigurationNotifications"' "$tmp/out"
check "broken config in sarif: no results" grep -q '"results": \[\]' "$tmp/out"
check "broken config: --output gets the errors in its format" \
	grep -q '"config_errors": \[' "$tmp/broken.json"
run lint --config "$tmp/missing.yaml" "$pip"
check "missing --config exits 2" test "$rc" -eq 2
check "missing --config says why" grep -q "cannot read the config" "$tmp/err"
run lint --select JF1 --fail-on error "$pip"
check "--select keeps the selected rules" test "$rc" -eq 1
run lint --select JF3 "$pip"
check "--select drops the others" test "$rc" -eq 0 -a -z "$out"
run lint --statistics "$pip"
check "--statistics: exit status as without" test "$rc" -eq 1
check "--statistics: a count per rule" grep -Eq "^ +3  JF104  pip-install-without-user  error$" "$tmp/out"
check "--statistics: a count per category" grep -Eq "^ +3  Permission Denied +Execution environment$" "$tmp/out"
run lint --statistics --format github "$pip"
check "--statistics in github: the annotations" test "$(grep -c '^::error file=' "$tmp/out")" -eq 3
check "--statistics in github: then the table" grep -Eq "^ +3  JF104  pip-install-without-user  error$" "$tmp/out"
run lint --statistics --format sarif --output "$tmp/stats.sarif" "$pip"
check "--statistics in sarif: the results" test "$(grep -c '"ruleId": "JF104"' "$tmp/out")" -eq 3
check "--statistics in sarif: the counts in the run's properties" \
	grep -q '{"rule": "JF104", "name": "pip-install-without-user", "severity": "error", "category": "Permission Denied", "count": 3}' "$tmp/out"
check "--statistics: --output gets the findings only" bash -c "! grep -q statistics '$tmp/stats.sarif'"
run lint --statistics "$fixtures/JF104/silent-root-user/job.yaml"
check "--statistics of a clean job: nothing, exit 0" test "$rc" -eq 0 -a -z "$out"
run lint --coverage --no-cache "$pip"
check "--coverage: exit status as without" test "$rc" -eq 1
check "--coverage: the findings, then the job's coverage" \
	bash -c "grep -q 'JF104' '$tmp/out' && grep -q '^  imports    ' '$tmp/out'"
check "--coverage: the totals last" bash -c "tail -1 '$tmp/out' | grep -q '^coverage: 1 job; arguments checked for '"
run lint --coverage --statistics --no-cache "$pip"
check "--coverage --statistics: the tables, a blank line, the coverage" \
	bash -c "grep -Eq '^ +3  JF104' '$tmp/out' && grep -B1 -q ': [0-9]* Python file' '$tmp/out' && tail -1 '$tmp/out' | grep -q '^coverage: '"
run lint --statistics --format json --no-cache "$pip"
check "--statistics in json has the coverage" grep -q '"coverage": {' "$tmp/out"
run lint --format json --no-cache "$pip"
check "json without --coverage or --statistics has none" bash -c "! grep -q '\"coverage\"' '$tmp/out'"
run lint --coverage --format sarif --no-cache "$pip"
check "--coverage in sarif: in the run's properties" grep -q '"coverage": {' "$tmp/out"
run lint --statistics --format sarif --no-cache "$pip"
check "--statistics in sarif without --coverage has none" bash -c "! grep -q '\"coverage\"' '$tmp/out'"
run lint --coverage --format github --no-cache "$pip"
check "--coverage in github: the annotations, then the coverage" \
	bash -c "grep -q '^::error file=' '$tmp/out' && tail -1 '$tmp/out' | grep -q '^coverage: '"
run lint --coverage "$fixtures/JF104/fires-non-root/setup.sh"
check "--coverage of a file alone: no job, totals of none" grep -q '^coverage: 0 jobs;' "$tmp/out"
mkdir -p "$tmp/cfg/sub" "$tmp/cfg/repo/.git"
cp -r "$(dirname "$pip")" "$tmp/cfg/sub/deeper"
cp -r "$(dirname "$pip")" "$tmp/cfg/repo/src"
printf 'ignore: [JF104]\n' >"$tmp/cfg/.jobfix.yaml"
(cd "$tmp/cfg/sub/deeper" && "$jobfix" lint job.yaml >/dev/null 2>&1)
check "the config of a folder above applies" test $? -eq 0
(cd "$tmp/cfg/sub/deeper" && "$jobfix" lint --no-config job.yaml >/dev/null 2>&1)
check "--no-config reads none" test $? -eq 1
(cd "$tmp/cfg/repo/src" && "$jobfix" lint job.yaml >/dev/null 2>&1)
check "the search stops at a repository's top" test $? -eq 1
printf 'ignore: JF104\n' >"$tmp/cfg/.jobfix.yaml"
(cd "$tmp/cfg/sub/deeper" && "$jobfix" lint job.yaml >/dev/null 2>"$tmp/err")
check "a broken config found above exits 2" test $? -eq 2
check "a broken config found above is shown relative" grep -q "^\.\./\.\./\.jobfix\.yaml:1:9: error: " "$tmp/err"

# Colour: never by default into a pipe, always on request, never with NO_COLOR.
run lint "$pip"
check "no colour into a pipe" bash -c "! grep -q $'\e\\[' '$tmp/out'"
run lint --color always "$pip"
check "--color always colours" grep -q $'\e\[1;31merror' "$tmp/out"
NO_COLOR=1 script -qc "'$jobfix' lint '$pip'" /dev/null >"$tmp/tty" 2>&1 || true
if command -v script >/dev/null; then
	check "NO_COLOR wins on a terminal" bash -c "! grep -q $'\e\\[1;31m' '$tmp/tty'"
fi

# rules: every rule once, with id, name, severity and category.
run rules
check "rules exits 0" test "$rc" -eq 0
check "rules lists JF101" grep -Eq "^JF101 +hard-coded-local-path +error +Path Not Found" "$tmp/out"
check "rules ids are unique" test "$(awk 'NR>1{print $1}' "$tmp/out" | sort | uniq -d | wc -l)" -eq 0

run rules --rules-dir "$fixtures/config/rules-dir/team-rules"
check "rules --rules-dir lists the folder's rules" grep -Eq "^X101 +fixed-cuda-device +warning +GPU Out of Memory" "$tmp/out"
run rules --rules-dir "$tmp/no-such-folder"
check "rules --rules-dir of no folder exits 2" test "$rc" -eq 2
check "rules --rules-dir of no folder says why" grep -q "does not exist" "$tmp/err"

# explain: a rule by id (any case) or name; unknown rules exit 2 with a did-you-mean.
run --help
check "--help lists explain" grep -q "^  explain " "$tmp/out"
run explain
check "explain without RULE exits 2" test "$rc" -eq 2
check "explain without RULE says so" grep -q "no RULE given" "$tmp/err"
check "explain usage errors hint at explain --help" grep -q "see 'jobfix explain --help'" "$tmp/err"
run explain --help
check "explain --help exits 0" test "$rc" -eq 0 -a -n "$out"
run explain JF101
check "explain JF101 exits 0" test "$rc" -eq 0
check "explain JF101 starts with the rule" test "$(head -n 1 "$tmp/out")" = "JF101 hard-coded-local-path"
check "explain shows the run-time error" grep -q "FileNotFoundError: \[Errno 2\] No such file or directory" "$tmp/out"
check "explain shows the category and dimension" grep -q "dimension:  Execution environment" "$tmp/out"
check "explain tells how to silence" grep -q "# jobfix: ignore\[JF101\]" "$tmp/out"
cp "$tmp/out" "$tmp/jf101.txt"
run explain jf101
check "explain takes the id in any case" cmp -s "$tmp/out" "$tmp/jf101.txt"
run explain hard-coded-local-path
check "explain takes the name" cmp -s "$tmp/out" "$tmp/jf101.txt"
run explain --format=markdown JF101
check "explain --format markdown prints the page" grep -qx "# JF101 hard-coded-local-path" "$tmp/out"
check "the page has its sections" test "$(grep -c '^## ' "$tmp/out")" -eq 5
run explain JF10
check "unknown rule exits 2" test "$rc" -eq 2
check "unknown rule: did you mean" grep -q "unknown rule 'JF10'; did you mean 'JF101'?" "$tmp/err"
check "unknown rule prints nothing on stdout" test -z "$out"
run explain unknown-flg
check "misspelt name: did you mean" grep -q "did you mean 'unknown-flag'?" "$tmp/err"
run explain frobnicate
check "far-off rule: exit 2, no suggestion" test "$rc" -eq 2
check "far-off rule: no suggestion" bash -c "! grep -q 'did you mean' '$tmp/err'"
check "unknown rule points at jobfix rules" grep -q "see 'jobfix rules'" "$tmp/err"
run explain JF101 JF102
check "two rules exit 2" test "$rc" -eq 2
run explain --format pdf JF101
check "unknown explain format exits 2" test "$rc" -eq 2
run rules --format markdown
check "rules --format markdown prints the index" grep -q "^| \[JF101 hard-coded-local-path\](rules/JF101-hard-coded-local-path.md) |" "$tmp/out"
run rules --format yaml
check "unknown rules format exits 2" test "$rc" -eq 2
if [[ -w /dev/full ]]; then
	"$jobfix" explain JF101 >/dev/full 2>/dev/null
	check "explain: write error on stdout exits 2" test $? -eq 2
fi

# --verbose: the checks skipped for want of facts, on stderr; stdout unchanged.
unknown=$fixtures/JF110/silent-unknown-image/job.yaml
run lint --color never "$unknown"
cp "$tmp/out" "$tmp/quiet.out"
check "an unknown image: no finding" test -z "$out"
check "without --verbose: no skipped checks" bash -c "! grep -q skipped '$tmp/err'"
run lint --color never --verbose "$unknown"
check "--verbose: stdout unchanged" cmp -s "$tmp/out" "$tmp/quiet.out"
check "--verbose: says JF110 was skipped and how to enable it" \
	grep -q "^jobfix: skipped JF110 missing-package in [^:]*: the image is not in jobfix's catalog; declare image.manifest" "$tmp/err"
check "--verbose: says JF310 needs image.python" grep -q "^jobfix: skipped JF310 .*declare image.python" "$tmp/err"
run lint -v --color never "$fixtures/JF110/fires-manifest/job.yaml"
check "-v: nothing skipped for a job with a manifest" bash -c "! grep -q 'skipped JF110' '$tmp/err'"

# The formats for CI: GitHub annotations and SARIF.
run lint --format github "$pip"
check "github: exits 1 on errors" test "$rc" -eq 1
check "github: one annotation per finding" test "$(grep -c '^::error file=' "$tmp/out")" -eq 3
check "github: no summary line" test -z "$err"
run lint --format sarif "$pip"
check "sarif: exits 1 on errors" test "$rc" -eq 1
check "sarif: a SARIF 2.1.0 log" grep -q '^  "version": "2.1.0",$' "$tmp/out"
cp "$tmp/out" "$tmp/stdout.sarif"
run lint --format json "$pip"
cp "$tmp/out" "$tmp/stdout.json"
run lint --color never "$pip"
cp "$tmp/out" "$tmp/stdout.txt"

# --output FILE: the findings in a second format, while stdout keeps --format.
run lint --format github --output "$tmp/o.sarif" "$pip"
check "--output: exit status of the findings" test "$rc" -eq 1
check "--output: stdout keeps --format" test "$(grep -c '^::error file=' "$tmp/out")" -eq 3
check "--output: .sarif is SARIF" cmp -s "$tmp/o.sarif" "$tmp/stdout.sarif"
check "--output: no temporary file left" test -z "$(find "$tmp" -name '*.tmp')"
run lint --quiet --format concise --output "$tmp/o.json" "$pip"
check "--output: .json is JSON" cmp -s "$tmp/o.json" "$tmp/stdout.json"
check "--output: stdout concise" test "$(wc -l <"$tmp/out")" -eq 3
run lint --quiet --output "$tmp/o.txt" "$pip"
check "--output: .txt is text, without colour" cmp -s "$tmp/o.txt" "$tmp/stdout.txt"
run lint --quiet --output "$tmp/o.log" --output-format=sarif "$pip"
check "--output-format wins over the name" cmp -s "$tmp/o.log" "$tmp/stdout.sarif"
run lint --quiet --output "$tmp/o.json" --output-format sarif "$pip"
check "--output replaces an existing file" cmp -s "$tmp/o.json" "$tmp/stdout.sarif"
run lint --output "$tmp/clean.sarif" "$fixtures/JF104/silent-root-user/job.yaml"
check "--output: clean job exits 0" test "$rc" -eq 0 -a -z "$out"
check "--output: clean job, empty results" grep -q '"results": \[\]' "$tmp/clean.sarif"
run lint --output "$tmp/o.xml" "$pip"
check "--output with an unknown suffix exits 2" test "$rc" -eq 2
check "--output with an unknown suffix asks for --output-format" grep -q "give --output-format" "$tmp/err"
check "--output with an unknown suffix writes nothing" test ! -e "$tmp/o.xml" -a -z "$out"
run lint --output-format json "$pip"
check "--output-format without --output exits 2" test "$rc" -eq 2
run lint --output "$tmp/o.sarif" --output-format yaml "$pip"
check "--output-format unknown exits 2" test "$rc" -eq 2
run lint --output "$tmp/no/such/dir/o.sarif" "$pip"
check "--output into a missing folder exits 2" test "$rc" -eq 2
check "--output into a missing folder says so" grep -q "cannot write '$tmp/no/such/dir/o.sarif': No such file or directory" "$tmp/err"
check "--output failure still prints stdout" test "$(grep -c 'error:.*JF104' "$tmp/out")" -eq 3
run lint --output "$tmp" --output-format json "$pip"
check "--output onto a folder exits 2" test "$rc" -eq 2
if [[ -w /dev/full ]]; then
	run lint --output /dev/full --output-format sarif "$pip"
	check "--output write error exits 2" test "$rc" -eq 2
	check "--output write error says so" grep -q "cannot write '/dev/full'" "$tmp/err"
fi
if [[ $(id -u) -ne 0 ]]; then
	mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
	run lint --output "$tmp/ro/o.sarif" "$pip"
	check "--output into a read-only folder exits 2" test "$rc" -eq 2
fi

# A huge file is skipped with a note, quickly, and does not fail the run.
mkdir -p "$tmp/huge"
printf 'version: 1\nimage: python:3.11\ncommand: python train.py\n' >"$tmp/huge/job.yaml"
head -c 50000000 /dev/zero | tr '\0' '#' >"$tmp/huge/train.py"
start=$(date +%s)
run lint "$tmp/huge/job.yaml"
check "50 MB script: a JF005 note" grep -q "JF005 file-not-linted" "$tmp/out"
check "50 MB script: exit 0 (notes do not fail)" test "$rc" -eq 0
check "50 MB script: within 10 s" test $(($(date +%s) - start)) -le 10
run lint --fail-on note "$tmp/huge/job.yaml"
check "--fail-on note fails on notes" test "$rc" -eq 1
run lint --format github "$tmp/huge/job.yaml"
check "github: a note is a notice" grep -q '^::notice file=.*title=JF005 file-not-linted::' "$tmp/out"
run lint --format sarif "$tmp/huge/job.yaml"
check "sarif: a note has level note" grep -q '"level": "note"' "$tmp/out"

# A 50 MB job spec is a JF005 note, named or found, not read into memory.
head -c 50000000 /dev/zero | tr '\0' '#' >"$tmp/huge/big.yaml"
run lint "$tmp/huge/big.yaml"
check "50 MB job spec: exit 0" test "$rc" -eq 0
check "50 MB job spec: a JF005 note that says why" \
	grep -q "big.yaml:1:1: note: .* is not linted: it is larger than 8 MiB .JF005" "$tmp/out"
mv "$tmp/huge/big.yaml" "$tmp/huge/jobfix.yaml"
(cd "$tmp/huge" && "$jobfix" lint >"$tmp/out" 2>"$tmp/err")
check "50 MB job spec found by discovery: a JF005 note" \
	grep -q "jobfix.yaml:1:1: note: .* is not linted: it is larger than 8 MiB" "$tmp/out"
rm "$tmp/huge/jobfix.yaml"

# Unreadable files: a spec without read permission (skipped when running as root).
if [[ $(id -u) -ne 0 ]]; then
	cp "$pip" "$tmp/noread.yaml" && chmod 000 "$tmp/noread.yaml"
	run lint "$tmp/noread.yaml"
	check "unreadable spec exits 2" test "$rc" -eq 2
fi

# A write error on stdout fails the run.
if [[ -w /dev/full ]]; then
	"$jobfix" lint "$pip" >/dev/full 2>/dev/null
	check "write error on stdout exits 2" test $? -eq 2
fi

# A FIFO is not waited on, whatever its name says it is.
mkfifo "$tmp/pipe.yaml" "$tmp/pipe.sbatch"
run lint "$tmp/pipe.yaml" "$tmp/pipe.sbatch"
check "a FIFO given to lint exits 2" test "$rc" -eq 2
check "a FIFO given to lint is named" grep -q "cannot lint '$tmp/pipe.sbatch': not a regular file" "$tmp/err"
run show "$tmp/pipe.yaml"
check "a FIFO given to show exits 2" test "$rc" -eq 2
rm -f "$tmp/pipe.yaml" "$tmp/pipe.sbatch"

# jobfix show
run show
check "show without a file exits 2" test "$rc" -eq 2
check "show without a file says so" grep -q "no FILE" "$tmp/err"
run show --format yaml "$fixtures/demo/job.yaml"
check "show: unknown format exits 2" test "$rc" -eq 2
run show --no-config "$fixtures/demo/train.py"
check "show of a Python file exits 2" test "$rc" -eq 2
check "show of a Python file says it is no job file" grep -q "is not a job file jobfix reads" "$tmp/err"
run show --no-config "$tmp/none.yaml"
check "show of a missing file exits 2" test "$rc" -eq 2
check "show of a missing file names it" grep -q "cannot read '$tmp/none.yaml'" "$tmp/err"
run show --no-config --format json "$fixtures/demo/job.yaml" "$fixtures/demo/job.yaml"
check "show --format json of two files lists two jobs" test "$(grep -c '^      "file": ' "$tmp/out")" -eq 2

finish
