#!/usr/bin/env bash
# The HTML pages checked in a real browser (docs/REPORT.md, "The HTML report"): makes a run
# report of a mutant with filter failures, the matrix (the committed columns, the reference run
# again), the findings page and a hostile adapter's run report, each with its JSON, then loads
# them in headless Chromium with scripts/html-report-check.py (no console message, counts equal
# to the JSON, a screenshot of each, the hostile page inert). Chromium comes from Debian's
# packages, installed with apt-get when missing (with sudo unless run as root), as .ci/run
# installs Core's build dependencies. Pages, JSON and screenshots go to DIR (target/html-pages).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/html-pages}
mkdir -p "$out"
if ! command -v "${CHROMIUM:-chromium}" >/dev/null; then
    echo "installing Chromium with apt-get"
    as_root=()
    [[ $(id -u) -eq 0 ]] || as_root=(sudo)
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
cargo build -q -p bip37-conform
conform=target/debug/bip37-conform
# A run's exit code is its verdict (1: failures), which these pages are made to show.
"$conform" run --builtin mutant:msb-first-bits --format html --output "$out/run.html" \
    --report "json:$out/run.json" || [[ $? -eq 1 ]]
"$conform" run --impl "python3 harness/conform/tests/fixtures/adapters/html_hostile.py" \
    --format html --output "$out/hostile.html" --report "json:$out/hostile.json" || [[ $? -eq 1 ]]
"$conform" matrix --impl reference="$conform serve" --adapters adapters \
    --keep adapters/matrix.json --name reference --html "$out/matrix.html" --json "$out/matrix.json"
"$conform" findings --html "$out/findings.html"
python3 scripts/html-report-check.py --out "$out/screenshots" \
    --run "$out/run.html" "$out/run.json" \
    --matrix "$out/matrix.html" "$out/matrix.json" \
    --findings "$out/findings.html" adapters/matrix.json \
    --hostile "$out/hostile.html" "$out/hostile.json"
