#!/usr/bin/env python3
"""Fails when two source files of a crate import each other, directly or
through a longer loop, and when two top-level modules of the engine do:
layers must only look down.

A file's imports are the crate-local paths it names in `use` items and in
inline paths (`crate::a::b::Item`, `super::x::Y`, `self::z`, and in `use`
items also `child::Item` for a child module of the file's own module),
resolved to the file that defines what they point at:

- a path is first resolved to the deepest module that has a file of its own;
- when the next name is one that module brings in with a `use` (a
  `pub use` re-export, or a private `use` that its descendants can name
  through `super::`), the path continues from where that `use` points, so
  `crate::fixtures::Rng` resolves to `fixtures/rng.rs` when
  `fixtures/mod.rs` says `pub use rng::Rng`, not to `fixtures/mod.rs`;
- the `use` lines of a `mod.rs` (re-exports included) are imports of that
  `mod.rs`: a parent that re-exports a child and defines something the child
  uses back is a loop.

`mod` declarations are not imports (a parent declares its children); a
`#[cfg(test)] mod tests { … }` block at the end of a file is skipped (tests
may look anywhere in their own file's module).

The engine (a root ending in `engine/src`, or any root given after
`--layered`) is also checked folder by folder: the graph of its top-level
modules (the first name under the crate root: `agenda`, `harvest`,
`numerics`, …; `lib.rs` itself is left out) must have no loop. Test-only
files (declared under `#[cfg(test)]`, and everything below them) are left out
of that graph: tests sit above every layer and build into no product.

usage: scripts/check_cycles.py [CRATE_SRC_DIR...] [--layered CRATE_SRC_DIR...]
"""
import os
import re
import sys

PATH = re.compile(r"(?<![A-Za-z0-9_:])(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE = re.compile(r"(?<![A-Za-z0-9_])use\s+([^;]*);")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;")
DEFINES = r"\b(?:fn|struct|enum|type|const|static|trait|mod|union|macro_rules!)\s+{}\b"
EXTERNAL = {"std", "core", "alloc"}


