#!/usr/bin/env bash
# Usage: scripts/newcomer-path.sh
#
# Follows README's user sections as a newcomer would, in a temporary clone of the committed
# HEAD, and checks each command's exit code and key output line:
#   Set-up                 cargo run --release -p bip37-conform -- run --builtin reference
#   Use it as a CI gate    run --impl "python3 adapters/template.py"; --update-expectations on a
#                          planted mistake, then the gate on that file; the binary's size
#                          against the figure docs/GATE.md gives
#   Test a Rust crate      a new crate depending on the clone's bip37-harness, with README's
#                          snippet and docs/RUST.md's whole example: cargo test, then
#                          BIP37_UPDATE_EXPECTATIONS=1 cargo test records the file
#   Fuzz an implementation README's fuzz command: a finding, well inside the shrink limit
# "Check a node" and "Confirm the vectors against a live node" need a running node: they are
# reported as skipped (CI checks them with scripts/live-node.sh and scripts/bcoin-node.sh).
#
# Opt-in, not part of .ci/run: it makes a release build (minutes on two cores) and builds a new
# crate. CARGO_TARGET_DIR, when set, is reused. Uncommitted changes are not part of the check.
# Exit status: 0 when every step holds, 1 otherwise.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "newcomer-path: FAILED: $*" >&2; exit 1; }
ok() { echo "newcomer-path: ok: $*"; }

# Runs "$@", capturing stdout and stderr in $tmp/out and $tmp/err; sets $status.
capture() {
    status=0
    "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
}

# expect SECTION CODE PATTERN FILE: the last command exited CODE and FILE holds PATTERN.
expect() {
    [[ $status -eq $2 ]] || fail "$1: exit $status, expected $2; stderr ends: $(tail -n 5 "$tmp/err")"
    grep -qE -- "$3" "$4" || fail "$1: no line matching \"$3\" in its output: $(tail -n 5 "$4")"
    ok "$1 (exit $status): $(grep -m 1 -E -- "$3" "$4")"
}

# The ```LANG block of SECTION (a heading line) in FILE.
block() {
    awk -v heading="$2" -v fence="\`\`\`$3" '
        $0 == heading { inside = 1; next }
        inside && /^## / { exit }
        inside && $0 == fence { printing = 1; next }
        printing && /^```/ { exit }
        printing { print }' "$1"
}

git clone --quiet --no-hardlinks "file://$repo" "$tmp/clone"
cd "$tmp/clone"
readme=README.md

# Set-up: the first command of README, as written.
setup=$(block "$readme" "## Set-up" sh | head -n 1 | sed 's/ *#.*//')
[[ "$setup" == "cargo run --release -p bip37-conform -- run --builtin reference" ]] ||
    fail "Set-up: README's first command changed: $setup"
capture $setup
expect "Set-up: $setup" 0 '^conformant$' "$tmp/out"
bin="${CARGO_TARGET_DIR:-$tmp/clone/target}/release/bip37-conform"
[[ -x "$bin" ]] || fail "Set-up: no $bin after the release build"

# Use it as a CI gate: the template adapter, then the expectations workflow on a planted mistake.
capture "$bin" run --impl "python3 adapters/template.py"
expect 'Gate: run --impl "python3 adapters/template.py"' 0 '^conformant$' "$tmp/out"
planted="python3 harness/conform/tests/independent/bip37_model.py --mistake seed-mod-2-31"
capture "$bin" run --impl "$planted" --expectations "$tmp/gate.toml" --update-expectations
expect "Gate: --update-expectations records today's failures" 1 "wrote [0-9]+ expected failures" "$tmp/err"
capture "$bin" run --impl "$planted" --expectations "$tmp/gate.toml"
expect "Gate: the gate against the recorded file" 0 '^conformant$' "$tmp/out"
grep -q "^expected failures (" "$tmp/out" || fail "Gate: the conformant run does not list its expected failures"
documented=$(grep -oE '[0-9]+(\.[0-9]+)? MB without debug info' docs/GATE.md | cut -d' ' -f1)
actual=$(awk -v bytes="$(stat -c %s "$bin")" 'BEGIN { printf "%.1f", bytes / 1e6 }')
awk -v a="$actual" -v d="$documented" 'BEGIN { exit !(a >= d * 0.9 && a <= d * 1.1) }' ||
    fail "Gate: the release binary is $actual MB, docs/GATE.md says $documented MB"
ok "Gate: the release binary is $actual MB, docs/GATE.md says $documented MB"

# Test a Rust crate: a new crate with README's dependency (the clone as the git URL) and
# docs/RUST.md's whole example as its test; the clone's lockfile pins the versions.
mkdir -p "$tmp/crate/src" "$tmp/crate/tests"
block "$readme" '## Test a Rust implementation with `cargo test`' toml |
    sed "s|<this repository's URL>|file://$tmp/clone|" >"$tmp/dev-dependencies.toml"
cat >"$tmp/crate/Cargo.toml" <<TOML
[package]
name = "my-filter"
version = "0.1.0"
edition = "2021"

$(cat "$tmp/dev-dependencies.toml")
TOML
echo "//! my-filter" >"$tmp/crate/src/lib.rs"
cp Cargo.lock "$tmp/crate/Cargo.lock"
awk '/^```rust$/ { printing = 1; next } printing && /^```/ { exit } printing { print }' docs/RUST.md \
    >"$tmp/crate/tests/bip37.rs"
(cd "$tmp/crate" && capture cargo test --quiet -- --nocapture && expect "Rust: cargo test in a new crate" 0 \
    "does not exist, so no failure is expected" "$tmp/err")
(cd "$tmp/crate" && export BIP37_UPDATE_EXPECTATIONS=1 && capture cargo test --quiet -- --nocapture &&
    expect "Rust: BIP37_UPDATE_EXPECTATIONS=1 cargo test" 0 "wrote [0-9]+ expected failures" "$tmp/err")
[[ -f "$tmp/crate/tests/my-filter-expectations.toml" ]] || fail "Rust: the expectations file was not recorded"

# Fuzz an implementation: README's command, as written but for the binary's path.
fuzz=$(block "$readme" "## Fuzz an implementation" sh | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | head -n 1)
fuzz=${fuzz% > finding.json}
eval "capture \"$bin\" ${fuzz#bip37-conform }"
expect "Fuzz: README's example" 1 "^MISMATCH reference-" "$tmp/err"
steps=$(sed -n 's/^shrunk in \([0-9]*\) steps.*/\1/p' "$tmp/err")
[[ -n "$steps" && $steps -le 1000 ]] || fail "Fuzz: shrunk in ${steps:-?} steps (limit 5,000; README promises well inside)"
ok "Fuzz: shrunk in $steps steps"

echo "newcomer-path: skipped: Check a node, Confirm the vectors against a live node (they need a running node)"
echo "newcomer-path: every step of README's user sections holds"
