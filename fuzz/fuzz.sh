#!/usr/bin/env bash
# Usage: fuzz/fuzz.sh [-c] [-P BUG] [-t SECONDS] [-j JOBS] [TARGET...] [-- BUILD_OPTION...]
#        fuzz/fuzz.sh -n TARGET... [-- BUILD_OPTION...]
#        fuzz/fuzz.sh -r SEEDS [-p] [-t SECONDS] [TARGET...] [-- BUILD_OPTION...]
#
# Builds the fuzz targets with cargo-fuzz (stable toolchain, no sanitizer; one cargo build for
# all of them), then runs each named target (default: all of them) for at most SECONDS
# (default 10), JOBS at a time (default 1; one per core is what CI uses), and prints one line
# per target as it ends. Each target's inputs are at most the max_len that oss-fuzz-targets
# gives it (libFuzzer's own default would stop at 4,096 bytes), and a target listed there runs
# with its dictionary (fuzz/dictionaries/), as OSS-Fuzz runs it. -n prints the command line each
# named target would run, without building or running anything.
#
# - an ordinary target runs on fuzz/corpus/<target> (new inputs land there) plus the committed
#   fuzz/corpus-regression/<target>; any crash fails the run and leaves its input in
#   fuzz/artifacts/<target>/;
# - a mutant target (mutants_*) starts from an empty corpus and must find its planted bug within
#   SECONDS (long inputs are tried from the start: -len_control=0); the line gives the time and
#   the executions it took, and the finding input is kept as fuzz/artifacts/<target>/found.
#
# -r SEEDS measures instead of fuzzing: each ordinary target, one at a time, once per seed 1 to
# SEEDS, on its regression corpus frozen (new inputs go to a temporary directory), so that
# two builds can be compared on the same inputs; the line gives the median and the range of
# libFuzzer's executions per second. With -p each target also runs once under `perf record`,
# and the line adds the share of that run spent in the target's own code and the rate
# libFuzzer's own work per execution would allow if that code took no time.
#
# -c runs the Core targets (core_*, listed in core-targets: the reference against Bitcoin Core's
# own code) instead of the others; naming one does too. Their build has the `core` feature,
# which builds Core from source once (scripts/bitcoin-core.sh, cached). Each starts from the
# committed corpus its seeds column names. -P BUG TARGET... puts the planted bug BUG (a mutant's
# name, e.g. murmur-tail) into the reference side of the named Core targets and runs them as
# mutant targets: each must find a difference from Core within SECONDS, from an empty corpus.
#
# Everything after `--` is cargo-fuzz's own options, handed to `cargo fuzz build` as they are
# (e.g. `-- --target-dir /tmp/ft --features core -a`; the build is always -O --sanitizer none).
# The binaries are looked for where cargo put them: under `--target-dir DIR` when it is among
# those options, else under cargo's target directory for this crate (CARGO_TARGET_DIR, a
# `build.target-dir` of a cargo config, else fuzz/target), in the triple of `--target TRIPLE`
# (default: the host's). A relative CARGO_TARGET_DIR or `--target-dir` is taken from the
# directory fuzz.sh was started in, as cargo itself would take it.
#
# Exit status: 0 when every target behaved, 1 when one did not, 2 on a usage error, 127 when
# cargo-fuzz (or, for -p, perf) is missing (install it with `cargo install cargo-fuzz --locked`).
set -euo pipefail
started_in=$PWD
cd "$(dirname "$0")"

