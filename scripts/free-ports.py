#!/usr/bin/env python3
"""Print N free TCP ports on 127.0.0.1 for a node the scripts start (scripts/*-node.sh).

The ports come from below the kernel's ephemeral range (net.ipv4.ip_local_port_range), not
from bind(0): a port bind(0) hands out is an ephemeral one, free for any outgoing connection
to take as its source port in the moment between this script closing it and the node binding
it. CI runs three node suites at once, each opening hundreds of loopback connections, so that
moment is not safe there. Each port is checked by binding it; they are held together until
all N are found, so no two are the same.
"""
import random
import socket
import sys

LOWEST = 10000


def ephemeral_low():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or not 1 <= int(sys.argv[1]) <= 16:
        sys.exit("usage: scripts/free-ports.py N   (1 <= N <= 16)")
    wanted = int(sys.argv[1])
    candidates = list(range(LOWEST, max(LOWEST + 1000, ephemeral_low())))
    random.shuffle(candidates)
    held = []
    for port in candidates:
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        held.append(s)
        if len(held) == wanted:
            break
    if len(held) < wanted:
        sys.exit(f"free-ports: only {len(held)} of {wanted} free ports below {ephemeral_low()}")
    print(*(s.getsockname()[1] for s in held))
    for s in held:
        s.close()


if __name__ == "__main__":
    main()
