#!/usr/bin/env python3
"""Fails when two source files of a crate import each other, directly or
through a longer loop: layers must only look down.

A file's imports are the crate-local paths it names in `use` items and in
inline paths (`crate::a::b::Item`, `super::x::Y`, `self::z`), resolved to the
file that defines the module they point into. `mod` declarations are not
imports (a parent declares its children); a `#[cfg(test)] mod tests` block
is skipped (tests may look anywhere in their own file's module).

usage: scripts/check_cycles.py CRATE_SRC_DIR...
"""
import os
import re
import sys

PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_GROUP = re.compile(r"\buse\s+(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*)\};", re.S)


def module_of(root, path):
    """The module path (list of names) of the file `path` under `root`."""
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel


def file_of(root, module):
    """The file defining `module`, or of its nearest ancestor that exists."""
    while True:
        base = os.path.join(root, *module) if module else root
        for cand in (base + ".rs", os.path.join(base, "mod.rs")):
            if os.path.isfile(cand):
                return cand
        if not module:
            for cand in ("lib.rs", "main.rs"):
                if os.path.isfile(os.path.join(root, cand)):
                    return os.path.join(root, cand)
            return None
        module = module[:-1]


def strip(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    # Drop the test module at the end of a file.
    m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
    if m:
        text = text[: m.start()]
    return text


def resolve(mod, head, rest):
    names = [n for n in rest.split("::") if n]
    if head == "crate":
        base = []
    elif head == "self":
        base = list(mod)
    else:  # super, possibly repeated
        base = list(mod[:-1])
        while names and names[0] == "super":
            base = base[:-1]
            names = names[1:]
    return base + names


def imports(root, path, is_dir_module):
    text = strip(open(path, encoding="utf-8").read())
    mod = module_of(root, path)
    # `super` in a `foo/mod.rs` or `foo.rs` is the parent of `foo` either way.
    paths = []
    for m in USE_GROUP.finditer(text):
        head, prefix, inner = m.group(1), m.group(2), m.group(3)
        for item in re.split(r",(?![^{]*\})", inner):
            item = item.strip().split(" as ")[0].strip()
            if not item or item == "self" or item.startswith("{"):
                paths.append((head, prefix))
                continue
            paths.append((head, prefix + "::" + item.split("::{")[0]))
    text = USE_GROUP.sub("", text)
    for m in PATH.finditer(text):
        paths.append((m.group(1), m.group(2)))
    out = set()
    for head, rest in paths:
        target = file_of(root, resolve(mod, head, rest))
        if target and os.path.abspath(target) != os.path.abspath(path):
            out.add(os.path.abspath(target))
    return out


def cycles(root):
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".rs"):
                files.append(os.path.abspath(os.path.join(d, n)))
    graph = {f: imports(root, f, f.endswith("mod.rs")) for f in files}
    # A parent module file re-exporting a child is not a cycle by itself; a
    # child importing its own parent (mod.rs/lib.rs) while the parent imports
    # it is. Report every strongly connected component of size > 1.
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for f in sorted(graph):
        if f not in index:
            visit(f)
    return out


def main():
    roots = sys.argv[1:] or ["engine/src", "cli/src", "web/src"]
    bad = 0
    for root in roots:
        for comp in cycles(root):
            bad += 1
            rel = [os.path.relpath(f) for f in comp]
            print(f"import cycle in {root}: " + " <-> ".join(rel))
    if bad:
        print(f"{bad} import cycle(s): layers must only look down.")
        return 1
    print("no import cycles in " + ", ".join(roots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
