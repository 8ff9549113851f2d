#!/usr/bin/env python3
"""Fails when a tracked file reaches outside the repository.

A person who clones skyplan has nothing beside it, so no test, bench, default
path, script or document may need a file above the repository's root. This
guard reads every file git tracks and reports, with file:line and the reason:

- an `include_str!` / `include_bytes!` whose path, taken from the file's own
  folder as rustc takes it, leaves the repository or names no file;
- a path literal (in quotes) that climbs with `..` out of the repository,
  taken from the file's folder and from the repository root (the working
  folder of `make`, the CLI and the tests) — flagged when both leave it;
- a path built from `".."` pieces (`os.path.join(HERE, "..", ...)`,
  `path.join(REPO, '..', ...)`) that leaves the repository from the file's
  folder;
- a mention of the sibling folder the project was started from
  (`shared/data`, `shared/seeds`, `shared/BRIEF`);
- a relative link in a Markdown file that leaves the repository or names a
  file that does not exist.

`python3 scripts/check_self_contained.py` checks the repository it sits in;
`--self-test` first runs the guard on a small repository of known-bad and
known-good files and fails if it misses one or flags a good one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

INCLUDE = re.compile(r'include_(?:str|bytes)!\(\s*(?:concat!\([^)]*?)?"([^"]+)"')
QUOTED = re.compile(r'["\']((?:\.\./)+[^"\'\s]*)["\']')
JOIN_PARTS = re.compile(r'(?:os\.path|path)\.(?:join|resolve)\(\s*(\w+)\s*,((?:\s*["\'][^"\']*["\']\s*,?)+)\)')
PIECE = re.compile(r'["\']([^"\']*)["\']')
SIBLING = re.compile(r'\bshared/(?:data|seeds|BRIEF|STYLE|hooks)\b')
MD_LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
TEXT_ENDINGS = (
    ".rs", ".py", ".sh", ".mjs", ".js", ".ts", ".toml", ".md", ".html", ".css",
    ".json", ".yml", ".yaml", "Makefile", ".txt", "run",
)
THIS = "scripts/check_self_contained.py"


def inside(root: str, path: str) -> bool:
    real = os.path.normpath(path)
    return real == root or real.startswith(root + os.sep)


def tracked(root: str) -> list[str]:
    out = subprocess.run(
        ["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
        check=True, capture_output=True, text=True,
    ).stdout
    return [f for f in out.splitlines() if f.endswith(TEXT_ENDINGS)]


def check_file(root: str, rel: str) -> list[str]:
    full = os.path.join(root, rel)
    if not os.path.isfile(full):
        return []
    try:
        text = open(full, encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        return []
    here = os.path.dirname(full)
    problems = []
    markdown = rel.endswith(".md")
    for no, line in enumerate(text.splitlines(), 1):
        where = f"{rel}:{no}"
        if rel == THIS:
            continue
        for m in INCLUDE.finditer(line):
            target = os.path.join(here, m.group(1))
            if not inside(root, target):
                problems.append(f"{where}: include of {m.group(1)!r} leaves the repository")
            elif not os.path.exists(target):
                problems.append(f"{where}: include of {m.group(1)!r} names no file")
        if not markdown:
            for m in QUOTED.finditer(line):
                lit = m.group(1)
                if not inside(root, os.path.join(here, lit)) and not inside(root, os.path.join(root, lit)):
                    problems.append(f"{where}: path {lit!r} leaves the repository")
            for m in JOIN_PARTS.finditer(line):
                pieces = PIECE.findall(m.group(2))
                if ".." in pieces and not inside(root, os.path.join(here, *pieces)):
                    problems.append(f"{where}: joined path {'/'.join(pieces)!r} leaves the repository")
        if SIBLING.search(line):
            problems.append(f"{where}: names the sibling folder {SIBLING.search(line).group(0)!r}")
        if markdown:
            for m in MD_LINK.finditer(line):
                link = m.group(1).split("#", 1)[0]
                if not link or re.match(r"^[a-z][a-z0-9+.-]*:", link):
                    continue
                target = os.path.join(here, link)
                if not inside(root, target):
                    problems.append(f"{where}: link {link!r} leaves the repository")
                elif not os.path.exists(target):
                    problems.append(f"{where}: link {link!r} names no file")
    return problems


def check(root: str) -> list[str]:
    root = os.path.normpath(os.path.abspath(root))
    problems = []
    for rel in tracked(root):
        problems.extend(check_file(root, rel))
    return problems


def self_test() -> None:
    SIB = "shared" + "/" + "data"
    bad = {
        # The sibling folder's name is built, not written, so this file
        # itself never names it.
        "a.rs": 'const X: &str = include_str!("../../' + SIB + '/x.csv");\n',
        "b.rs": 'pub const D: &str = "../outside/data.tsv";\n',
        "c.py": 'X = os.path.join(HERE, "..", "..", "elsewhere", "nab")\n',
        "d.mjs": "const D = path.join(REPO, '..', 'sibling', 'data');\n",
        "e.md": "See [the brief](../BRIEF.md) and [gone](docs/missing.md).\n",
        "f.sh": "cat " + SIB + "/README.md\n",
        "g.rs": 'const Y: &str = include_str!("missing.csv");\n',
    }
    good = {
        "ok.rs": 'const X: &str = include_str!("data/x.csv");\nconst P: &str = "sub/../data/x.csv";\n',
        "tools/ok.py": 'X = os.path.join(HERE, "..", "data")\n',
        "ok.md": "[x](data/x.csv) [web](https://example.org/a) [anchor](#top)\n",
        "data/x.csv": "a,b\n",
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(root, "data"))
        os.makedirs(os.path.join(root, "docs"))
        os.makedirs(os.path.join(root, "tools"))
        for name, body in {**bad, **good}.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(body)
        subprocess.run(["git", "init", "-q", root], check=True)
        found = check(root)
        flagged = {p.split(":", 1)[0] for p in found}
        missed = sorted(set(bad) - flagged)
        wrong = sorted(flagged & set(good))
        if missed or wrong or len([p for p in found if p.startswith("e.md")]) != 2:
            print("check_self_contained self-test failed:", file=sys.stderr)
            print(f"  missed: {missed}\n  flagged good files: {wrong}", file=sys.stderr)
            for p in found:
                print(f"  {p}", file=sys.stderr)
            sys.exit(1)
    print(f"self-test: {len(bad)} bad files flagged, {len(good)} good files passed")


def main() -> None:
    args = sys.argv[1:]
    if "--self-test" in args:
        self_test()
        args.remove("--self-test")
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"{len(problems)} place(s) reach outside the repository or name no file: "
              "copy the data under fixtures/ and point there", file=sys.stderr)
        sys.exit(1)
    print("every tracked file stays inside the repository")


if __name__ == "__main__":
    main()