usage() {
    echo "usage: $0 [-c] [-P BUG] [-t SECONDS] [-j JOBS] [TARGET...] [-- BUILD_OPTION...]" >&2
    echo "       $0 -n TARGET... [-- BUILD_OPTION...]" >&2
    echo "       $0 -r SEEDS [-p] [-t SECONDS] [TARGET...] [-- BUILD_OPTION...]" >&2
    echo "(BUILD_OPTION: cargo-fuzz's own options for 'cargo fuzz build', e.g. --target-dir DIR)" >&2
    exit 2
}
seconds=10
jobs=1
seeds=0
profile=false
dry=false
core=false
plant=""
while [[ $# -gt 0 && "$1" == -* && "$1" != -- ]]; do
    if [[ "$1" == -c ]]; then
        core=true
        shift
        continue
    fi
    if [[ "$1" == -P ]]; then
        [[ $# -ge 2 && "$2" =~ ^[a-z0-9-]+$ ]] || usage
        plant=$2
        core=true
        shift 2
        continue
    fi
    if [[ "$1" == -p || "$1" == -n ]]; then
        [[ "$1" == -p ]] && profile=true || dry=true
        shift
        continue
    fi
    [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || usage
    case "$1" in
        -t) seconds=$2 ;;
        -j) jobs=$2; [[ $jobs -ge 1 ]] || usage ;;
        -r) seeds=$2; [[ $seeds -ge 1 ]] || usage ;;
        *) usage ;;
    esac
    shift 2
done
[[ $profile == false || $seeds -gt 0 ]] || usage
if [[ $dry == false ]] && ! cargo fuzz --version >/dev/null 2>&1; then
    echo "error: cargo-fuzz is not installed: cargo install cargo-fuzz --locked" >&2
    exit 127
fi
if [[ $profile == true ]] && ! perf --version >/dev/null 2>&1; then
    echo "error: -p needs perf (Debian: linux-perf)" >&2
    exit 127
fi

# The targets, then (after `--`) cargo-fuzz's own build options.
targets=()
while [[ $# -gt 0 && "$1" != -- ]]; do
    targets+=("$1")
    shift
done
[[ $# -eq 0 ]] || shift
[[ $dry == false || (${#targets[@]} -gt 0 && $seeds -eq 0) ]] || usage
build_options=()
target_dir=""
triple=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --target-dir | --target)
            [[ $# -ge 2 ]] || usage
            [[ "$1" == --target ]] && triple=$2 || target_dir=$2
            build_options+=("$1" "$2")
            shift 2
            continue
            ;;
        --target-dir=*) target_dir=${1#--target-dir=} ;;
        --target=*) triple=${1#--target=} ;;
    esac
    build_options+=("$1")
    shift
done
# Relative directories are the caller's, not fuzz/'s (cargo runs here, after the cd).
absolute() { [[ "$1" == /* ]] && echo "$1" || echo "$started_in/$1"; }
if [[ -n "$target_dir" ]]; then
    target_dir=$(absolute "$target_dir")
    for i in "${!build_options[@]}"; do
        case "${build_options[$i]}" in
            --target-dir=*) build_options[$i]="--target-dir=$target_dir" ;;
            --target-dir) build_options[$((i + 1))]=$target_dir ;;
        esac
    done
else
    if [[ -n "${CARGO_TARGET_DIR:-}" ]]; then
        CARGO_TARGET_DIR=$(absolute "$CARGO_TARGET_DIR")
        export CARGO_TARGET_DIR
    fi
    # cargo's own answer covers CARGO_TARGET_DIR and a config's build.target-dir.
    target_dir=$(cargo metadata --no-deps --offline --format-version 1 2>/dev/null |
        sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p') || true
    [[ -n "$target_dir" ]] || target_dir=${CARGO_TARGET_DIR:-$PWD/target}
fi
[[ -n "$triple" ]] || triple=$(rustc -vV | sed -n 's/^host: //p')
if [[ "$target_dir" == "$PWD/target" ]]; then
    bin_dir="target/$triple/release"
else
    bin_dir="$target_dir/$triple/release"
fi
for target in "${targets[@]}"; do
    [[ "$target" != core_* ]] || core=true
done
# A planted bug shows in the Core targets whose operation it touches: name those.
[[ -z "$plant" || ${#targets[@]} -gt 0 ]] || usage
core_targets() { awk '!/^#/ && NF { print $1 }' core-targets; }
if [[ $dry == false ]]; then
    if [[ $core == true ]]; then
        cargo fuzz build -O --sanitizer none --features core ${build_options[@]+"${build_options[@]}"} >&2
        [[ ${#targets[@]} -gt 0 ]] || mapfile -t targets < <(core_targets)
    else
        cargo fuzz build -O --sanitizer none ${build_options[@]+"${build_options[@]}"} >&2
        [[ ${#targets[@]} -gt 0 ]] || mapfile -t targets < <(cargo fuzz list | grep -v '^core_')
    fi
    for target in "${targets[@]}"; do
        [[ -x "$bin_dir/$target" ]] || {
            echo "error: no target $target (no executable $bin_dir/$target after the build)" >&2
            exit 2
        }
    done
fi

stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }

# Column $2 of the target's line in oss-fuzz-targets or core-targets (empty when unlisted).
listed() {
    awk -v target="$1" -v column="$2" '$1 == target { print $column }' oss-fuzz-targets core-targets
}

# The target's max_len (mutant targets are not listed: libFuzzer's default).
max_len() {
    local len
    len=$(listed "$1" 3)
    echo "-max_len=${len:-4096}"
}

# The target's dictionary, as a libFuzzer option (nothing when it has none).
dict_option() {
    local name
    name=$(listed "$1" 2)
    [[ -z "$name" || "$name" == - ]] || echo "-dict=dictionaries/$name.dict"
}

# The committed corpora a target runs on: its own, and for a Core target the one it is seeded
# from (its own exists only once a finding is kept there).
regression_corpora() {
    local seeds
    seeds=$(awk -v target="$1" '$1 == target { print $4 }' core-targets)
    if [[ -n "$seeds" ]]; then
        echo "corpus-regression/$seeds"
        [[ ! -d "corpus-regression/$1" ]] || echo "corpus-regression/$1"
    else
        echo "corpus-regression/$1"
    fi
}

# True when the target must find a planted bug: a mutant target, or a Core target under -P.
finds_planted() {
    [[ "$1" == mutants_* || ( -n "$plant" && "$1" == core_* ) ]]
}

# The libFuzzer command line of an ordinary target's run, into the array `command`: its
# corpora, max_len and dictionary, as CI and OSS-Fuzz run it.
ordinary_command() {
    local target=$1 dict
    command=("$bin_dir/$target" -max_total_time="$seconds" -print_final_stats=1 "$(max_len "$target")")
    dict=$(dict_option "$target")
    [[ -z "$dict" ]] || command+=("$dict")
    command+=(-artifact_prefix="artifacts/$target/" "corpus/$target")
    mapfile -t -O "${#command[@]}" command < <(regression_corpora "$target")
}

# The libFuzzer command line of a mutant target's run, into the array `command`: from the empty
# corpus `work`, long inputs from the start, the finding kept as artifacts/<target>/found.
mutant_command() {
    local target=$1 work=$2
    command=("$bin_dir/$target" -max_total_time="$seconds" -print_final_stats=1 -len_control=0
        "$(max_len "$target")" -exact_artifact_path="artifacts/$target/found" "$work")
}

# Runs one target, prints its line; the exit status says whether it behaved.
run_target() {
    local target=$1 log work start status runs rate elapsed
    log=$(mktemp)
    work=$(mktemp -d)
    mkdir -p "artifacts/$target"
    start=$(date +%s%N)
    if finds_planted "$target"; then
        # A finding input left by an earlier run must not pass for this run's.
        rm -f "artifacts/$target/found"
        status=0
        local command
        mutant_command "$target" "$work"
        "${command[@]}" >"$log" 2>&1 || status=$?
        elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
        runs=$(stat number_of_executed_units "$log")
        if [[ $status -ne 0 && -f "artifacts/$target/found" ]]; then
            printf '%-40s found the planted bug in %6d ms after %s executions\n' "$target" "$elapsed" "${runs:-?}"
            status=0
        else
            printf '%-40s MISSED its planted bug in %d s (%s executions)\n' "$target" "$seconds" "${runs:-?}"
            status=1
        fi
    else
        mkdir -p "corpus/$target"
        status=0
        local command
        ordinary_command "$target"
        "${command[@]}" >"$log" 2>&1 || status=$?
        runs=$(stat number_of_executed_units "$log")
        rate=$(stat average_exec_per_sec "$log")
        if [[ $status -eq 0 ]]; then
            printf '%-40s ok: %s executions, %s per second\n' "$target" "${runs:-?}" "${rate:-?}"
        else
            printf '%-40s CRASHED (exit %d); see artifacts/%s/ and the log below\n' "$target" "$status" "$target"
            grep -E "panicked|ERROR" "$log" | head -n 5
            status=1
        fi
    fi
    rm -rf "$log" "$work"
    return "$status"
}

# One frozen-corpus run of a target at a seed, optionally under perf; prints libFuzzer's rate.
frozen_run() {
    local target=$1 seed=$2 log work status=0
    shift 2
    log=$(mktemp)
    work=$(mktemp -d)
    mkdir -p "artifacts/$target"
    "$@" "$bin_dir/$target" -seed="$seed" -max_total_time="$seconds" -print_final_stats=1 \
        "$(max_len "$target")" -artifact_prefix="artifacts/$target/" "$work" $(regression_corpora "$target") \
        >"$log" 2>&1 || status=$?
    [[ $status -eq 0 ]] && stat average_exec_per_sec "$log"
    rm -rf "$log" "$work"
    return "$status"
}

# -r: the median and range of the rate over the seeds, and with -p the profile's figures.
measure_target() {
    local target=$1 rates=() seed rate data share
    for seed in $(seq 1 "$seeds"); do
        rate=$(frozen_run "$target" "$seed") || {
            echo "$target: CRASHED at seed $seed; see artifacts/$target/" >&2
            return 1
        }
        rates+=("$rate")
    done
    mapfile -t rates < <(printf '%s\n' "${rates[@]}" | sort -n)
    printf '%-28s %9s /s (%s–%s, seeds 1–%d, %d s each)' "$target" "${rates[$(( (seeds - 1) / 2 ))]}" \
        "${rates[0]}" "${rates[-1]}" "$seeds" "$seconds"
    if [[ $profile == true ]]; then
        data=$(mktemp)
        rate=$(frozen_run "$target" 1 perf record -q -g -o "$data") || {
            rm -f "$data"
            echo "; CRASHED under perf; see artifacts/$target/"
            return 1
        }
        share=$(perf report -i "$data" --children --sort symbol -g none 2>/dev/null |
            awk '$4 == "rust_fuzzer_test_input" { sub("%", "", $1); print $1; exit }')
        rm -f "$data"
        awk -v rate="$rate" -v share="${share:-0}" 'BEGIN {
            printf "; under perf %d /s, %.1f%% in the target, libFuzzer alone %d /s", rate, share, rate / (1 - share / 100) }'
    fi
    echo
}

if [[ $dry == true ]]; then
    for target in "${targets[@]}"; do
        [[ -f "fuzz_targets/${target%%_*}/${target#*_}.rs" ]] || { echo "error: no target $target" >&2; exit 2; }
        if finds_planted "$target"; then
            mutant_command "$target" EMPTY_TEMPORARY_DIRECTORY
        else
            ordinary_command "$target"
        fi
        # A path under fuzz/target is given from the checkout's root, as before.
        [[ "$bin_dir" == /* ]] && echo "${command[*]}" || echo "fuzz/${command[*]}"
    done
    exit 0
fi

if [[ $seeds -gt 0 ]]; then
    failed=0
    for target in "${targets[@]}"; do
        finds_planted "$target" && continue
        measure_target "$target" || failed=1
    done
    exit "$failed"
fi

[[ -z "$plant" ]] || export BIP37_FUZZ_PLANT="$plant"
# Up to $jobs targets at once; each one's line is printed whole when it ends.
failed=0
running=0
for target in "${targets[@]}"; do
    if [[ $running -ge $jobs ]]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
    run_target "$target" &
    running=$((running + 1))
done
while [[ $running -gt 0 ]]; do
    wait -n || failed=1
    running=$((running - 1))
done
exit "$failed"
