#!/usr/bin/env bash
# golden.sh - run jobfix on one fixture case and compare with its expected outputs byte for byte
#
# usage: golden.sh JOBFIX CASE_DIR HOMEPAGE_URL
# A case is a folder with a job (job.yaml and its code) or with a file `args`
# holding the arguments of `jobfix lint` (default: job.yaml), split at blanks.
# jobfix runs in the case's folder, so a `.jobfix.yaml` there is its config
# (the search for one stops at the repository's top). Expected outputs:
#   expected.txt     text format, --color never, then "--- stderr" and "--- exit N"
#   expected.json    json format
# and, in the cases that have them (create an empty one to add it):
#   expected.show    `jobfix show` of the same files, with expected.show.json its JSON
#   expected.sarif   sarif format, with jobfix's version written @VERSION@ and the
#                    home page (CMake's JF_HOMEPAGE_URL) @HOMEPAGE@
#   expected.FORMAT  any other format as it is printed (expected.github)
#   expected.diff    `jobfix lint --diff`; with it, expected.fixed/ holds the files
#                    `--fix` must leave, run on a copy of the case: a second --fix
#                    changes nothing, files that need no fix keep their bytes
#                    and modification time, and `git apply` of the diff gives
#                    the same files as --fix
# JOBFIX_UPDATE_GOLDEN=1 rewrites them instead of comparing.
set -u
jobfix=$1
case_dir=$2
homepage=$3
cd "$case_dir" || exit 2

args=(job.yaml)
if [[ -f args ]]; then
	read -r -a args <args
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A fact cache of the case's own: the first lint runs, the later ones (the
# other formats, a second text run) give back what it kept.
export XDG_CACHE_HOME=$tmp/cache

# The linted tree must stay untouched: compare a listing before and after.
before=$(find . -mindepth 1 -path ./expected.fixed -prune -o -printf '%p %s %T@\n' | sort)

NO_COLOR= "$jobfix" lint --color never "${args[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
{
	cat "$tmp/out"
	echo "--- stderr"
	cat "$tmp/err"
	echo "--- exit $rc"
} >"$tmp/expected.txt"
NO_COLOR= "$jobfix" lint --color never "${args[@]}" >"$tmp/again" 2>"$tmp/again.err"
again_rc=$?
cache_status=0
if ! cmp -s "$tmp/out" "$tmp/again" || ! cmp -s "$tmp/err" "$tmp/again.err" || ((rc != again_rc)); then
	echo "FAIL: a second lint, from the fact cache, prints something else:"
	diff -u "$tmp/out" "$tmp/again" | head -30
	diff -u "$tmp/err" "$tmp/again.err" | head -10
	cache_status=1
