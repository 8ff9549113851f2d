#!/usr/bin/env bash
# The contributor's fast loop (`make check`): the checks that need no browser
# and no release build — nothing reaches outside the repository, the page
# check's own test (the check itself needs the release build: `make test`),
# formatting, no import cycles, clippy, the native tests. `make test` runs these and then
# the browser tests; CI runs `make test`.
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

T0=$SECONDS
step() {
	local name="$1"
	shift
	local t=$SECONDS
	printf '==> %s\n' "$name"
	"$@"
	printf '==> %s: ok (%ds)\n' "$name" $((SECONDS - t))
}

step "the repository stands on its own" python3 scripts/check_self_contained.py
step "the page check classifies names" python3 scripts/check_page_wasm.py --self-test
step "the served wasm loses its names" python3 scripts/strip_wasm_names.py --self-test
step "cargo fmt --check" cargo fmt --all -- --check
step "no import cycles between files" python3 scripts/check_cycles.py engine/src report/src cli/src web/src
step "clippy + build (native, all targets)" lint_env cargo test --workspace --all-targets --no-run --quiet
step "cargo test (native)" lint_env cargo test --workspace --lib --bins --tests --quiet
printf '==> make check passed in %ds\n' $((SECONDS - T0))
