#!/usr/bin/env bash
# Usage: fuzz/fuzz.sh [-t SECONDS] [TARGET...]
#
# Builds the fuzz targets with cargo-fuzz (stable toolchain, no sanitizer), then runs each named
# target (default: all of them) for at most SECONDS (default 10) and prints one line per target:
#
# - an ordinary target runs on fuzz/corpus/<target> (new inputs land there) plus the committed
#   fuzz/corpus-regression/<target>; any crash fails the run and leaves its input in
#   fuzz/artifacts/<target>/;
# - a mutant target (mutants_*) starts from an empty corpus and must find its planted bug within
#   SECONDS (long inputs are tried from the start: -len_control=0); the line gives the time and
#   the executions it took, and the finding input is kept as fuzz/artifacts/<target>/found.
#
# Exit status: 0 when every target behaved, 1 when one did not, 2 on a usage error, 127 when
# cargo-fuzz is missing (install it with `cargo install cargo-fuzz --locked`).
set -euo pipefail
cd "$(dirname "$0")"

seconds=10
if [[ "${1:-}" == "-t" ]]; then
    [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || { echo "usage: $0 [-t SECONDS] [TARGET...]" >&2; exit 2; }
    seconds=$2
    shift 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "error: cargo-fuzz is not installed: cargo install cargo-fuzz --locked" >&2
    exit 127
fi

cargo fuzz build -O --sanitizer none >&2
bin_dir="target/$(rustc -vV | sed -n 's/^host: //p')/release"
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || mapfile -t targets < <(cargo fuzz list)

stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }

failed=0
for target in "${targets[@]}"; do
    [[ -x "$bin_dir/$target" ]] || { echo "error: no target $target" >&2; exit 2; }
    log=$(mktemp)
    work=$(mktemp -d)
    mkdir -p "artifacts/$target"
    start=$(date +%s%N)
    if [[ "$target" == mutants_* ]]; then
        # A finding input left by an earlier run must not pass for this run's.
        rm -f "artifacts/$target/found"
        status=0
        "$bin_dir/$target" -max_total_time="$seconds" -print_final_stats=1 -len_control=0 \
            -exact_artifact_path="artifacts/$target/found" "$work" >"$log" 2>&1 || status=$?
        elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
        runs=$(stat number_of_executed_units "$log")
        if [[ $status -ne 0 && -f "artifacts/$target/found" ]]; then
            printf '%-40s found the planted bug in %6d ms after %s executions\n' "$target" "$elapsed" "${runs:-?}"
        else
            printf '%-40s MISSED its planted bug in %d s (%s executions)\n' "$target" "$seconds" "${runs:-?}"
            failed=1
        fi
    else
        mkdir -p "corpus/$target"
        status=0
        "$bin_dir/$target" -max_total_time="$seconds" -print_final_stats=1 \
            -artifact_prefix="artifacts/$target/" "corpus/$target" "corpus-regression/$target" \
            >"$log" 2>&1 || status=$?
        runs=$(stat number_of_executed_units "$log")
        rate=$(stat average_exec_per_sec "$log")
        if [[ $status -eq 0 ]]; then
            printf '%-40s ok: %s executions, %s per second\n' "$target" "${runs:-?}" "${rate:-?}"
        else
            printf '%-40s CRASHED (exit %d); see artifacts/%s/ and the log below\n' "$target" "$status" "$target"
            grep -E "panicked|ERROR" "$log" | head -n 5
            failed=1
        fi
    fi
    rm -rf "$log" "$work"
done
exit "$failed"
