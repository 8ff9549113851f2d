#!/usr/bin/env python3
"""Trunk's post-build hook: drops the `name` section from the release wasm
that is served, and rewrites the page's integrity hashes to match.

Why: the `name` section maps function indices to Rust symbols — for stack
traces in the browser's devtools, nothing the studio runs needs it — and it
is a quarter of the page's wasm (977 KB of 4.0 MB raw, 200 KB gzip) and
8 % of the worker's. wasm-bindgen drops it only with
`--remove-name-section`, which Trunk 0.21 never passes, and stripping it at
link time (`strip = true`) would also strip cargo's own output, whose names
`scripts/check_page_wasm.py` reads to keep the engine out of the page. So
cargo's output keeps the names, and this hook strips the copy in Trunk's
staging directory, after Trunk has written index.html and before it moves
the staging directory to `dist/`.

Trunk's index.html pins the page's wasm by a `sha384-…` integrity
attribute (the `<link rel="preload">`); the hash of the bytes before the
change is replaced by the hash after, so the browser still checks it. A
debug build (`trunk serve` without `--release`) keeps its names.

usage: run by Trunk (Trunk.toml, `[[hooks]]`), with TRUNK_STAGING_DIR and
       TRUNK_PROFILE set;
       scripts/strip_wasm_names.py --check DIR   fails when a wasm in DIR
                                                  still has its names
       scripts/strip_wasm_names.py --self-test
"""
import base64
import hashlib
import os
import sys

from check_page_wasm import leb, sections

# The custom sections dropped: the function names only.
DROPPED = {b"name"}


def without_names(data):
    """The wasm module `data` without its DROPPED custom sections (every
    other section kept byte for byte, in order)."""
    out = bytearray(data[:8])
    last = 8
    for section, start, end in sections(data):
        if end > len(data):
            raise ValueError(f"a section ends at byte {end}, past the end of the file")
        header = data[last:start]
        last = end
        if section == 0:
            length, name_at = leb(data, start)
            if data[name_at : name_at + length] in DROPPED:
                continue
        out += header + data[start:end]
    return bytes(out)


def sri(data):
    """The subresource-integrity value of `data` as Trunk writes it."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def strip_dir(stage):
    """Strips every wasm in `stage` and rewrites index.html's hashes of the
    ones it pins. Returns (file, bytes before, bytes after) per wasm."""
    html_path = os.path.join(stage, "index.html")
    html = None
    if os.path.exists(html_path):
        with open(html_path, encoding="utf-8") as f:
            html = f.read()
    done = []
    for name in sorted(os.listdir(stage)):
        if not name.endswith(".wasm"):
            continue
        path = os.path.join(stage, name)
        with open(path, "rb") as f:
            before = f.read()
        after = without_names(before)
        if after == before:
            continue
        with open(path, "wb") as f:
            f.write(after)
        if html is not None:
            html = html.replace(sri(before), sri(after))
        done.append((name, len(before), len(after)))
    if html is not None:
        with open(html_path, "w", encoding="utf-8") as f:
            f.write(html)
    return done


def self_test():
    """A module of a type section, a `name` section and a `producers`
    section: only the `name` section goes, and the hash in the HTML follows."""
    import tempfile

    def custom(name, payload):
        body = bytes([len(name)]) + name + payload
        return bytes([0, len(body)]) + body

    typesec = bytes([1, 4, 1, 0x60, 0, 0])
    module = b"\0asm\1\0\0\0" + typesec + custom(b"name", b"\1\2\3") + custom(b"producers", b"x")
    stripped = without_names(module)
    assert stripped == b"\0asm\1\0\0\0" + typesec + custom(b"producers", b"x"), stripped
    assert without_names(stripped) == stripped
    try:
        without_names(b"\0asm\1\0\0\0" + bytes([1, 9, 0]))
    except ValueError:
        pass
    else:
        raise AssertionError("a truncated section must be refused")
    with tempfile.TemporaryDirectory() as stage:
        with open(os.path.join(stage, "a_bg.wasm"), "wb") as f:
            f.write(module)
        with open(os.path.join(stage, "index.html"), "w", encoding="utf-8") as f:
            f.write(f'<link rel="preload" href="/a_bg.wasm" integrity="{sri(module)}">')
        assert strip_dir(stage) == [("a_bg.wasm", len(module), len(stripped))]
        with open(os.path.join(stage, "index.html"), encoding="utf-8") as f:
            assert sri(stripped) in f.read()
    print("strip_wasm_names: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        named = []
        for name in sorted(os.listdir(sys.argv[2])):
            if name.endswith(".wasm"):
                with open(os.path.join(sys.argv[2], name), "rb") as f:
                    data = f.read()
                if without_names(data) != data:
                    named.append(name)
        if named:
            sys.exit(f"{sys.argv[2]}: {', '.join(named)} still carry a name section "
                     "(Trunk.toml's post_build hook did not run)")
        print(f"{sys.argv[2]}: no wasm carries a name section")
        return
    if os.environ.get("TRUNK_PROFILE") != "release":
        return
    stage = os.environ.get("TRUNK_STAGING_DIR")
    if not stage:
        sys.exit("strip_wasm_names: TRUNK_STAGING_DIR is not set (run by Trunk's post_build hook)")
    for name, before, after in strip_dir(stage):
        print(f"strip_wasm_names: {name}: {before} -> {after} bytes (name section dropped)")


if __name__ == "__main__":
    main()
