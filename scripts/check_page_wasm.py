#!/usr/bin/env python3
"""Fails when the page's wasm links engine code that is not plain data.

The studio's page holds no algorithm: every engine call crosses the worker
boundary (ARCHITECTURE.md, "Web"). The page may use the engine's *types* —
it deserializes and shows them — so it links their derived impls (serde,
Clone, Debug, PartialEq, Default, …), and a few plain helpers named in
ALLOWED below, each with the reason it is not an algorithm. Any other
function of `skyplan_engine` in the page's wasm is an algorithm (or part of
one) that must move behind the worker boundary: the part's `views.rs`
computes it in the worker and its response carries the result.

How: the check reads the function names of the page's wasm — the `name`
section of the release build cargo writes (`target/wasm32-unknown-unknown/
release/app.wasm`, before wasm-bindgen and wasm-opt, which strip the names
from what is served) — and classifies each by the code it is, not by the
types it mentions: `core::ptr::drop_in_place<skyplan_engine::…>` is core's
code, `<skyplan_engine::T as core::clone::Clone>::clone` a derive,
`skyplan_engine::harvest::…::classify` engine code. The page is built at
opt-level "z", which inlines only tiny functions; an algorithm's entry
point or its helpers keep their names. (An engine function the page calls
from one place only may still be inlined into its caller under LTO and
escape the check: the check guards against linking the engine, it does not
prove the page calls no engine function. The feature split — the page's
half of the `skyplan-web` crate cannot name the worker's modules — and
review do the rest.)

usage: scripts/check_page_wasm.py WASM     check a built page
       scripts/check_page_wasm.py --self-test
"""
import re
import struct
import sys

ENGINE = "skyplan_engine::"

# Engine functions the page may link: plain helpers, not algorithms. A
# prefix of the function's path (its hash left out), and why it may stay.
ALLOWED = [
    ("skyplan_engine::time::", "calendar arithmetic and the one way times and durations are written"),
    ("skyplan_engine::bundle::panels::root_queue", "serde's default for a saved Tuning panel state"),
    ("skyplan_engine::model::skyline::Skyline::peak", "a skyline's largest value, for its label and axis"),
    ("skyplan_engine::tuning::panel::equal_queues", "the Tuning form's starting queues: n of equal share"),
    ("skyplan_engine::runway::answer::Runway::outlook", "a runway's dates and chart, its fields copied, for the panel that shows a run's outlook first"),
]

# A type's own name for a value (`Format::label`, `Policy::name`): what the
# page writes in a field or a legend.
VALUE_NAME = re.compile(r"^skyplan_engine::(?:[a-z_0-9]+::)+[A-Z][A-Za-z0-9]*::(?:name|label|id)$")

# Traits whose impls on engine types are data, not algorithms: the derives
# (serde's and std's), and Display (how a value is written). A hand-written
# impl of another trait (From, Iterator, an engine trait) is engine code.
DATA_TRAITS = (
    "core::clone::Clone",
    "core::marker::",
    "core::fmt::Debug",
    "core::fmt::Display",
    "core::cmp::PartialEq",
    "core::cmp::Eq",
    "core::cmp::PartialOrd",
    "core::cmp::Ord",
    "core::hash::Hash",
    "core::default::Default",
    "serde::",
    "serde_core::",
)

HASH = re.compile(r"(::h[0-9a-f]{16})?(\.\d+)*$")

# Rust's legacy symbol mangling (`_ZN…E`, what cargo's wasm carries; the
# wasm-bindgen output is demangled already): its escapes.
ESCAPES = {
    "SP": "@", "BP": "*", "RF": "&", "LT": "<", "GT": ">", "LP": "(", "RP": ")", "C": ",",
}
ESCAPE = re.compile(r"\$(SP|BP|RF|LT|GT|LP|RP|C|u[0-9a-f]{1,6})\$")


def demangle(symbol):
    """A legacy-mangled Rust symbol (`_ZN…E`) as rustc prints it; any
    other name as it is."""
    if not symbol.startswith("_ZN"):
        return symbol
    i, parts = 3, []
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        length = int(symbol[i:j])
        part = symbol[j : j + length]
        i = j + length
        if part.startswith("_$"):
            part = part[1:]
        part = ESCAPE.sub(lambda m: ESCAPES.get(m.group(1)) or chr(int(m.group(1)[1:], 16)), part)
        parts.append(part.replace("..", "::"))
    if i >= len(symbol) or symbol[i] != "E":
        return symbol
    return "::".join(parts) + symbol[i + 1 :]


def leb(data, i):
    """An unsigned LEB128 at `data[i]`: (value, index after it)."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def sections(data):
    """The wasm's sections, in order: (id, start of its content, end)."""
    if data[:4] != b"\0asm":
        raise ValueError("not a wasm module")
    i = 8
    while i < len(data):
        size, start = leb(data, i + 1)
        yield data[i], start, start + size
        i = start + size


