#!/usr/bin/env bash
# Start btcd (a Go full node written independently of Bitcoin Core) on its simulation network
# on 127.0.0.1, run a command against it, and stop it.
#
#   scripts/btcd-node.sh -- COMMAND [ARGS...]
#   scripts/btcd-node.sh --install [VERSION...]   # only install (default: every pinned version)
#
# The command runs with the variables of scripts/bcoin-node.sh, which `bip37-conform node` and
# `bip37-conform regen` read as --rpc, --rpc-user, --rpc-password, --rpc-cert, --p2p, --magic:
#   BIP37_REGEN_RPC, BIP37_REGEN_RPC_USER, BIP37_REGEN_RPC_PASSWORD  RPC (basic auth)
#   BIP37_REGEN_RPC_CERT  the certificate btcd wrote for its RPC server: btcd speaks RPC over
#       TLS by default (a self-signed ECDSA P-521 certificate), and the suite trusts that one
#   BIP37_REGEN_P2P    P2P address      BIP37_NODE_MAGIC   simnet's magic, 161c1412 on the wire
#   BIP37_NODE_PID     the node's process id
# The exit code is the command's; 2 if the node did not come up.
#
# Environment: BTCD_VERSION=0.26.2 (default) or 0.25.0, the two pinned releases (the newest and
# the previous minor); BTCD_BLOOM=false starts it with --nopeerbloomfilters (NODE_BLOOM off;
# default true); BTCD_LOG=FILE keeps the node's log there (default: a temporary file, shown on
# failure).
#
# btcd is installed with `go install github.com/btcsuite/btcd@vVERSION` (from the Go module
# proxy, checked against the Go checksum database) into scripts/btcd/VERSION/ (git-ignored),
# once per version. Measured on the shared 2-core machine: 31 s and 86 s for one version with
# warm build caches; both versions at once from cold module and build caches 4m42s (1m48s CPU).
# `--install` builds the versions in parallel (CI starts it early, in the background).
#
# Why simnet and not regtest: btcd's regtest keeps a peer from 127.0.0.1 that sends a malformed
# message (peer/peer.go isAllowedReadError: "regression tests need to be allowed to send
# malformed messages"), so an oversized filterload or filteradd, which fails to decode, would
# be kept there and never on mainnet. Simnet reads messages as mainnet does, mines as cheaply as
# regtest (proof-of-work limit 0x207fffff, no checkpoints), matures coinbases after 100 blocks,
# and halves the subsidy every 210,000 blocks; the suite reads the chain's name and takes
# simnet's parameters (harness/conform/src/regen/chain.rs).
#
# Network: no DNS seeds (simnet has none), P2P and RPC bound to 127.0.0.1 only. --nobanning:
# btcd bans a peer that sends a BIP 37 message to a node without NODE_BLOOM (ban score 100)
# and has no RPC to lift a ban (no clearbanned), so a ban would refuse every later check's
# connection; it still disconnects such a peer. Core does not ban a local peer either.
#
# Cost: start, stop and an empty command 2-3 s (measured with the tests building beside it); the
# node suite about 110 s with NODE_BLOOM (its 8 relay and mempool checks 15 s each), under 1 s
# without.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSIONS=(0.26.2 0.25.0)
VERSION="${BTCD_VERSION:-${VERSIONS[0]}}"

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

# install VERSION: go install into a temporary directory, then move it into place, so that an
# interrupted install leaves nothing that looks installed; under a lock of its own, so that
# two runs (CI installs early in the background) build each version once.
install() {
    local dir="scripts/btcd/$1"
    case " ${VERSIONS[*]} " in
    *" $1 "*) ;;
    *)
        echo "btcd-node: version $1 is not pinned here (${VERSIONS[*]})" >&2
        return 2
        ;;
    esac
    [ -x "$dir/btcd" ] && return 0
    mkdir -p scripts/btcd
    # The lock is held by this subshell only: released when the install ends.
    (
        flock 9
        [ -x "$dir/btcd" ] && exit 0
        echo "btcd-node: installing btcd v$1 into $dir (go install)" >&2
        tmp=$(mktemp -d scripts/btcd/.install-XXXXXX)
        if ! GOBIN="$PWD/$tmp" GOFLAGS=-buildvcs=false go install "github.com/btcsuite/btcd@v$1" >&2; then
            rm -rf "$tmp"
            exit 1
        fi
        rm -rf "$dir"
        mv "$tmp" "$dir"
    ) 9>"scripts/btcd/.lock-$1"
}

if [ "${1:-}" = "--install" ]; then
    shift
    [ $# -gt 0 ] || set -- "${VERSIONS[@]}"
    pids=()
    for version in "$@"; do
        install "$version" &
        pids+=($!)
    done
    status=0
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    exit "$status"
fi
if [ "${1:-}" != "--" ] || [ $# -lt 2 ]; then
    usage
fi
shift

install "$VERSION"
BTCD="scripts/btcd/$VERSION/btcd"

. scripts/node-common.sh
RPC_USER=btcd
RPC_PASSWORD=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
PREFIX=$(mktemp -d)
LOG="${BTCD_LOG:-$PREFIX/btcd.log}"
CERT="$PREFIX/rpc.cert"
BLOOM=()
case "${BTCD_BLOOM:-true}" in
true) ;;
false) BLOOM=(--nopeerbloomfilters) ;;
*)
    echo "btcd-node: BTCD_BLOOM is true or false, not ${BTCD_BLOOM}" >&2
    exit 2
    ;;
esac
NODE_PID=
trap 'stop_pid "$NODE_PID"; rm -rf "$PREFIX"' EXIT

start_btcd() {
    read -r RPC_PORT P2P_PORT < <(scripts/free-ports.py 2)
    "$BTCD" --simnet --datadir="$PREFIX/data" --logdir="$PREFIX/logs" --debuglevel=debug \
        --listen="127.0.0.1:$P2P_PORT" --rpclisten="127.0.0.1:$RPC_PORT" \
        --rpcuser="$RPC_USER" --rpcpass="$RPC_PASSWORD" --rpccert="$CERT" --rpckey="$PREFIX/rpc.key" \
        --nodnsseed --noonion --nobanning "${BLOOM[@]}" >"$LOG" 2>&1 &
    NODE_PID=$!
}

# rpc METHOD: one JSON-RPC call over TLS with btcd's certificate, 5 s at most; fails unless the
# node answers with a result.
rpc() {
    curl -sf --max-time 5 --cacert "$CERT" -u "$RPC_USER:$RPC_PASSWORD" \
        -H 'Content-Type: application/json' \
        -d "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"$1\",\"params\":[]}" \
        "https://127.0.0.1:$RPC_PORT/"
}
btcd_ready() { [ -s "$CERT" ] && rpc getblockcount; }
btcd_log() { echo "$LOG"; }

start_until_ready "btcd-node: btcd $VERSION" start_btcd btcd_ready btcd_log

if BIP37_REGEN_RPC="127.0.0.1:$RPC_PORT" BIP37_REGEN_RPC_USER="$RPC_USER" \
    BIP37_REGEN_RPC_PASSWORD="$RPC_PASSWORD" BIP37_REGEN_RPC_CERT="$CERT" \
    BIP37_REGEN_P2P="127.0.0.1:$P2P_PORT" BIP37_NODE_MAGIC=161c1412 \
    BIP37_NODE_PID="$NODE_PID" "$@"; then
    CODE=0
else
    CODE=$?
fi
exit "$CODE"
