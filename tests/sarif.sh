#!/usr/bin/env bash
# sarif.sh - the SARIF output of every fixture case, checked against the official
# SARIF 2.1.0 JSON schema (tests/data) and what GitHub code scanning needs beyond
# it (sarif_check.js); and broken logs, which the checker must reject
#
# usage: sarif.sh JOBFIX FIXTURES_DIR SCHEMA
# node finds the validator's packages through NODE_PATH (set by CTest).
set -u
jobfix=$1
fixtures=$2
schema=$3
checker=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sarif_check.js
# shellcheck source=tests/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"

valid() { # valid [--absolute-uris-ok] FILE...: the checker accepts them
	node "$checker" "$@" >"$tmp/check.out" 2>&1 ||
		{ sed 's/^/  /' "$tmp/check.out" | head -40; return 1; }
}

invalid() { # invalid FILE: the checker rejects it
	node "$checker" "$schema" "$1" >"$tmp/check.out" 2>&1 && return 1
	grep -q "problem" "$tmp/check.out"
}

# Every case, as golden.sh runs it.
n=0
while IFS= read -r dir; do
	args=(job.yaml)
	if [[ -f $dir/args ]]; then
		read -r -a args <"$dir/args"
	fi
	(cd "$dir" && "$jobfix" lint --format sarif "${args[@]}") >"$tmp/case$n.sarif" 2>/dev/null
	n=$((n + 1))
done < <(find "$fixtures" \( -name job.yaml -o -name args \) -printf '%h\n' | sort -u)
check "found the fixture cases" test "$n" -gt 10
check "every case's SARIF is valid ($n cases)" valid "$schema" "$tmp"/case*.sarif

# A file too large to lint: a JF005 note on a file without text.
mkdir -p "$tmp/big"
printf 'version: 1\nimage: python:3.11\ncommand: python train.py\n' >"$tmp/big/job.yaml"
head -c 9000000 /dev/zero | tr '\0' '#' >"$tmp/big/train.py"
(cd "$tmp/big" && "$jobfix" lint --format sarif job.yaml) >"$tmp/big.sarif" 2>/dev/null
check "JF005 note: valid" valid "$schema" "$tmp/big.sarif"
check "JF005 note: level note" grep -q '"level": "note"' "$tmp/big.sarif"

# Absolute paths become file:// URIs: valid SARIF, but not what GitHub maps.
shell_case=$fixtures/JF101/fires-shell
"$jobfix" lint --format sarif "$shell_case/job.yaml" >"$tmp/abs.sarif" 2>/dev/null
check "absolute paths: file:/// URIs" grep -q '"uri": "file:///' "$tmp/abs.sarif"
check "absolute paths: valid SARIF" valid --absolute-uris-ok "$schema" "$tmp/abs.sarif"
check "absolute paths: rejected for GitHub" invalid "$tmp/abs.sarif"

# The checker fails where it should.
(cd "$shell_case" && "$jobfix" lint --format sarif job.yaml) >"$tmp/good.sarif" 2>/dev/null
check "the unbroken log is valid" valid "$schema" "$tmp/good.sarif"

# Each rule's help is its explanation, as `jobfix explain` prints it (the
# golden files show @EXPLAIN@ in its place).
mkdir -p "$tmp/help"
node -e '
	const fs = require("fs");
	const log = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
	for (const r of log.runs[0].tool.driver.rules) {
		fs.writeFileSync(`${process.argv[2]}/${r.id}.txt`, r.help.text);
		fs.writeFileSync(`${process.argv[2]}/${r.id}.md`, r.help.markdown);
	}' "$tmp/good.sarif" "$tmp/help"
