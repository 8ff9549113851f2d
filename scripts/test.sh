#!/usr/bin/env bash
# Every check of the project, in order, stopping at the first failure:
# nothing reaches outside the repository, formatting, no import cycles between source files, clippy (native and, for
# the web crate, wasm32), native unit and integration tests, the engine's tests in headless Chrome, the release build
# of the studio, and the end-to-end test of the built studio in Chrome.
# Run `scripts/setup.sh test` first (`make test` does).
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
# Debug-built wasm tests with the demo fixtures need more than the 20 s default.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}"

T0=$SECONDS
LOG="$ROOT/target/make-test.log"
mkdir -p "$ROOT/target"
: >"$LOG"
step() {
	local name="$1"
	shift
	local t=$SECONDS
	printf '\n==> %s\n' "$name"
	"$@" 2>&1 | tee -a "$LOG"
	printf '==> %s: ok (%ds)\n' "$name" $((SECONDS - t))
}

step "the repository stands on its own" python3 scripts/check_self_contained.py --self-test
step "cargo fmt --check" cargo fmt --all -- --check
step "no import cycles between files" python3 scripts/check_cycles.py engine/src report/src cli/src web/src
step "clippy (native)" cargo clippy --workspace --all-targets -- -D warnings
if [ -f web/Cargo.toml ]; then
	step "clippy (web, wasm32)" \
		cargo clippy -p skyplan-web --target wasm32-unknown-unknown --all-targets -- -D warnings
fi
step "cargo test (native)" cargo test --workspace
step "engine tests in headless Chrome" \
	wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver engine
if [ -f web/Cargo.toml ] && [ -f Trunk.toml ]; then
	step "trunk build --release" trunk build --release
	step "end-to-end test in Chrome" bash -c 'cd tests/e2e && node --test --test-concurrency=1 ./*.test.mjs'
else
	printf '\n==> web app not there yet: skipping trunk build and the e2e test\n'
fi
printf '\n==> all checks passed in %ds\n' $((SECONDS - T0))
# One closing line over every runner above: cargo's and wasm-bindgen-test's
# `test result:` lines and node's `# pass` / `# fail` (or `ℹ pass`) lines.
awk '
	/test result: (ok|FAILED)\./ { for (i = 1; i <= NF; i++) { if ($(i + 1) ~ /^passed;/) p += $i; if ($(i + 1) ~ /^failed;/) f += $i } }
	/^(# |ℹ )pass [0-9]+$/ { p += $NF }
	/^(# |ℹ )fail [0-9]+$/ { f += $NF }
	END { printf "tests: %d passed, %d failed\n", p, f }' "$LOG"
