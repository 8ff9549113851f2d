#!/usr/bin/env bash
# Every check of the project, in order, stopping at the first failure:
# nothing reaches outside the repository, formatting, no import cycles between source files, clippy and the build of
# every native target in one compile, the native unit and integration tests, the engine's tests in headless Chrome,
# clippy and the release build of the studio for wasm32 in one compile, no engine algorithm linked into the page,
# and the end-to-end test of the built studio.
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
step "the page check classifies names" python3 scripts/check_page_wasm.py --self-test
step "the served wasm loses its names" python3 scripts/strip_wasm_names.py --self-test
step "cargo fmt --check" cargo fmt --all -- --check
step "no import cycles between files" python3 scripts/check_cycles.py engine/src report/src cli/src web/src
# One compile for clippy and the tests (`lint_env`, scripts/env.sh): every
# target of every crate (benches included) built once with the lints on, then
# the tests run on what was built. There are no doctests (rustdoc would only
# report "0 tests" per crate), so the run skips them.
step "clippy + build (native, all targets)" lint_env cargo test --workspace --all-targets --no-run
step "cargo test (native)" lint_env cargo test --workspace --lib --bins --tests
# Only the browser test binary (engine/tests/wasm) is built for wasm32, not
# the engine's unit tests; it is linted as it compiles.
step "engine tests in headless Chrome" \
	lint_env wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver engine --test wasm
if [ -f web/Cargo.toml ] && [ -f Trunk.toml ]; then
	# The release build of the page and the worker is also the wasm32 lint
	# (clippy-driver compiles the web, report and engine crates for wasm32).
	step "clippy + trunk build --release (wasm32)" lint_env trunk build --release
	# The page's wasm as cargo wrote it (names kept; wasm-opt drops them from
	# what is served): no engine function but derives and plain helpers.
	step "the page links no engine algorithm" \
		python3 scripts/check_page_wasm.py target/wasm32-unknown-unknown/release/app.wasm
	step "the served wasm carries no function names" python3 scripts/strip_wasm_names.py --check dist
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
