#!/usr/bin/env bash
# package.sh - build the Debian package, check its fields and contents, and run the jobfix inside it
#
# usage: package.sh CPACK BUILD_DIR SOURCE_DIR JOBFIX HOMEPAGE_URL
#
# The package is built into a fresh temporary folder and unpacked there with
# `dpkg -x`; the unpacked binary lints the demo job and must print exactly its
# expected output (tests/golden.sh).
set -u
cpack=$1
build=$2
src=$3
jobfix=$4
homepage=$5
# shellcheck source=tests/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"

for tool in dpkg-deb dpkg; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "skipped: $tool is not installed (not a Debian system)"
		exit 77
	fi
done

"$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1
rc=$?
check "cpack builds the package" test $rc -eq 0
[[ $rc -eq 0 ]] || cat "$tmp/cpack.log"
debs=("$tmp"/out/*.deb)
check "exactly one .deb" test "${#debs[@]}" -eq 1 -a -f "${debs[0]}"
deb=${debs[0]}
[[ -f $deb ]] || {
	echo "$passed passed, $failed failed"
	exit 1
}

# The control fields.
version=$("$jobfix" --version | awk '{ print $2 }')
check "Package: jobfix" test "$(dpkg-deb -f "$deb" Package)" = jobfix
check "Version: $version (as jobfix --version)" test "$(dpkg-deb -f "$deb" Version)" = "$version"
check "file name jobfix_${version}_<arch>.deb" test "${deb##*/}" = "jobfix_${version}_$(dpkg-deb -f "$deb" Architecture).deb"
check "a Maintainer line" grep -Eq '^.+ <.+>$' <<<"$(dpkg-deb -f "$deb" Maintainer)"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libyaml-0-2 libpcre2-8-0 libc6; do
	check "Depends on $lib ($depends)" grep -Eq "(^|, )$lib( |,|$)" <<<"$depends"
done

# The contents.
dpkg-deb -c "$deb" >"$tmp/contents"
for f in ./usr/bin/jobfix ./usr/share/man/man1/jobfix.1.gz ./usr/share/doc/jobfix/LICENSE \
	./usr/share/doc/jobfix/README.md ./usr/share/doc/jobfix/copyright \
	./usr/share/doc/jobfix/LICENSE.tree-sitter ./usr/share/doc/jobfix/LICENSE.tree-sitter-python \
	./usr/share/doc/jobfix/LICENSE.tree-sitter-bash ./usr/share/doc/jobfix/LICENSE.tree-sitter-toml; do
	check "the package holds $f" grep -Eq " $f\$" "$tmp/contents"
done
check "the binary is executable" grep -Eq '^-rwxr-xr-x root/root .* \./usr/bin/jobfix$' "$tmp/contents"
check "nothing outside /usr" test -z "$(awk '{ print $6 }' "$tmp/contents" | grep -v '^\./usr/\|^\./$')"

# Unpacked into a fresh folder, it runs on its own.
mkdir "$tmp/root"
dpkg -x "$deb" "$tmp/root"
check "dpkg -x unpacks it" test $? -eq 0
bin=$tmp/root/usr/bin/jobfix
check "the unpacked jobfix --version" test "$("$bin" --version)" = "jobfix $version"
# A binary linked with mimalloc (optional, cmake/Deps.cmake) depends on its package.
if objdump -p "$bin" 2>/dev/null | grep -q 'NEEDED *libmimalloc'; then
	check "Depends on libmimalloc2.0 ($depends)" grep -Eq "(^|, )libmimalloc2\.0( |,|$)" <<<"$depends"
fi
out=$(bash "$src/tests/golden.sh" "$bin" "$src/fixtures/demo" "$homepage" 2>&1)
check "the unpacked jobfix lints the demo job as expected ($out)" test $? -eq 0
"$bin" explain JF101 >"$tmp/explain" 2>&1
check "the unpacked jobfix explains JF101" grep -q "FileNotFoundError" "$tmp/explain"

# The man page and the licenses.
doc=$tmp/root/usr/share/doc/jobfix
check "the man page is jobfix(1)" grep -q '^\.TH JOBFIX 1 ' <(gzip -dc "$tmp/root/usr/share/man/man1/jobfix.1.gz")
if command -v man >/dev/null 2>&1; then
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$tmp/root/usr/share/man/man1/jobfix.1.gz" \
		>"$tmp/man.txt" 2>"$tmp/man.err"
	check "man renders the packaged page without warnings" test -s "$tmp/man.txt" -a ! -s "$tmp/man.err"
fi
check "LICENSE is the project's" cmp -s "$doc/LICENSE" "$src/LICENSE"
check "LICENSE names the authors" grep -q "Copyright (c) 2026 The jobfix authors" "$doc/LICENSE"
for pkg in tree-sitter tree-sitter-python tree-sitter-bash @tree-sitter-grammars/tree-sitter-toml; do
	check "LICENSE.${pkg##*/} is a license" grep -q "Permission is hereby granted" "$doc/LICENSE.${pkg##*/}"
	check "copyright names $pkg" grep -q "^$pkg [0-9.]*, from the npm package" "$doc/copyright"
done
check "README.md is the project's" cmp -s "$doc/README.md" "$src/README.md"

finish
