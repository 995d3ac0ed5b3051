#!/usr/bin/env bash
# The shell steps of the GitHub Action (action.yml), kept here so scripts/action-test.sh can run
# them with the variables GitHub sets. Usage: scripts/action.sh key|install|run
#
#   key      writes `root` (where bip37-conform is installed) and `key` (the cache key: runner
#            OS, rustc version and a hash of the sources that make the binary) to $GITHUB_OUTPUT
#   install  keeps a cached bip37-conform whose key matches, or runs
#            `cargo install --locked --path <action>/harness/conform` into the root; adds it to $GITHUB_PATH
#   run      runs the suite against BIP37_IMPL, writes the JUnit report (BIP37_JUNIT), the
#            Markdown report (BIP37_MARKDOWN) and, unless BIP37_HTML is empty, the HTML report
#            (which the next step uploads as the artifact bip37-report), appends the Markdown and
#            where the HTML page is to $GITHUB_STEP_SUMMARY, writes exit-code, junit, markdown and
#            html to $GITHUB_OUTPUT and exits with the suite's code
#
# Inputs arrive as environment variables (action.yml maps them): BIP37_IMPL, BIP37_EXPECTATIONS,
# BIP37_SELECTION (extra options, split like a shell would but never run by one), BIP37_JUNIT,
# BIP37_MARKDOWN, BIP37_HTML, BIP37_ROOT, BIP37_KEY.
set -euo pipefail
action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT must be set, as GitHub sets it}"

key() {
    : "${RUNNER_TEMP:?RUNNER_TEMP must be set, as GitHub sets it}"
    local sources
    sources=$(cd "$action_path" && find Cargo.toml Cargo.lock harness reference vectors -type f \
        -not -path '*/target/*' | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
    echo "root=$RUNNER_TEMP/bip37-conform" >>"$GITHUB_OUTPUT"
    echo "key=bip37-conform-${RUNNER_OS:-unknown}-$(rustc -V | cut -d' ' -f2)-$sources" >>"$GITHUB_OUTPUT"
}

install() {
    : "${BIP37_ROOT:?}" "${BIP37_KEY:?}" "${GITHUB_PATH:?GITHUB_PATH must be set, as GitHub sets it}"
    if [[ -x "$BIP37_ROOT/bin/bip37-conform" && "$(cat "$BIP37_ROOT/key" 2>/dev/null)" == "$BIP37_KEY" ]]; then
        echo "bip37-conform from the cache ($BIP37_KEY)"
    else
        cargo install --locked --path "$action_path/harness/conform" --root "$BIP37_ROOT"
        echo "$BIP37_KEY" >"$BIP37_ROOT/key"
    fi
    echo "$BIP37_ROOT/bin" >>"$GITHUB_PATH"
}

run() {
    : "${BIP37_IMPL:?the implementation input is required}" "${GITHUB_STEP_SUMMARY:?}"
    local junit=${BIP37_JUNIT:-bip37-junit.xml} markdown=${BIP37_MARKDOWN:-bip37-summary.md}
    local args=(run --impl "$BIP37_IMPL" --format junit --output "$junit" --report "markdown:$markdown")
    local html=${BIP37_HTML-bip37-report.html}
    [[ -z "${BIP37_EXPECTATIONS:-}" ]] || args+=(--expectations "$BIP37_EXPECTATIONS")
    [[ -z "$html" ]] || args+=(--report "html:$html")
    mkdir -p "$(dirname "$junit")" "$(dirname "$markdown")"
    [[ -z "$html" ]] || mkdir -p "$(dirname "$html")"
    rm -f "$junit" "$markdown" ${html:+"$html"}
    local code=0 stderr words selection
    stderr=$(mktemp)
    # xargs splits the selection on blanks and honours quotes, and runs nothing.
    if ! words=$(printf '%s' "${BIP37_SELECTION:-}" | xargs -r printf '%s\n' 2>"$stderr"); then
        echo "bip37-conform action: cannot split the selection input (unbalanced quotes?)" >>"$stderr"
        cat "$stderr" >&2
        code=2
    else
        [[ -z "$words" ]] || mapfile -t selection <<<"$words"
        args+=("${selection[@]}")
        # stderr goes to the log as it comes and is kept for the summary of a run that never
        # started.
        set +e
        { bip37-conform "${args[@]}" 2>&1 1>&3 3>&- | tee "$stderr" >&2; } 3>&1
        code=${PIPESTATUS[0]}
        set -e
    fi
    if [[ -f "$markdown" ]]; then
        cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
    else
        # No report: the run never started (usage error, an adapter that cannot start, bad
        # vectors). The summary says why.
        { echo "## BIP 37 conformance: no report (exit $code)"; echo; echo '```text'
          tail -n 20 "$stderr"; echo '```'; } >>"$GITHUB_STEP_SUMMARY"
    fi
    if [[ -n "$html" && -f "$html" ]]; then
        local run_page=""
        [[ -z "${GITHUB_RUN_ID:-}" ]] ||
            run_page=" of [this run](${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:-}/actions/runs/$GITHUB_RUN_ID)"
        printf '\nThe HTML report (`%s`: every failure, its hex diff and its filters as bits) is the artifact `bip37-report`%s.\n' \
            "$html" "$run_page" >>"$GITHUB_STEP_SUMMARY"
    else
        html=""
    fi
    rm -f "$stderr"
    { echo "exit-code=$code"; echo "junit=$junit"; echo "markdown=$markdown"; echo "html=$html"; } >>"$GITHUB_OUTPUT"
    return "$code"
}

case "${1:-}" in
    key | install | run) "$1" ;;
    *) echo "usage: $0 key|install|run" >&2; exit 2 ;;
esac