def names_by_index(data):
    """The wasm's function names (its `name` section) by function index,
    in the section's order, or None without one."""
    for section, i, end in sections(data):
        if section == 0:
            length, j = leb(data, i)
            if data[j : j + length] == b"name":
                j += length
                while j < end:
                    kind = data[j]
                    sub_size, j = leb(data, j + 1)
                    if kind == 1:
                        count, k = leb(data, j)
                        names = {}
                        for _ in range(count):
                            index, k = leb(data, k)
                            length, k = leb(data, k)
                            names[index] = demangle(data[k : k + length].decode("utf-8", "replace"))
                            k += length
                        return names
                    j += sub_size
    return None


def function_names(data):
    """The wasm's function names (its `name` section), or None without one."""
    names = names_by_index(data)
    return None if names is None else list(names.values())


def closing(text, start):
    """Index of the `>` closing the `<` at `text[start]`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "<":
            depth += 1
        elif text[i] == ">" and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def split_as(inner):
    """`T as Trait` (at the top level of `inner`) as (T, Trait), or (inner, None)."""
    depth = 0
    for i, c in enumerate(inner):
        if c == "<":
            depth += 1
        elif c == ">" and inner[i - 1] != "-":
            depth -= 1
        elif depth == 0 and inner.startswith(" as ", i):
            return inner[:i], inner[i + 4 :]
        elif depth == 0 and inner.startswith(" for ", i) and inner.startswith("impl "):
            # `impl Trait for T`, as derives in an anonymous `const _` write it.
            return inner[i + 5 :], inner[5:i]
    return inner, None


def is_data_trait(trait):
    return trait.startswith(DATA_TRAITS)


def owner(name):
    """What code a function is: ("engine", path) for the engine's own code,
    ("data", path) for a data impl of an engine type, ("other", path) for
    any other crate's code (generic code over engine types included)."""
    name = HASH.sub("", name)
    if name.startswith("<"):
        end = closing(name, 0)
        self_ty, trait = split_as(name[1:end])
        self_ty = self_ty.lstrip("&").removeprefix("mut ").lstrip("*").removeprefix("const ")
        if trait is None:
            return owner(self_ty + name[end + 1 :])
        if trait.startswith(ENGINE):
            return ("engine", name)
        if self_ty.startswith(ENGINE):
            if is_data_trait(trait):
                return ("data", name)
            # An impl in a derive's anonymous `const _` scope names its
            # trait there: `skyplan_engine::m::_::<impl serde…>`.
            anon = re.search(r"::_::<impl ([^ ]+)", self_ty)
            if anon and is_data_trait(anon.group(1)):
                return ("data", name)
            return ("engine", name)
        return ("other", name)
    path = name.split("<", 1)[0]
    if not path.startswith(ENGINE):
        return ("other", name)
    anon = name.find("::_::<impl ")
    if anon >= 0:
        # `skyplan_engine::m::_::<impl Trait for T>::f`: a derive's impl.
        start = anon + len("::_::")
        end = closing(name, start)
        _, trait = split_as(name[start + 1 : end])
        if trait is not None and is_data_trait(trait):
            return ("data", name)
    return ("engine", name)


def allowed(path):
    return bool(VALUE_NAME.match(path)) or any(path.startswith(prefix) for prefix, _ in ALLOWED)


def violations(names):
    """The engine functions among `names` that are neither data nor allowed."""
    out = []
    for name in names:
        kind, path = owner(name)
        if kind == "engine" and not allowed(path):
            out.append(path)
    return out


def module_of(path):
    """`skyplan_engine::harvest::tenants` of an engine path, for the summary."""
    m = re.search(r"skyplan_engine::[a-z_0-9]+(::[a-z_0-9]+)?", path)
    return m.group(0) if m else path


def check(wasm_path):
    with open(wasm_path, "rb") as f:
        data = f.read()
    names = function_names(data)
    if not names:
        print(
            f"{wasm_path}: no function names (no `name` section): build the page "
            "with its names kept (the release profile must not strip symbols)",
            file=sys.stderr,
        )
        return 1
    if not any("skyplan_web::" in n for n in names):
        print(f"{wasm_path}: no skyplan_web function among {len(names)} names: not the page", file=sys.stderr)
        return 1
    bad = violations(names)
    engine_names = sum(1 for n in names if owner(n)[0] != "other")
    if not bad:
        print(
            f"{wasm_path}: {len(names)} functions, {engine_names} of the engine's "
            "types (derives) or plain helpers, no engine algorithm"
        )
        return 0
    by_module = {}
    for path in bad:
        by_module.setdefault(module_of(path), []).append(path)
    print(f"{wasm_path}: the page links {len(bad)} engine function(s) that are not plain data:", file=sys.stderr)
    for module, paths in sorted(by_module.items()):
        print(f"  {module}: {len(paths)}", file=sys.stderr)
        for p in sorted(set(paths))[:8]:
            print(f"    {p}", file=sys.stderr)
    print(
        "Move the call behind the worker boundary (the part's views.rs computes it, its "
        "response carries the result), or, for a plain helper that is no algorithm, add it "
        "to ALLOWED in scripts/check_page_wasm.py with the reason.",
        file=sys.stderr,
    )
    return 1


