# Sourced by scripts/test.sh and scripts/bench.sh: the repository root as
# ROOT (and the working directory), cargo's tools on PATH, and the settings
# wasm-bindgen-test-runner reads to drive Debian's chromium through
# chromedriver with engine/webdriver.json.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$ROOT/engine/webdriver.json"

# Clippy in the same compile as the build (`lint_env cargo test …`): cargo
# clippy is `cargo check` with clippy-driver as the workspace members'
# compiler, and clippy-driver is rustc plus the lints — run under `cargo
# test --no-run` or `trunk build` it lints and generates code in one pass, so
# nothing is compiled once for clippy and again for the tests. The lints are
# the same as `cargo clippy -- -D warnings`; a lint fails the build.
lint_env() {
	RUSTC_WORKSPACE_WRAPPER="$(command -v clippy-driver)" \
		CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" \
		"$@"
}
