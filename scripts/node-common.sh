# Sourced by scripts/bcoin-node.sh, scripts/btcd-node.sh and scripts/live-node.sh: starting a
# node on free loopback ports until it answers, and stopping it. Not a command of its own.

# start_until_ready WHAT START READY LOG_OF: runs START, which picks fresh ports
# (scripts/free-ports.py), starts the node in the background and sets NODE_PID; then polls READY
# (a command that succeeds once the node answers RPC) for up to 60 s. A node that exits before
# it answers (a port taken by another process at the last moment, say) is started again, on
# fresh ports, three times in all. When it never answers, prints the end of its log (LOG_OF
# prints the log's path) and exits 2.
start_until_ready() {
    local what=$1 start=$2 ready=$3 log_of=$4 try code
    for try in 1 2 3; do
        "$start"
        for _ in $(seq 240); do
            if "$ready" >/dev/null 2>&1; then
                return 0
            fi
            kill -0 "$NODE_PID" 2>/dev/null || break
            sleep 0.25
        done
        if kill -0 "$NODE_PID" 2>/dev/null; then
            echo "$what did not answer RPC within 60 s; the end of its log:" >&2
            tail -n 20 "$("$log_of")" >&2 || true
            exit 2
        fi
        code=0
        wait "$NODE_PID" 2>/dev/null || code=$?
        echo "$what exited (code $code) before it answered RPC, start $try of 3; the end of its log:" >&2
        tail -n 20 "$("$log_of")" >&2 || true
    done
    exit 2
}

# stop_pid PID: SIGTERM, up to 10 s for the process to end, then SIGKILL; reaps it.
stop_pid() {
    if kill -0 "$1" 2>/dev/null; then
        kill -TERM "$1"
        for _ in $(seq 50); do
            kill -0 "$1" 2>/dev/null || break
            sleep 0.2
        done
        kill -0 "$1" 2>/dev/null && kill -KILL "$1"
    fi
    wait "$1" 2>/dev/null || true
}