def module_of(root, path):
    """The module path (tuple of names) of the file `path` under `root`."""
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def strip(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    # Drop the test module at the end of a file.
    m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
    if m:
        text = text[: m.start()]
    return text


def inline_modules(text):
    """`(start, end, names)` of each inline `mod name { … }` in `text`, with
    the names of the inline modules it sits in."""
    out = []
    for m in re.finditer(r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{", text):
        depth, i = 0, m.end() - 1
        while i < len(text):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        out.append([m.start(), i + 1, m.group(1)])
    spans = []
    for start, end, name in out:
        outer = tuple(n for s, e, n in out if s < start and end <= e)
        spans.append((start, end, outer + (name,)))
    return spans


def tokens(tree):
    return re.findall(r"::|[{},*]|[A-Za-z_][A-Za-z0-9_]*", tree)


def expand(tree):
    """The leaves of a use tree: (segments, alias, glob) triples."""
    toks = tokens(tree)
    pos = [0]
    out = []

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        t = peek()
        pos[0] += 1
        return t

    def parse(prefix):
        segs = list(prefix)
        while True:
            t = peek()
            if t is None or t in (",", "}"):
                if segs != list(prefix):
                    out.append((segs, None, False))
                return
            if t == "::":
                take()
                continue
            if t == "*":
                take()
                out.append((segs, None, True))
                return
            if t == "{":
                take()
                while peek() not in (None, "}"):
                    parse(segs)
                    if peek() == ",":
                        take()
                take()
                return
            take()
            if t == "as":
                alias = take()
                out.append((segs, alias, False))
                return
            segs.append(t)

    while peek() is not None:
        parse([])
        if peek() == ",":
            take()
        elif peek() is not None:
            take()
    return out


class Crate:
    def __init__(self, root):
        self.root = root
        self.files = []
        for d, _, names in os.walk(root):
            for n in sorted(names):
                if n.endswith(".rs"):
                    self.files.append(os.path.abspath(os.path.join(d, n)))
        self.files.sort()
        self.module = {f: module_of(root, f) for f in self.files}
        self.file = {}
        for f, m in self.module.items():
            # `foo.rs` and `foo/mod.rs` both define `foo`; lib.rs wins the root.
            if m not in self.file or f.endswith(("lib.rs", "main.rs")):
                self.file[m] = f
        self.text = {f: strip(open(f, encoding="utf-8").read()) for f in self.files}
        self.raw = {f: open(f, encoding="utf-8").read() for f in self.files}
        # Inline `mod name { … }` blocks: modules defined inside a file.
        self.inline = {f: inline_modules(self.text[f]) for f in self.files}
        for f in self.files:
            for _, _, chain in self.inline[f]:
                self.file.setdefault(self.module[f] + chain, f)
        # Names each module brings in with `use`, and its glob imports.
        self.bindings = {}
        self.globs = {}
        self.uses = {}
        for f in self.files:
            found = []
            for m in USE.finditer(self.text[f]):
                mod = self.module_at(f, m.start())
                for segs, alias, glob in expand(m.group(1)):
                    path = self.absolute(mod, segs)
                    if path is None:
                        continue
                    found.append(path)
                    if glob:
                        self.globs.setdefault(mod, []).append(path)
                        continue
                    name = alias or (segs[-2] if segs[-1] == "self" and len(segs) > 1 else segs[-1])
                    if name in ("self", "crate", "super", "_"):
                        continue
                    self.bindings.setdefault(mod, {})[name] = path
            self.uses[f] = found

    def absolute(self, mod, segs):
        """The crate-absolute module path of `segs` named in module `mod`."""
        segs = [s for s in segs if s != "self" or segs.index(s) == 0]
        if not segs:
            return None
        head = segs[0]
        if head == "crate":
            return tuple(segs[1:])
        if head == "self":
            return mod + tuple(segs[1:])
        if head == "super":
            base = list(mod[:-1])
            rest = segs[1:]
            while rest and rest[0] == "super":
                base = base[:-1]
                rest = rest[1:]
            return tuple(base) + tuple(rest)
        if head in EXTERNAL:
            return None
        if mod + (head,) in self.file:  # a child module, named relatively
            return mod + tuple(segs)
        return None

    def target(self, path, depth=0):
        """The file defining what `path` points at, re-exports followed."""
        i = len(path)
        while i > 0 and path[:i] not in self.file:
            i -= 1
        mod = path[:i]
        if i < len(path) and depth < 32:
            name = path[i]
            bound = self.bindings.get(mod, {}).get(name)
            if bound is not None and bound != path[: i + 1]:
                return self.target(bound + path[i + 1 :], depth + 1)
            for g in self.globs.get(mod, ()):
                gfile = self.target(g, depth + 1)
                if gfile and gfile != self.file.get(mod) and (
                    re.search(DEFINES.format(re.escape(name)), self.text[gfile])
                    or name in self.bindings.get(self.module[gfile], {})
                ):
                    return self.target(g + path[i:], depth + 1)
        return self.file.get(mod)

    def module_at(self, f, pos):
        """The module at offset `pos` of `f`'s text, inline modules included."""
        chain = ()
        for start, end, names in self.inline[f]:
            if start <= pos < end and len(names) > len(chain):
                chain = names
        return self.module[f] + chain

    def imports(self, f):
        paths = list(self.uses[f])
        # Blank out the `use` items (same length, so offsets still place
        # each inline path in its inline module).
        inline = USE.sub(lambda m: " " * len(m.group(0)), self.text[f])
        for m in PATH.finditer(inline):
            mod = self.module_at(f, m.start())
            p = self.absolute(mod, [m.group(1)] + [s for s in m.group(2).split("::") if s])
            if p is not None:
                paths.append(p)
        out = set()
        for p in paths:
            t = self.target(p)
            if t and t != f:
                out.add(t)
        return out

    def graph(self):
        return {f: self.imports(f) for f in self.files}

    def test_files(self):
        """Files that only build under `#[cfg(test)]`, and their descendants."""
        test_mods = set()
        for f in self.files:
            mod = self.module[f]
            for m in TEST_MOD.finditer(re.sub(r"//[^\n]*", "", self.raw[f])):
                test_mods.add(mod + (m.group(1),))
        return {
            f
            for f, m in self.module.items()
            if any(m[: len(t)] == t for t in test_mods)
        }


def components(graph):
    """Strongly connected components of size > 1 (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def a_loop(graph, comp, start):
    """One shortest loop through `start` inside its component."""
    comp = set(comp)
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w not in comp:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return sorted(comp) + [start]


def folder_cycles(crate, graph):
    """Loops between the crate's top-level modules, each with its witnesses."""
    tests = crate.test_files()

    def top(f):
        m = crate.module[f]
        return m[0] if m else None

    folders = {}
    witness = {}
    for f, targets in sorted(graph.items()):
        a = top(f)
        if a is None or f in tests:
            continue
        folders.setdefault(a, set())
        for t in sorted(targets):
            b = top(t)
            if b is None or b == a or t in tests:
                continue
            folders[a].add(b)
            witness.setdefault((a, b), (f, t))
    out = []
    for comp in components(folders):
        loops, seen = [], set()
        for start in comp:
            loop = a_loop(folders, comp, start)
            edges = frozenset(zip(loop, loop[1:]))
            if edges not in seen:
                seen.add(edges)
                loops.append(loop)
        out.append((comp, loops, witness))
    return out


def main():
    args = sys.argv[1:]
    layered = []
    if "--layered" in args:
        i = args.index("--layered")
        layered = args[i + 1 :]
        args = args[:i]
    roots = args + layered or ["engine/src", "report/src", "cli/src", "web/src"]
    bad = 0
    for root in roots:
        crate = Crate(root)
        graph = crate.graph()
        for comp in components(graph):
            bad += 1
            rel = [os.path.relpath(f) for f in comp]
            print(f"import cycle in {root}: " + " <-> ".join(rel))
        if root in layered or os.path.normpath(root).endswith(os.path.join("engine", "src")):
            for comp, loops, witness in folder_cycles(crate, graph):
                bad += 1
                print(f"module loop in {root} between " + ", ".join(comp) + ":")
                shown = set()
                for loop in loops:
                    print("  " + " -> ".join(loop))
                    for step in zip(loop, loop[1:]):
                        if step not in shown:
                            shown.add(step)
                            f, t = witness[step]
                            print(f"    {os.path.relpath(f)} imports {os.path.relpath(t)}")
    if bad:
        print(f"{bad} import cycle(s): layers must only look down.")
        return 1
    print("no import cycles in " + ", ".join(roots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
