#!/usr/bin/env bash
# Bitcoin Core, the suite's truth, as a real node: build `bitcoind` from Core's source once into a
# cache outside the clone (or take the one BITCOIND names), start it on 127.0.0.1 in regtest with
# a temporary datadir, run a command against it, and stop it by its process id.
#
#   scripts/bitcoin-core.sh --build
#       # build (or find) bitcoind and print its path; also prints BITCOIN_CORE_SRC= and
#       # BITCOIN_CORE_BUILD= lines for what links Core's libraries
#   scripts/bitcoin-core.sh --serve [--no-bloom] -- COMMAND [ARGS...]
#       # start one node (-peerbloomfilters=0 with --no-bloom) and run COMMAND with the
#       # variables of scripts/bcoin-node.sh (BIP37_REGEN_RPC, _RPC_USER, _RPC_PASSWORD, _P2P,
#       # BIP37_NODE_MAGIC, BIP37_NODE_PID); the exit code is COMMAND's, 2 if the node did not
#       # come up (the manifests adapters/nodes/bitcoin-core*/adapter.toml)
#
# Environment:
#   BITCOIND=/path/to/bitcoind   use this bitcoind, build nothing (bitcoin-cli beside it, or
#                                BITCOIN_CLI=/path; without one, readiness is asked with curl)
#   BITCOIN_CORE_SOURCE=PATH     a Core source tarball (.tar.xz, .tar.gz) or a checkout; default
#                                the tarball in ../shared/bitcoin-core/ beside the clone
#   BITCOIN_CORE_CACHE=DIR       where builds live, one directory per source and configuration
#                                (default ${XDG_CACHE_HOME:-~/.cache}/bip37-conformance/bitcoin-core)
#   BITCOIN_CORE_BUILD_TIMEOUT=S the build's bound in seconds (default 3600), after which it is
#                                ended and the run fails, naming its log
#   BITCOIN_CORE_JOBS=N          parallel compile jobs (default: the number of cores)
#
# The cache key is the SHA-256 of the source (the tarball's bytes, or every file of a checkout
# but .git) and of the configure flags below, so another Core or other flags build anew and the
# same ones are reused. A build runs under a lock in its cache directory and counts as done only
# when it finished (a stamp file); an interrupted one resumes where cmake left it. Its output is
# in build.log there, whose path a failure prints with its last lines.
#
# Measured: see docs/CI.md ("Bitcoin Core"). The build needs libboost-dev and libevent-dev
# (Debian; .ci/run installs them) besides cmake and a C++ compiler.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

