#!/usr/bin/env bash
# Usage: scripts/install-check.sh
#
# Checks README's install route as a CI would take it, from a fresh directory: clones the
# committed HEAD of this repository into a temporary directory, runs
#   cargo install --locked --git file://<clone> --root <tmp>/root bip37-conform
# and checks what landed in <tmp>/root/bin: bip37-conform only (bip37-vectorgen is a maintainer
# tool in its own unpublished crate), without debug info (under 20 MB), and working: the
# built-in reference passes the murmur3 vectors.
#
# It builds the release profile once (about 2 minutes on two cores); CARGO_TARGET_DIR, when
# set, is reused across runs. Uncommitted changes are not part of the check. Exit status: 0 when
# every check holds, 1 otherwise.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "install-check: $*" >&2; exit 1; }

git clone --quiet --no-hardlinks "file://$repo" "$tmp/clone"
cargo install --locked --quiet --git "file://$tmp/clone" --root "$tmp/root" bip37-conform

installed=$(ls "$tmp/root/bin")
[[ "$installed" == "bip37-conform" ]] || fail "installed [$installed], expected bip37-conform alone"
bin="$tmp/root/bin/bip37-conform"
size=$(stat -c %s "$bin")
(( size < 20 * 1024 * 1024 )) || fail "bip37-conform is $size bytes: is debug info back in the release profile?"
"$bin" --version >/dev/null || fail "bip37-conform --version failed"
"$bin" run --builtin reference --op murmur3 --format tap >"$tmp/tap" ||
    fail "the installed binary failed the murmur3 vectors: $(tail -n 3 "$tmp/tap")"
grep -q '^ok ' "$tmp/tap" || fail "the installed binary ran no test"
echo "install-check: cargo install --locked --git installs bip37-conform alone, $size bytes, and it runs"
