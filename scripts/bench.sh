#!/usr/bin/env bash
# Import throughput, native and in headless Chrome, plus the studio's release
# wasm size; prints the markdown tables and rewrites the generated part of
# BENCHMARKS.md (between the `bench:begin` and `bench:end` markers).
#
#   scripts/bench.sh                 1, 10 and 100 MB
#   SKYPLAN_BENCH_SIZES=1,10 scripts/bench.sh
#
# Run `scripts/setup.sh bench` first (`make bench` does).
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export WASM_BINDGEN_TEST_TIMEOUT=1800
SIZES="${SKYPLAN_BENCH_SIZES:-1,10,100}"
export SKYPLAN_BENCH_SIZES="$SIZES"
OUT="$ROOT/target/bench"
mkdir -p "$OUT"

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "==> native: cargo bench -p skyplan-bench --bench import -- --sizes $SIZES"
cargo bench -p skyplan-bench --bench import -- --sizes "$SIZES" | tee "$OUT/native.log"

echo "==> headless Chrome: wasm-pack test --release bench"
wasm-pack test --release --headless --chrome --chromedriver /usr/bin/chromedriver \
	bench --test wasm -- --nocapture 2>&1 | tee "$OUT/wasm.log"

# The studio's release wasm, as served.
if [ -f web/Cargo.toml ] && [ -f Trunk.toml ]; then
	echo "==> trunk build --release"
	trunk build --release
fi
sizes_table() {
	local found=0
	echo "| file | raw | gzip -9 |"
	echo "| --- | ---: | ---: |"
	for f in dist/*.wasm; do
		[ -f "$f" ] || continue
		found=1
		local raw gz
		raw=$(stat -c %s "$f")
		gz=$(gzip -9 -c "$f" | wc -c)
		awk -v n="$(basename "$f")" -v r="$raw" -v g="$gz" 'BEGIN {
			printf "| `%s` | %d bytes (%.2f MB) | %d bytes (%.2f MB) |\n", n, r, r / 1e6, g, g / 1e6 }'
	done
	if [ "$found" -eq 0 ]; then echo "| (no dist/*.wasm: the web app was not built) | | |"; fi
}

throughput_table() {
	grep -h '^BENCH ' "$OUT/native.log" "$OUT/wasm.log" | awk '
		{ key = $3 " " $4; mbs[$2 "," key] = $8; bytes[key] = $5; if (!(key in seen)) { seen[key] = 1; order[n++] = key } }
		END {
			print "| input | size | native MB/s | headless Chrome MB/s | native / wasm |"
			print "| --- | ---: | ---: | ---: | ---: |"
			for (i = 0; i < n; i++) {
				split(order[i], k, " ")
				name = (k[1] == "utilization-long-csv") ? "utilization CSV (long)" : (k[1] == "native-log" ? "Hadoop native log" : k[1])
				nat = mbs["native," order[i]]; was = mbs["wasm," order[i]]
				ratio = (nat != "" && was != "" && was > 0) ? sprintf("%.2f×", nat / was) : "–"
				printf "| %s | %d MB (%d bytes) | %s | %s | %s |\n", name, k[2], bytes[order[i]], (nat == "" ? "–" : nat), (was == "" ? "–" : was), ratio
			}
		}'
}

cpu="$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
{
	echo "<!-- bench:begin (written by scripts/bench.sh; edit outside the markers) -->"
	echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores (${cpu:-unknown CPU}), $(free -g | awk '/^Mem:/ { print $2 }') GiB;"
	echo "$(rustc --version), $(chromium --version 2>/dev/null | head -1 || echo 'chromium ?');"
	echo "load average (1, 5, 15 min) $LOAD_BEFORE before the run, $(cut -d' ' -f1-3 /proc/loadavg) after."
	echo "Median of 15 (1 MB), 7 (10 MB) or 3 (100 MB) imports through \`Importer\` in 4 MiB chunks,"
	echo "format detected, strict; MB = 10⁶ bytes."
	echo
	throughput_table
	echo
	echo "Studio release wasm (\`trunk build --release\`, \`dist/\`):"
	echo
	sizes_table
	echo "<!-- bench:end -->"
} >"$OUT/results.md"

echo
cat "$OUT/results.md"

# Splice into BENCHMARKS.md.
if [ -f BENCHMARKS.md ] && grep -q '<!-- bench:begin' BENCHMARKS.md; then
	awk -v f="$OUT/results.md" '
		/<!-- bench:begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
		/<!-- bench:end -->/ { skip = 0; next }
		!skip { print }' BENCHMARKS.md >"$OUT/BENCHMARKS.md.new"
	mv "$OUT/BENCHMARKS.md.new" BENCHMARKS.md
	echo "==> BENCHMARKS.md updated"
fi