# Core's own configuration for a node without wallet, GUI or tests; compile_commands.json keeps
# each file's exact flags for what compiles against Core (reference/core-ffi).
CMAKE_FLAGS=(-DCMAKE_BUILD_TYPE=Release -DBUILD_TESTS=OFF -DBUILD_BENCH=OFF -DBUILD_FUZZ_BINARY=OFF
    -DENABLE_WALLET=OFF -DBUILD_GUI=OFF -DENABLE_IPC=OFF -DBUILD_CLI=ON -DBUILD_TX=OFF
    -DBUILD_UTIL=OFF -DBUILD_WALLET_TOOL=OFF -DWITH_ZMQ=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
CACHE="${BITCOIN_CORE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bip37-conformance/bitcoin-core}"
BUILD_TIMEOUT="${BITCOIN_CORE_BUILD_TIMEOUT:-3600}"
JOBS="${BITCOIN_CORE_JOBS:-$(nproc)}"

# default_source: the one Core tarball of ../shared/bitcoin-core/, if there is exactly one.
default_source() {
    local found=(../shared/bitcoin-core/*.tar.xz)
    if [ ${#found[@]} -ne 1 ] || [ ! -f "${found[0]}" ]; then
        echo "bitcoin-core: no BITCOIND, no BITCOIN_CORE_SOURCE and not exactly one ../shared/bitcoin-core/*.tar.xz" >&2
        echo "bitcoin-core: set BITCOIND=/path/to/bitcoind, or BITCOIN_CORE_SOURCE to a Core tarball or checkout" >&2
        exit 2
    fi
    echo "${found[0]}"
}

# source_hash PATH: SHA-256 of a tarball's bytes, or of the list of a checkout's files and their
# SHA-256 (.git left out).
source_hash() {
    if [ -d "$1" ]; then
        (cd "$1" && find . -path ./.git -prune -o -type f -print0 | LC_ALL=C sort -z |
            xargs -0 sha256sum) | sha256sum | cut -c1-64
    else
        sha256sum <"$1" | cut -c1-64
    fi
}

# build: sets BITCOIND, BITCOIN_CLI, CORE_SRC and CORE_BUILD, building into the cache when needed.
build() {
    local source key dir status
    source="${BITCOIN_CORE_SOURCE:-$(default_source)}"
    if [ ! -e "$source" ]; then
        echo "bitcoin-core: BITCOIN_CORE_SOURCE=$source does not exist" >&2
        exit 2
    fi
    key=$({ source_hash "$source"; printf '%s\n' "${CMAKE_FLAGS[@]}"; } | sha256sum | cut -c1-16)
    dir="$CACHE/$key"
    mkdir -p "$dir"
    CORE_BUILD="$dir/build"
    BITCOIND="$CORE_BUILD/bin/bitcoind"
    BITCOIN_CLI="$CORE_BUILD/bin/bitcoin-cli"
    if [ -d "$source" ]; then
        CORE_SRC=$(cd "$source" && pwd)
    else
        CORE_SRC="$dir/src"
    fi
    [ -f "$dir/built" ] && return 0
    # The lock is held by this subshell only: a second run waits, then finds the stamp.
    status=0
    (
        flock 9
        [ -f "$dir/built" ] && exit 0
        echo "bitcoin-core: building bitcoind from $source into $dir (log: $dir/build.log; at most ${BUILD_TIMEOUT} s)" >&2
        started=$SECONDS
        code=0
        # GNU timeout signals its whole process group (cmake, make and the compilers), then
        # kills it 30 s later. That group is its own, which a Ctrl-C or a TERM to this script
        # does not reach, so both are passed on to it (an interrupted build resumes next time).
        timeout -k 30 "$BUILD_TIMEOUT" bash -euo pipefail -c '
            source=$1 src=$2 build=$3 jobs=$4
            shift 4
            if [ ! -d "$source" ] && [ ! -f "$src/CMakeLists.txt" ]; then
                rm -rf "$src" "$src.tmp"
                mkdir -p "$src.tmp"
                tar -xf "$source" -C "$src.tmp" --strip-components=1
                mv "$src.tmp" "$src"
            fi
            cmake -S "$src" -B "$build" "$@"
            cmake --build "$build" -j"$jobs" --target bitcoind bitcoin-cli
        ' _ "$source" "$CORE_SRC" "$CORE_BUILD" "$JOBS" "${CMAKE_FLAGS[@]}" >"$dir/build.log" 2>&1 &
        builder=$!
        trap 'kill -TERM "$builder" 2>/dev/null; wait "$builder" || true; echo "bitcoin-core: build interrupted (log: $dir/build.log)" >&2; exit 130' INT TERM
        wait "$builder" || code=$?
        trap - INT TERM
        if [ "$code" -ne 0 ] || [ ! -x "$BITCOIND" ] || [ ! -x "$BITCOIN_CLI" ]; then
            if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then
                echo "bitcoin-core: the build ran past its bound of ${BUILD_TIMEOUT} s (BITCOIN_CORE_BUILD_TIMEOUT) and was ended" >&2
            fi
            echo "bitcoin-core: the build failed (exit $code); its log is $dir/build.log, ending:" >&2
            tail -n 30 "$dir/build.log" >&2 || true
            exit 1
        fi
        echo "bitcoin-core: built $("$BITCOIND" -version | head -n 1) in $((SECONDS - started)) s" >&2
        touch "$dir/built"
    ) 9>"$dir/lock" || status=$?
    [ "$status" -eq 0 ] || exit "$status"
}

find_or_build() {
    if [ -n "${BITCOIND:-}" ]; then
        if [ ! -x "$BITCOIND" ]; then
            echo "bitcoin-core: BITCOIND=$BITCOIND is not an executable file" >&2
            exit 2
        fi
        BITCOIN_CLI="${BITCOIN_CLI:-$(dirname "$BITCOIND")/bitcoin-cli}"
        CORE_SRC= CORE_BUILD=
    else
        build
    fi
}

case "${1:-}" in
--build)
    [ $# -eq 1 ] || usage
    find_or_build
    echo "BITCOIN_CORE_SRC=$CORE_SRC"
    echo "BITCOIN_CORE_BUILD=$CORE_BUILD"
    echo "$BITCOIND"
    exit 0
    ;;
--serve) shift ;;
*) usage ;;
esac
BLOOM=1
if [ "${1:-}" = "--no-bloom" ]; then
    BLOOM=0
    shift
fi
if [ "${1:-}" != "--" ] || [ $# -lt 2 ]; then
    usage
fi
shift
find_or_build

. scripts/node-common.sh
RPC_USER=bip37
RPC_PASSWORD=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
DATADIR=$(mktemp -d)
NODE_PID=
trap 'stop_pid "$NODE_PID"; rm -rf "$DATADIR"' EXIT

# Loopback only, no peers of its own, no seeds; BIP 35 mempool requests are answered only to
# NODE_BLOOM peers by Core, which needs no flag for them.
start_bitcoind() {
    read -r RPC_PORT P2P_PORT < <(scripts/free-ports.py 2)
    rm -rf "$DATADIR/regtest"
    "$BITCOIND" -regtest -datadir="$DATADIR" -printtoconsole=0 \
        -listen=1 -bind="127.0.0.1:$P2P_PORT" -port="$P2P_PORT" \
        -rpcbind="127.0.0.1:$RPC_PORT" -rpcallowip=127.0.0.1 -rpcport="$RPC_PORT" \
        -rpcuser="$RPC_USER" -rpcpassword="$RPC_PASSWORD" -peerbloomfilters="$BLOOM" \
        -dnsseed=0 -fixedseeds=0 -connect=0 -discover=0 -listenonion=0 -natpmp=0 -daemon=0 &
    NODE_PID=$!
}
bitcoind_ready() {
    curl -sf --max-time 5 -u "$RPC_USER:$RPC_PASSWORD" -H 'Content-Type: application/json' \
        -d '{"jsonrpc":"1.0","id":1,"method":"getblockcount","params":[]}' "http://127.0.0.1:$RPC_PORT/"
}
bitcoind_log() { echo "$DATADIR/regtest/debug.log"; }

start_until_ready "bitcoin-core: bitcoind" start_bitcoind bitcoind_ready bitcoind_log

if BIP37_REGEN_RPC="127.0.0.1:$RPC_PORT" BIP37_REGEN_P2P="127.0.0.1:$P2P_PORT" \
    BIP37_REGEN_RPC_USER="$RPC_USER" BIP37_REGEN_RPC_PASSWORD="$RPC_PASSWORD" \
    BIP37_NODE_MAGIC=fabfb5da BIP37_NODE_PID="$NODE_PID" "$@"; then
    CODE=0
else
    CODE=$?
fi
exit "$CODE"
