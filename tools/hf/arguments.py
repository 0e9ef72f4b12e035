#!/usr/bin/env python3
"""arguments.py - data/hf-arguments.txt from the release-by-release facts of transformers' argument dataclasses.

    tools/hf/arguments.py FACTS.yaml > data/hf-arguments.txt

FACTS.yaml holds, for every release of transformers read, the init fields of
TrainingArguments and Seq2SeqTrainingArguments and the option that release's
own hf_argparser.py builds for each (`classes.<class>.fields[].parser`: the
ranges of releases with the same flags, value kind, nargs, required and
choices), and the values of each Enum by release (`enums`). It is made from
each release's source files at its release commit (the `versions` list names
the commits). This script keeps only what the check needs: one line per
field and range, with an Enum's choices split where its values change.
Run by hand; the build only embeds the result.
"""
import sys

import yaml


def key(v):
    return tuple(int(p) for p in v.split("."))


def main():
    facts = yaml.safe_load(open(sys.argv[1]))
    versions = [v["version"] for v in facts["versions"]]
    enums = {e["name"]: e["values"] for e in facts["enums"]}

    def inside(since, until, a, b):
        """Whether range [a, b) of an enum value covers the releases [since, until)."""
        lo = key(a) <= key(since)
        hi = b is None or (until is not None and key(until) <= key(b))
        return lo and hi

    out = []
    w = out.append
    w("# data/hf-arguments.txt - the options transformers' HfArgumentParser makes of the library's")
    w("# argument dataclasses, by release")
    w("#")
    w("# Format: one line per field and range of releases in which HfArgumentParser")
    w("# builds the same option for it, whitespace separated:")
    w("#   class  field  since  until  value  nargs  required  [choice...]")
    w("# `until` is the first release without it (`-`: still in the newest read);")
    w("# value: str, int, float, bool (a word for true or false), bool-no (the")
    w("# same, and --no_<field> turns it off), flag (no value: store_true before")
    w("# 4.3.0), no (only --no_<field> exists), choice (the")
    w("# choices follow), other (a type jobfix does not check: dict, Path, an Enum")
    w("# argparse calls on the word); nargs: 1, ? (the value may be left out), +")
    w("# (one or more); required: 1 when argparse requires the flag. The flags are")
    w("# --<field> (and --<field-with-dashes> from 4.46.0).")
    w("#")
    w("# Source: every release of transformers from %s to %s (%d releases): its" %
      (facts["covered"]["first"], facts["covered"]["latest"], facts["covered"]["count"]))
    w("# src/transformers/training_args.py, training_args_seq2seq.py, trainer_utils.py")
    w("# and hf_argparser.py at the release's commit of github.com/huggingface/transformers")
    w("# (the first and the newest: %s, %s), each" %
      (facts["versions"][0]["commit"], facts["versions"][-1]["commit"]))
    w("# release's own hf_argparser.py run on its fields (from 4.2.0: older parsers")
    w("# are not emulated, so those releases have no lines). tools/hf/arguments.py")
    w("# writes this file from those facts.")
    w("")
    w("# The releases read: the first whose parser is emulated, and the newest.")
    w("@releases 4.2.0 %s" % facts["covered"]["latest"])
    w("")
    kinds = {"str": "str", "int": "int", "float": "float", "bool": "bool", "choice": "choice",
             "none (store_true)": "flag", "none: only the no_flags exist": "no"}
    for cls, body in facts["classes"].items():
        for f in body["fields"]:
            for p in f.get("parser") or []:
                since, until = p["since"], p["until"]
                value = kinds.get(p.get("value"), "other")
                if value == "bool" and p.get("no_flags"):
                    value = "bool-no"
                nargs = str(p.get("nargs", 1)) if p.get("nargs") != 0 else "1"
                required = "1" if p.get("required") else "0"
                choices = [str(c) for c in p.get("choices") or []]
                if p.get("choices_enum"):
                    values = enums[p["choices_enum"]]
                    cuts = sorted({since} | {x for v in values for x in (v["since"], v["until"]) if x
                                             and key(since) < key(x) and (until is None or key(x) < key(until))},
                                  key=key)
                    bounds = cuts + [until]
                    for a, b in zip(bounds, bounds[1:]):
                        ch = [str(v["value"]) for v in values if inside(a, b, v["since"], v["until"])]
                        w(" ".join([cls, f["name"], a, b or "-", "choice", nargs, required] + ch))
                    continue
                if value == "choice" and not choices:
                    value = "other"
                w(" ".join([cls, f["name"], since, until or "-", value, nargs, required] + choices))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
