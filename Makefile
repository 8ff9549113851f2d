# skyplan — the two README commands (and the benchmarks).
#
#   make serve   install what is missing, then serve the studio on
#                http://127.0.0.1:8080 (release build, rebuilt on change)
#   make check   the fast loop, no browser: the self-containment guard, fmt,
#                the cycle check, clippy and the native tests
#   make test    install what is missing, then every check: fmt, clippy,
#                native tests, engine tests in headless Chrome, the release
#                build and the end-to-end test in Chrome
#   make bench   import throughput, native and in headless Chrome
#
# All three are idempotent: installed tools are only checked, not rebuilt.

SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)

.PHONY: serve check test bench setup

setup:
	bash scripts/setup.sh test

serve:
	bash scripts/setup.sh serve
	trunk serve --release --address 127.0.0.1 --port 8080

check:
	bash scripts/check.sh

test:
	bash scripts/setup.sh test
	bash scripts/test.sh

bench:
	bash scripts/setup.sh bench
	bash scripts/bench.sh
