#!/usr/bin/env python3
"""Splits Kestrel's default rules into small seeds for rules_fuzzer.

Each seed is the shared building blocks (the lists and macros before the
first rule) followed by one rule and the lists it names, so every seed loads
and compiles on its own. The hand-written seeds beside them (lists, macros,
append, override, exceptions) are not touched.

  test/fuzz/split_rules_seeds.py [RULES_FILE] [SEED_DIR]
"""
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent
rules = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "../../rules/kestrel_rules.yaml"
out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else here / "corpus/rules_fuzzer"

items, current = [], None
for line in rules.read_text().split("\n"):
    if re.match(r"^- (list|macro|rule|required_engine_version):", line):
        current = [line]
        items.append(current)
    elif current is not None and not line.startswith("#"):
        current.append(line)


def text(item):
    return "\n".join(item).rstrip() + "\n"


first_rule = next(i for i, item in enumerate(items) if item[0].startswith("- rule:"))
header = items[:first_rule]
for old in out.glob("kestrel-*.yaml"):
    old.unlink()
chunk, n = [], 0
for item in items[first_rule:]:
    chunk.append(item)
    if item[0].startswith("- rule:"):
        n += 1
        seed = "".join(text(x) + "\n" for x in header + chunk).rstrip() + "\n"
        (out / f"kestrel-{n:02d}.yaml").write_text(seed)
        chunk = []
print(f"{n} seeds in {out}")