fi
"$jobfix" lint --format json "${args[@]}" >"$tmp/expected.json" 2>/dev/null
outputs=(expected.txt expected.json)
if [[ -f expected.sarif ]]; then
	# The version and the home page are the build's, not the case's: stand-ins
	# replace the version where the driver gives it (version, semanticVersion:
	# whole lines, so that a wrong or missing version still differs) and the
	# home page wherever it stands (informationUri and each rule's help links).
	# A rule's help is its whole explanation: @EXPLAIN@ stands for it here, and
	# tests/sarif.sh checks it against `jobfix explain`.
	version=$("$jobfix" --version)
	version=${version#jobfix }
	"$jobfix" lint --format sarif "${args[@]}" 2>/dev/null |
		awk -v v="$version" -v home="$homepage" '
			$0 == "          \"version\": \"" v "\"," {
				print "          \"version\": \"@VERSION@\","
				next
			}
			$0 == "          \"semanticVersion\": \"" v "\"," {
				print "          \"semanticVersion\": \"@VERSION@\","
				next
			}
			/"help": \{$/ { help = 1; print; next }
			help && /^ *\}/ { help = 0 }
			help && match($0, /^ *"(text|markdown)": "/) {
				print substr($0, 1, RLENGTH) "@EXPLAIN@\"" (/,$/ ? "," : "")
				next
			}
			{
				out = ""
				while (home != "" && (i = index($0, home)) > 0) {
					out = out substr($0, 1, i - 1) "@HOMEPAGE@"
					$0 = substr($0, i + length(home))
				}
				print out $0
			}' >"$tmp/expected.sarif"
	outputs+=(expected.sarif)
fi
# What `jobfix show` understands of the job, in the cases that have them.
if [[ -f expected.show || -f expected.show.json ]]; then
	"$jobfix" show "${args[@]}" >"$tmp/expected.show" 2>&1
	"$jobfix" show --format json "${args[@]}" >"$tmp/expected.show.json" 2>&1
	outputs+=(expected.show expected.show.json)
fi
# Any other format the case has a file for, as it is printed (expected.github).
for f in expected.*; do
	fmt=${f#expected.}
	case $fmt in txt | json | sarif | show | show.json | diff | fixed) continue ;; esac
	[[ -f $f ]] || continue
	"$jobfix" lint --format "$fmt" "${args[@]}" >"$tmp/$f" 2>/dev/null
	outputs+=("$f")
done

# --diff and --fix, in the cases that have them.
fix_status=0
if [[ -f expected.diff ]]; then
	"$jobfix" lint --diff "${args[@]}" >"$tmp/expected.diff" 2>/dev/null
	outputs+=(expected.diff)
	work=$tmp/work
	mkdir -p "$work"
	tar -cf - --exclude=./expected.fixed --exclude='./expected.*' . | tar -xf - -C "$work"
	touch -d '2001-01-01' $(find "$work" -type f)
	stamps() { (cd "$work" && find . -type f -printf '%p %s %T@\n' | sort); }
	(cd "$work" && "$jobfix" lint --fix "${args[@]}" >/dev/null 2>&1)
	for f in $(cd "$work" && find . -type f | sort); do
		if [[ ${JOBFIX_UPDATE_GOLDEN:-} == 1 && ! -f expected.fixed/$f ]] &&
			! cmp -s "$work/$f" "$f"; then
			mkdir -p "$(dirname "expected.fixed/$f")"
			cp "$work/$f" "expected.fixed/$f"
		fi
		if [[ -f expected.fixed/$f ]]; then
			[[ ${JOBFIX_UPDATE_GOLDEN:-} == 1 ]] && cp "$work/$f" "expected.fixed/$f"
			if ! cmp -s "$work/$f" "expected.fixed/$f"; then
				echo "FAIL: --fix left $f other than expected.fixed/$f:"
				diff -u "expected.fixed/$f" "$work/$f" | head -30
				fix_status=1
			fi
		elif ! cmp -s "$work/$f" "$f" || [[ $(stat -c %Y "$work/$f") != $(date -d 2001-01-01 +%s) ]]; then
			echo "FAIL: --fix changed $f, which needs no fix"
			fix_status=1
		fi
	done
	# The diff, applied by git to another copy, gives the same files.
	applied=$tmp/applied
	mkdir -p "$applied"
	tar -cf - --exclude=./expected.fixed --exclude='./expected.*' . | tar -xf - -C "$applied"
	if ! (cd "$applied" && git apply "$tmp/expected.diff" 2>"$tmp/apply.err"); then
		echo "FAIL: git apply refuses the --diff output:"
		cat "$tmp/apply.err"
		fix_status=1
	fi
	for f in $(cd "$work" && find . -type f | sort); do
		if ! cmp -s "$work/$f" "$applied/$f"; then
			echo "FAIL: the --diff output applied gives another $f than --fix"
			fix_status=1
		fi
	done
	first=$(stamps)
	(cd "$work" && "$jobfix" lint --fix "${args[@]}" >/dev/null 2>&1)
	if [[ "$(stamps)" != "$first" ]]; then
		echo "FAIL: a second --fix changed files"
		fix_status=1
	fi
fi

after=$(find . -mindepth 1 -path ./expected.fixed -prune -o -printf '%p %s %T@\n' | sort)
if [[ "$before" != "$after" ]]; then
	echo "FAIL: jobfix changed the linted tree in $case_dir"
	exit 1
fi
if ((rc > 2)); then
	echo "FAIL: jobfix exited with $rc (crash?)"
	cat "$tmp/err"
	exit 1
fi

status=$((fix_status | cache_status))
for f in "${outputs[@]}"; do
	if [[ ${JOBFIX_UPDATE_GOLDEN:-} == 1 ]]; then
		cp "$tmp/$f" "$f"
	elif [[ ! -f $f ]]; then
		echo "FAIL: $case_dir/$f is missing (JOBFIX_UPDATE_GOLDEN=1 writes it)"
		status=1
	elif ! cmp -s "$tmp/$f" "$f"; then
		echo "FAIL: $case_dir/$f differs:"
		diff -u "$f" "$tmp/$f" | head -60
		status=1
	fi
done
exit $status
