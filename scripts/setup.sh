#!/usr/bin/env bash
# Installs what `make serve`, `make test` and `make bench` need, and nothing
# that is already there: every tool's version is checked first, so a second
# run takes a second or two.
#
#   scripts/setup.sh serve   rustup wasm32 target, trunk, wasm-bindgen-cli,
#                            and every crate of Cargo.lock (cargo fetch)
#   scripts/setup.sh test    the above + wasm-pack, Debian chromium and
#                            chromium-driver, and the e2e test's npm packages
#   scripts/setup.sh bench   same as test
#
# Everything comes from crates.io, Debian or npm by its ordinary client and is
# built here (`cargo install --locked`); nothing downloads a prebuilt binary.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE="${1:-serve}"
case "$MODE" in
serve | test | bench) ;;
*)
	echo "usage: $0 serve|test|bench" >&2
	exit 2
	;;
esac

export PATH="$HOME/.cargo/bin:$PATH"
TRUNK_VERSION=0.21.14
WASM_PACK_VERSION=0.15.1

log() { printf 'setup: %s\n' "$*" >&2; }

# The wasm-bindgen-cli must be exactly the wasm-bindgen the workspace locked.
wasm_bindgen_version() {
	awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$ROOT/Cargo.lock"
}

# Another `cargo install` of ours may still be running (a developer's
# background install): installing the same tool twice at once only wastes the
# machine's two cores, so wait for it, up to 40 minutes.
wait_for_other_installs() {
	local waited=0
	while pgrep -f "cargo install" >/dev/null 2>&1; do
		if [ "$waited" -eq 0 ]; then log "waiting for a running 'cargo install' to finish"; fi
		if [ "$waited" -ge 2400 ]; then
			log "still running after 40 min; going on"
			return
		fi
		sleep 10
		waited=$((waited + 10))
	done
}

# version_of BIN: the second word of `BIN --version` ("trunk 0.21.14"), or "".
version_of() {
	command -v "$1" >/dev/null 2>&1 || return 0
	"$1" --version 2>/dev/null | awk 'NR == 1 { print $2 }'
}

# cargo_tool CRATE VERSION BIN...: installs CRATE@VERSION unless every BIN is
# on PATH and the first one reports VERSION.
cargo_tool() {
	local crate="$1" version="$2"
	shift 2
	local have
	have="$(version_of "$1")"
	local missing=""
	for bin in "$@"; do
		command -v "$bin" >/dev/null 2>&1 || missing="$missing $bin"
	done
	if [ "$have" = "$version" ] && [ -z "$missing" ]; then
		log "$crate $version: ok"
		return
	fi
	wait_for_other_installs
	have="$(version_of "$1")"
	if [ "$have" = "$version" ] && [ -z "$missing" ]; then
		log "$crate $version: ok (installed meanwhile)"
		return
	fi
	log "installing $crate $version (have: '${have:-none}'${missing:+, missing:$missing})"
	cargo install --locked --force "$crate@$version"
}

rust_target() {
	if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
		log "rustup target wasm32-unknown-unknown: ok"
	else
		log "adding rustup target wasm32-unknown-unknown"
		rustup target add wasm32-unknown-unknown
	fi
	# fmt and clippy come with the default profile; add them where a minimal
	# toolchain lacks them.
	if [ "$MODE" != serve ]; then
		for c in rustfmt clippy; do
			if ! rustup component list --installed | grep -q "^$c"; then
				log "adding rustup component $c"
				rustup component add "$c"
			fi
		done
	fi
}

chromium() {
	if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
		log "chromium + chromedriver: ok"
		return
	fi
	local sudo=""
	if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
	log "installing Debian chromium and chromium-driver"
	$sudo apt-get update
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium chromium-driver
}

# npm ci, skipped when node_modules was installed from this very lock file.
e2e_deps() {
	local dir="$ROOT/tests/e2e" stamp sum
	stamp="$dir/node_modules/.skyplan-lock.sha256"
	sum="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
		log "e2e npm packages: ok"
		return
	fi
	log "installing the e2e test's npm packages (npm ci)"
	(cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
	echo "$sum" >"$stamp"
}

# Every crate of the lock file, for all targets: Trunk.toml has trunk build
# offline (`cargo build --offline`), which only works with them fetched.
fetch_crates() {
	log "cargo fetch"
	(cd "$ROOT" && cargo fetch --quiet)
}

rust_target
cargo_tool trunk "$TRUNK_VERSION" trunk
cargo_tool wasm-bindgen-cli "$(wasm_bindgen_version)" wasm-bindgen wasm-bindgen-test-runner
if [ "$MODE" != serve ]; then
	cargo_tool wasm-pack "$WASM_PACK_VERSION" wasm-pack
	chromium
	e2e_deps
fi
fetch_crates
