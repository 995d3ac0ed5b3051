#!/usr/bin/env bash
# Usage: .clusterfuzzlite/build-test.sh
#
# Runs build.sh the way OSS-Fuzz and ClusterFuzzLite do (from the source directory, with SRC,
# OUT and WORK set) and checks what it left in $OUT: every target of fuzz/oss-fuzz-targets and no
# mutants_* target; each binary runs once over its unzipped seed corpus with its dictionary and
# max_len (libFuzzer exits 1 on a malformed dictionary); a seed corpus for each; no stray files. The Docker image itself
# cannot be built here, so the build uses the stable toolchain without a sanitizer
# (CARGO_FUZZ_FLAGS=--sanitizer none), the same build as fuzz/fuzz.sh, which it reuses.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "build-test: $*" >&2; exit 1; }

export SRC="$tmp/src" OUT="$tmp/out" WORK="$tmp/work"
mkdir -p "$SRC" "$OUT" "$WORK"
CARGO_FUZZ_FLAGS="--sanitizer none" .clusterfuzzlite/build.sh >&2

expected=()
while read -r target dictionary max_len; do
    [[ -n "$target" ]] || continue
    expected+=("$target" "$target.options")
    [[ -x "$OUT/$target" ]] || fail "$target: no executable in \$OUT"
    grep -qxF "max_len = $max_len" "$OUT/$target.options" || fail "$target.options lacks max_len = $max_len"
    args=(-runs=0 "-max_len=$max_len")
    if [[ "$dictionary" != "-" ]]; then
        expected+=("$target.dict")
        cmp -s "fuzz/dictionaries/$dictionary.dict" "$OUT/$target.dict" || fail "$target.dict is not $dictionary.dict"
        args+=("-dict=$OUT/$target.dict")
    fi
    corpus="$tmp/corpus/$target"
    mkdir -p "$corpus"
    # The vectors or the regression corpus seed every shipped target.
    [[ -f "$OUT/${target}_seed_corpus.zip" ]] || fail "$target: no seed corpus"
    expected+=("${target}_seed_corpus.zip")
    unzip -q "$OUT/${target}_seed_corpus.zip" -d "$corpus"
    "$OUT/$target" "${args[@]}" "$corpus" >"$tmp/log" 2>&1 ||
        { tail -n 20 "$tmp/log" >&2; fail "$target failed on its seed corpus"; }
    printf '%-28s %6s seeds  dictionary %-16s max_len %s\n' "$target" \
        "$(find "$corpus" -type f | wc -l)" "$dictionary" "$max_len"
done < <(grep -v '^#' fuzz/oss-fuzz-targets)

stray=$(comm -23 <(ls "$OUT" | sort) <(printf '%s\n' "${expected[@]}" | sort))
[[ -z "$stray" ]] || fail "unexpected files in \$OUT: $stray"
echo "build-test: \$OUT holds ${#expected[@]} files for $(grep -vc '^#' fuzz/oss-fuzz-targets) targets, each runs on its seeds"
