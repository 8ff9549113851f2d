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
