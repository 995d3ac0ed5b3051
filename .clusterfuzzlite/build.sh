#!/bin/bash -eu
# The OSS-Fuzz / ClusterFuzzLite build script (fuzz/README.md, "Fuzzing at scale"). Run from the
# repository root (the Dockerfile's WORKDIR) with OSS-Fuzz's variables: OUT (where the fuzzers
# go) and WORK (scratch space); the image's nightly toolchain and cargo-fuzz build with its
# sanitizer. CARGO_FUZZ_FLAGS adds flags to `cargo fuzz build` (`--sanitizer none` builds on
# stable, as .clusterfuzzlite/build-test.sh does).
#
# Into $OUT, for every target of fuzz/oss-fuzz-targets (all but the mutants_* targets, which
# crash by design): the binary, <target>.dict, <target>.options (libFuzzer's max_len) and
# <target>_seed_corpus.zip (the seeds made from the vectors plus fuzz/corpus-regression/<target>).
: "${OUT:?OUT must be set, as OSS-Fuzz sets it}" "${WORK:?WORK must be set, as OSS-Fuzz sets it}"
[[ -f fuzz/Cargo.toml ]] || { echo "build.sh: run it from the repository root" >&2; exit 2; }

# One cargo build for all targets (cargo-fuzz builds every [[bin]] of fuzz/Cargo.toml at once).
# shellcheck disable=SC2086 # CARGO_FUZZ_FLAGS is a list of flags
cargo fuzz build -O ${CARGO_FUZZ_FLAGS:-}
bin_dir="fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release"

seeds="$WORK/bip37-seeds"
rm -rf "$seeds"
# The seed writer is an ordinary host program: built without the sanitizer and coverage flags
# an engine may put in RUSTFLAGS, which would ask for libFuzzer's runtime at link time.
env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS \
    cargo run --quiet --manifest-path fuzz/Cargo.toml --example seed_corpora -- vectors "$seeds"

grep -v '^#' fuzz/oss-fuzz-targets | while read -r target dictionary max_len; do
    [[ -n "$target" ]] || continue
    cp "$bin_dir/$target" "$OUT/"
    if [[ "$dictionary" != "-" ]]; then
        cp "fuzz/dictionaries/$dictionary.dict" "$OUT/$target.dict"
    fi
    printf '[libfuzzer]\nmax_len = %s\n' "$max_len" >"$OUT/$target.options"
    corpus="$WORK/bip37-corpus/$target"
    rm -rf "$corpus"
    mkdir -p "$corpus"
    for dir in "$seeds/$target" "fuzz/corpus-regression/$target"; do
        if [[ -d "$dir" ]]; then cp -r "$dir/." "$corpus/"; fi
    done
    rm -f "$OUT/${target}_seed_corpus.zip"
    if compgen -G "$corpus/*" >/dev/null; then
        (cd "$corpus" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
    fi
done
