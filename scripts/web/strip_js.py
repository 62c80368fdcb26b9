#!/usr/bin/env python3
"""Copies the web player's JavaScript without its comment lines and indentation, for the
size budget (docs/PERFORMANCE.md, "On the web"): whole lines that are `//` comments or inside
a `/* ... */` block opened at the start of a line are dropped, leading whitespace is trimmed.
Code is untouched otherwise (nothing inside a line changes, so strings, regular expressions and
template literals keep their text; a shader in a template literal loses only indentation).

    python3 scripts/web/strip_js.py IN.js OUT.js
"""
import sys


def strip(text: str) -> str:
    out = []
    in_block = False
    in_template = False
    for line in text.split("\n"):
        s = line.strip()
        if in_block:
            if "*/" in s:
                in_block = False
            continue
        if not in_template:
            if s.startswith("//"):
                continue
            if s.startswith("/*"):
                if "*/" not in s:
                    in_block = True
                continue
        # Backticks toggle a template literal (none of ours nest or are escaped).
        if line.count("`") % 2 == 1:
            in_template = not in_template
        out.append(line.lstrip() if s else "")
    return "\n".join(l for l in out if l != "") + "\n"


if __name__ == "__main__":
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    with open(dst, "w", encoding="utf-8") as f:
        f.write(strip(text))
