#!/usr/bin/env bash
# dev.sh - set up, build and run jobfix from a fresh checkout
#
#   tools/dev.sh demo             build, then lint the demo job in fixtures/demo
#   tools/dev.sh test             build, then run the whole test suite
#   tools/dev.sh test --sanitize  the same under AddressSanitizer + UBSan
#   tools/dev.sh build            build only
#   tools/dev.sh docs             build, then rewrite docs/rules.md and docs/rules/
#                                 from the rule table and rules/<id>.md
#
# Missing Debian packages are installed when run as root (apt-get); the pinned
# tree-sitter packages are fetched by the build itself (npm ci).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# dpkg-dev and file: the Debian package (CPack's shlibdeps); git and pre-commit: the tests
# of `lint --staged`, `hook install` and the pre-commit hook; python3: the parser JF301
# is checked against (tests/syntax_oracle.sh), and the files tree-sitter's profile is
# trained on (cmake/TreeSitterPgo.cmake).
packages=(gcc libc6-dev make cmake pkg-config libyaml-dev libpcre2-dev zlib1g-dev libmimalloc-dev libcmocka-dev diffutils
	go-md2man groff-base dpkg-dev file git pre-commit python3)

missing_packages() {
	local p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
	done
	if ! command -v npm >/dev/null 2>&1; then
		echo nodejs
		echo npm
	fi
}

setup() {
	local missing
	missing=$(missing_packages | tr '\n' ' ')
	[[ -z ${missing// /} ]] && return 0
	if [[ $(id -u) -ne 0 ]]; then
		echo "dev.sh: missing Debian packages: $missing" >&2
		echo "dev.sh: run as root, or: sudo apt-get install $missing" >&2
		exit 2
	fi
	echo "dev.sh: installing $missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

build() { # build DIR [cmake options...]
	local dir=$1
	shift
	cmake -S "$root" -B "$dir" -DJF_TESTS=ON "$@" >/dev/null
	cmake --build "$dir" -j "$(nproc)" >/dev/null
}

case ${1:-} in
demo)
	setup
	build "$root/build" -DCMAKE_BUILD_TYPE=Release
	cd "$root/fixtures/demo"
	# Findings are the point of the demo: exit 0 unless jobfix itself failed.
	"$root/build/jobfix" lint job.yaml || [[ $? -eq 1 ]]
	;;
test)
	setup
	if [[ ${2:-} == --sanitize ]]; then
		dir=$root/build-sanitize
		build "$dir" -DCMAKE_BUILD_TYPE=Debug -DJF_SANITIZE=address,undefined
		export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
		export LSAN_OPTIONS=suppressions=$root/tests/lsan.supp
	else
		dir=$root/build
		build "$dir" -DCMAKE_BUILD_TYPE=Release
	fi
	cd "$dir"
	ctest --output-on-failure -j "$(nproc)"
	;;
build)
	setup
	build "$root/build" -DCMAKE_BUILD_TYPE=Release
	;;
docs)
	setup
	build "$root/build" -DCMAKE_BUILD_TYPE=Release
	cmake --build "$root/build" --target docs >/dev/null
	git -C "$root" status --short -- docs 2>/dev/null || true
	;;
*)
	echo "usage: tools/dev.sh demo | test [--sanitize] | build | docs" >&2
	exit 2
	;;
esac