def name_section_module(names):
    """A minimal wasm module with a `name` section naming `names` (tests)."""

    def u(n):
        out = bytearray()
        while True:
            byte = n & 0x7F
            n >>= 7
            out.append(byte | (0x80 if n else 0))
            if not n:
                return bytes(out)

    def s(text):
        b = text.encode()
        return u(len(b)) + b

    entries = b"".join(u(i) + s(n) for i, n in enumerate(names))
    sub = bytes([1]) + u(len(u(len(names)) + entries)) + u(len(names)) + entries
    body = s("name") + sub
    return b"\0asm" + struct.pack("<I", 1) + bytes([0]) + u(len(body)) + body


def self_test():
    engine = [
        "skyplan_engine::harvest::tenants::classify::classify::h0123456789abcdef",
        "skyplan_engine::tuning::panel::window_groups::h0123456789abcdef",
        "skyplan_engine::model::skyline::Skyline::area::h0123456789abcdef",
        "skyplan_engine::numerics::kmeans::kmeans::{{closure}}::h0123456789abcdef",
        "<skyplan_engine::shaping::params::Policy as core::convert::From<&str>>::from::h0123456789abcdef",
        "skyplan_engine::harvest::tenants::pattern::label::h0123456789abcdef",
        "<skyplan_engine::forecast::arima::Arima as skyplan_engine::forecast::Forecaster>::fit::h0123456789abcdef",
        "<alloc::vec::Vec<f64> as skyplan_engine::numerics::stats::Stats>::mean::h0123456789abcdef",
        "<skyplan_engine::agenda::plan::Plan>::admit::h0123456789abcdef.12",
    ]
    data = [
        "skyplan_engine::pricing::price::_::<impl serde_core::de::Deserialize for "
        "skyplan_engine::pricing::price::PriceFunction>::deserialize::h0ee24d23c44c760c",
        "<skyplan_engine::pricing::price::_::<impl serde_core::de::Deserialize for "
        "skyplan_engine::pricing::price::PriceFunction>::deserialize::__Visitor as "
        "serde_core::de::Visitor>::visit_map::h0123456789abcdef",
        "<skyplan_engine::shaping::params::Params as core::clone::Clone>::clone::h44cb78e0b097a09c.995",
        "<skyplan_engine::shaping::grid::GridParams as core::default::Default>::default::h4f0ef364b77ad923",
        "<&skyplan_engine::slo::decision::SloDecision as core::fmt::Debug>::fmt::h0123456789abcdef",
        "<skyplan_engine::forecast::step::ForecastMethod as core::fmt::Display>::fmt::h0123456789abcdef",
    ]
    other = [
        "core::ptr::drop_in_place<alloc::vec::Vec<skyplan_engine::tuning::model::QueueConf>>::h34d8c2a03f26967a",
        "<alloc::vec::Vec<skyplan_engine::slo::decision::SloDecision> as core::clone::Clone>::clone::h0123456789abcdef",
        "skyplan_web::parts::slos::desk::SlosDesk::apply::h0123456789abcdef",
        "<T as reactive_graph::traits::With>::try_with::h74a2d0fbd2bfad17",
        "core::ops::function::FnOnce::call_once{{vtable.shim}}::hd432ae75ce882748",
    ]
    helpers = [
        "skyplan_engine::time::format_duration::h14ded37fbf292a02",
        "skyplan_engine::bundle::panels::root_queue::h10c36b9b71e6338a",
        "skyplan_engine::import::format::Format::label::h0123456789abcdef",
        "skyplan_engine::tuning::panel::equal_queues::hd2f5b4905ed8d354",
        "skyplan_engine::model::skyline::Skyline::peak::h5a535958881e8afb",
    ]
    failures = []
    for n in engine:
        if owner(n)[0] != "engine" or not violations([n]):
            failures.append(f"not flagged: {n}")
    for n in data:
        if owner(n)[0] != "data" or violations([n]):
            failures.append(f"flagged as engine code, but data: {n}")
    for n in other:
        if owner(n)[0] != "other" or violations([n]):
            failures.append(f"flagged, but not engine code: {n}")
    for n in helpers:
        if owner(n)[0] != "engine" or violations([n]):
            failures.append(f"an allowed helper flagged: {n}")
    # The parser reads a real name section, and a module without one fails.
    module = name_section_module(engine + data + other)
    if function_names(module) != engine + data + other:
        failures.append("the name section was not read back")
    if function_names(b"\0asm" + struct.pack("<I", 1)) is not None:
        failures.append("a module without names has names")
    if failures:
        print("check_page_wasm self-test failed:\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    print(f"check_page_wasm self-test: {len(engine + data + other + helpers)} names classified as expected")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    return check(argv[0])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
