#!/usr/bin/env python3
"""Where a wasm's code is: its function bodies' bytes by the crate each
function's name starts with, for BENCHMARKS.md ("The page without the
engine").

Reads cargo's output (`target/wasm32-unknown-unknown/release/app.wasm`,
which keeps its `name` section) with the name reader and the classifier of
`check_page_wasm.py`: code over the engine's types that is not the
engine's own (derives, serde's visitors, generic code instantiated on
them) is its own row, apart from the engine's functions.

usage: scripts/wasm_code_by_crate.py WASM
"""
import collections
import re
import sys

from check_page_wasm import leb, names_by_index, owner, sections

CRATE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?=::)")


def bodies_and_names(data):
    """The defined functions' body sizes and the name of every function
    index (imports first, as the index space counts them)."""
    imported, bodies = 0, []
    for section, i, _ in sections(data):
        if section == 2:
            count, j = leb(data, i)
            for _ in range(count):
                for _ in range(2):
                    length, j = leb(data, j)
                    j += length
                kind = data[j]
                j += 1
                if kind == 0:
                    _, j = leb(data, j)
                    imported += 1
                elif kind == 1:
                    flags, j = leb(data, j + 1)
                    _, j = leb(data, j)
                    if flags & 1:
                        _, j = leb(data, j)
                elif kind == 2:
                    flags, j = leb(data, j)
                    _, j = leb(data, j)
                    if flags & 1:
                        _, j = leb(data, j)
                else:
                    j += 2
        elif section == 10:
            count, j = leb(data, i)
            for _ in range(count):
                body, j = leb(data, j)
                bodies.append(body)
                j += body
    return imported, bodies, names_by_index(data) or {}


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(argv[0], "rb") as f:
        imported, bodies, names = bodies_and_names(f.read())
    by_crate = collections.Counter()
    for n, body in enumerate(bodies):
        name = names.get(n + imported, "?")
        first = CRATE.search(name)
        if name.startswith("__wbindgen_describe"):
            crate = "wasm-bindgen's descriptors (not served: wasm-bindgen removes them)"
        elif name.startswith("_R"):
            # The precompiled standard library's own (v0-mangled) symbols.
            crate = "std, core, alloc, compiler_builtins (precompiled)"
        else:
            crate = first.group(0) if first else "(unnamed)"
        if "skyplan_engine::" in name and owner(name)[0] != "engine":
            crate = "over the engine's types"
        by_crate[crate] += body
    print(f"{sum(bodies)} bytes of code in {len(bodies)} functions\n")
    print("| crate | code (B) |\n| --- | ---: |")
    for crate, size in by_crate.most_common(15):
        print(f"| {crate} | {size} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
