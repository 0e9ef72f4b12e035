# check.sh - what the test scripts share: a temporary folder and named checks
#
#   . "$(dirname "${BASH_SOURCE[0]}")/check.sh"
#   check "NAME" COMMAND...    # passes when COMMAND succeeds; prints FAIL: NAME otherwise
#   finish                     # the counts; the script's status is 1 when a check failed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # check NAME CONDITION...
	local name=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $name"
	fi
}

finish() {
	echo "$passed passed, $failed failed"
	test "$failed" -eq 0
}