helps=("$tmp"/help/*.txt)
check "help: the log has rules" test -e "${helps[0]}"
for f in "${helps[@]}"; do
	id=$(basename "$f" .txt)
	check "help of $id is 'jobfix explain $id'" cmp -s "$f" <("$jobfix" explain "$id")
	check "help of $id is its doc page" cmp -s "$tmp/help/$id.md" \
		<("$jobfix" explain --format markdown "$id" | sed '1,/^$/d')
done
sed 's/"startLine": 3,/"startLine": 0,/' "$tmp/good.sarif" >"$tmp/bad-line.sarif"
check "rejects startLine 0 (schema)" invalid "$tmp/bad-line.sarif"
sed 's/"level": "error"/"level": "fatal"/' "$tmp/good.sarif" >"$tmp/bad-level.sarif"
check "rejects an unknown level (schema)" invalid "$tmp/bad-level.sarif"
sed 's/"ruleId": "JF101"/"ruleId": "JF999"/' "$tmp/good.sarif" >"$tmp/bad-rule.sarif"
check "rejects a ruleId not in the rules" invalid "$tmp/bad-rule.sarif"
sed 's/"ruleIndex": [0-9]*/"ruleIndex": 99/' "$tmp/good.sarif" >"$tmp/bad-index.sarif"
check "rejects a ruleIndex of another rule" invalid "$tmp/bad-index.sarif"
sed 's/"uri": "run.sh"/"uri": "run .sh"/' "$tmp/good.sarif" >"$tmp/bad-uri.sarif"
check "rejects a uri that is not a URI reference (schema)" invalid "$tmp/bad-uri.sarif"
sed '/"partialFingerprints"/s/"[0-9a-f]\{16\}"/"0000000000000000"/' "$tmp/good.sarif" >"$tmp/bad-fp.sarif"
check "rejects one fingerprint for two results" invalid "$tmp/bad-fp.sarif"

# A rule of a project's rules folder: its header's help, no page of jobfix's.
(cd "$fixtures/config/rules-dir" && "$jobfix" lint --format sarif job.yaml) >"$tmp/user.sarif" 2>/dev/null
check "a user's rule: valid" valid "$schema" "$tmp/user.sarif"
check "a user's rule: its help" grep -qF '"text": "use the process'"'"'s local rank: torch.device(f\"cuda:{local_rank}\")"' "$tmp/user.sarif"
check "a user's rule: no helpUri" test "$(grep -c '"helpUri"' "$tmp/user.sarif")" -eq 1

# The config's severities: the results' levels and ruleConfigurationOverrides.
cfg_case=$fixtures/config/ignore-severity-fail-on
(cd "$cfg_case" && "$jobfix" lint --format sarif job.yaml) >"$tmp/cfg.sarif" 2>/dev/null
check "severity overrides: listed" grep -q '"ruleConfigurationOverrides"' "$tmp/cfg.sarif"
check "severity overrides: valid" valid "$schema" "$tmp/cfg.sarif"
sed 's/"level": "note",/"level": "error",/' "$tmp/cfg.sarif" >"$tmp/bad-override.sarif"
check "rejects a result level other than its rule's override" invalid "$tmp/bad-override.sarif"
# --statistics: the counts must be those of the results.
(cd "$cfg_case" && "$jobfix" lint --statistics --format sarif job.yaml) >"$tmp/stats.sarif" 2>/dev/null
check "statistics: valid" valid "$schema" "$tmp/stats.sarif"
sed 's/"count": 1}/"count": 2}/' "$tmp/stats.sarif" >"$tmp/bad-stats.sarif"
check "rejects statistics that do not count the results" invalid "$tmp/bad-stats.sarif"
# A broken config: a failed invocation must say why.
(cd "$fixtures/config/broken-yaml" && "$jobfix" lint --format sarif job.yaml) >"$tmp/broken.sarif" 2>/dev/null
check "broken config: valid" valid "$schema" "$tmp/broken.sarif"
node -e 'const fs = require("fs"), log = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
	delete log.runs[0].invocations[0].toolConfigurationNotifications;
	fs.writeFileSync(process.argv[2], JSON.stringify(log, null, 2));' "$tmp/broken.sarif" "$tmp/bad-broken.sarif"
check "rejects a failed invocation that does not say why" invalid "$tmp/bad-broken.sarif"

finish
