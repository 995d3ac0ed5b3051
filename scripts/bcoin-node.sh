#!/usr/bin/env bash
# Start bcoin 1.0.2 (a JavaScript full node written independently of Bitcoin Core) in regtest
# on 127.0.0.1, run a command against it, and stop it.
#
#   scripts/bcoin-node.sh -- COMMAND [ARGS...]
#
# The command runs with these variables (the values `bip37-conform regen` takes as --rpc,
# --rpc-user, --rpc-password, --p2p and --magic; the names match those of the ignored live
# tests in harness/tests/regen_live_node.rs):
#   BIP37_REGEN_RPC, BIP37_REGEN_RPC_USER, BIP37_REGEN_RPC_PASSWORD  RPC (HTTP basic auth;
#       bcoin checks only the password, its API key)
#   BIP37_REGEN_P2P    P2P address      BIP37_NODE_MAGIC   network magic as 8 hex digits
#   BIP37_NODE_PID     the node's process id
# The exit code is the command's; 2 if the node did not come up.
#
# Environment: BCOIN_BIP37=false starts the node without NODE_BLOOM (default true);
# BCOIN_LOG=FILE keeps the node's log there (default: a temporary file, shown on failure).
#
# bcoin is installed from scripts/bcoin/package-lock.json into scripts/bcoin/node_modules
# (git-ignored) with `npm ci --ignore-scripts`, once. Its database layer needs the native
# `leveldown`, which does not compile on Node 20; scripts/bcoin/leveldown-stub stands in for
# it. The node runs with --memory=true, where every database is bdb's in-memory one, so the
# stub is never called (it throws if it ever is). NODE_BACKEND=js makes bcoin's crypto and
# hashing use their JavaScript code instead of native addons that were not built.
#
# Network: no seeds (--seeds=, overrides regtest's 127.0.0.1 seed), one outbound slot that
# nothing fills (bcoin refuses --max-outbound=0), P2P and RPC bound to 127.0.0.1. bcoin still
# asks DNS once for its external address (myip.opendns.com); no option of 1.0.2 turns that off
# while listening, and the answer is unused on regtest.
#
# Bans: bcoin bans the peer's IP for 24 h on any violation (ban score 100, neither threshold
# nor time is settable from its command line). Clear them with RPC `clearbanned`, as regen does,
# or connect from another loopback source address (127.0.0.2 is not banned with 127.0.0.1).
# bcoin also takes at most 8 inbound peers and drops the ninth before `version`.
#
# Cost: npm ci about 10 s (first run, npm cache warm), node up and listening in 1.5-3 s,
# stopped within 1 s.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--" ] || [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
shift

DIR=scripts/bcoin
if [ ! -f "$DIR/node_modules/bcoin/bin/node" ] ||
    ! cmp -s "$DIR/package-lock.json" "$DIR/node_modules/.package-lock.json.installed"; then
    echo "bcoin-node: installing bcoin from $DIR/package-lock.json" >&2
    (cd "$DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
    cp "$DIR/package-lock.json" "$DIR/node_modules/.package-lock.json.installed"
fi

. scripts/node-common.sh
API_KEY=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
PREFIX=$(mktemp -d)
LOG="${BCOIN_LOG:-$PREFIX/bcoin.log}"
NODE_PID=
trap 'stop_pid "$NODE_PID"; rm -rf "$PREFIX"' EXIT

start_bcoin() {
    read -r RPC_PORT P2P_PORT < <(scripts/free-ports.py 2)
    NODE_BACKEND=js node "$DIR/node_modules/bcoin/bin/node" \
        --network=regtest --prefix="$PREFIX" --memory=true --no-wallet=true \
        --bip37="${BCOIN_BIP37:-true}" \
        --listen=true --host=127.0.0.1 --port="$P2P_PORT" \
        --http-host=127.0.0.1 --http-port="$RPC_PORT" --api-key="$API_KEY" \
        --seeds=, --max-outbound=1 \
        --log-console=true --log-level=debug >"$LOG" 2>&1 &
    NODE_PID=$!
}

# rpc METHOD: one JSON-RPC call, 5 s at most; fails unless the node answers with a result.
rpc() {
    curl -sf --max-time 5 -u "bcoin:$API_KEY" -H 'Content-Type: application/json' \
        -d "{\"method\":\"$1\",\"params\":[]}" "http://127.0.0.1:$RPC_PORT/"
}
bcoin_ready() { rpc getblockchaininfo; }
bcoin_log() { echo "$LOG"; }

start_until_ready "bcoin-node: bcoin" start_bcoin bcoin_ready bcoin_log
# The P2P listener may open after RPC; wait for its log line (10 s at most).
for _ in $(seq 40); do
    grep -q "Pool server listening" "$LOG" && break
    sleep 0.25
done

# bcoin's regtest magic is 0xdab5bffa as a little-endian number: on the wire fa bf b5 da,
# the same bytes as Bitcoin Core's regtest.
if BIP37_REGEN_RPC="127.0.0.1:$RPC_PORT" BIP37_REGEN_RPC_USER=bcoin \
    BIP37_REGEN_RPC_PASSWORD="$API_KEY" BIP37_REGEN_P2P="127.0.0.1:$P2P_PORT" \
    BIP37_NODE_MAGIC=fabfb5da BIP37_NODE_PID="$NODE_PID" "$@"; then
    CODE=0
else
    CODE=$?
fi
exit "$CODE"
