#!/usr/bin/env python3
"""name_rule_ids.py - rule ids written as strings ("JF102") become their names (JF102)

usage: tools/name_rule_ids.py [FILE...]   (default: the files of lib/ and cmd/ git knows)

The names are those of the generated rule_ids.h (tools/rule_ids.cmake).
Left alone: lib/rules/checks.def, which the names are made from, and the
public header lib/include/, whose comments show the strings a library user
passes. The lines that go on with a statement, aligned after a replaced id,
move left with it. Running it again changes nothing.
"""
import re
import subprocess
import sys

ID = re.compile(r'"(JF[0-9]{3})"')
KEEP = ("lib/rules/checks.def", "lib/include/")


def column(line, i):
    """The visual column of line[i], tabs to 8."""
    col = 0
    for ch in line[:i]:
        col = (col // 8 + 1) * 8 if ch == "\t" else col + 1
    return col


def token_at(line, col):
    """Whether a token of `line` starts at visual column `col`."""
    at = next((i for i in range(len(line)) if column(line, i) == col), None)
    if at is None or line[at] in " \t":
        return False
    return not at or line[at - 1] in " \t("


def name_ids(text):
    out = []
    stmt = []  # (line as written, its shift, the columns of its ids) of the statement so far
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" \t"))
        col = column(line, indent)
        # A line that goes on with the statement keeps its alignment with
        # the token above it that it lines up with, which moved 2 columns
        # left for each replaced id before it.
        shift = 0
        for above, moved, ids in reversed(stmt):
            if token_at(above, col):
                shift = moved + 2 * sum(1 for c in ids if c < col)
                break
        if not (shift and line[indent - shift : indent] == " " * shift):
            shift = 0
        stmt.append((line, shift, [column(line, m.start()) for m in ID.finditer(line)]))
        line = ID.sub(r"\1", line[: indent - shift] + line[indent:])
        out.append(line)
        if line.rstrip().endswith((";", "{", "}")) or not line.strip():
            stmt = []
    return "\n".join(out)


def main(argv):
    files = argv[1:] or subprocess.run(
        ["git", "ls-files", "lib", "cmd"], check=True, capture_output=True, text=True
    ).stdout.split()
    for path in files:
        if path.startswith(KEEP) or not path.endswith((".c", ".h")):
            continue
        with open(path) as f:
            text = f.read()
        named = name_ids(text)
        if named != text:
            with open(path, "w") as f:
                f.write(named)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
