#!/usr/bin/env python3
"""A bip37-conform adapter template: the subprocess protocol, version 1, in plain Python.

Copy this file, replace the two example operations with calls into your implementation, add
the operations you support to OPERATIONS, and run the suite against it:

    bip37-conform run --impl "python3 adapters/template.py"

The protocol (docs/PROTOCOL.md) in short: the harness starts this program once and talks
JSON lines over stdin/stdout. This program speaks first with a hello naming the operations it
supports; then, for every request line {"id", "op", "input"}, it answers exactly one line with
the same id and a status:

    {"id": 1, "status": "ok", "output": {...}}                   a result
    {"id": 1, "status": "error", "stage": "decode", "message": ..} the input is rejected
    {"id": 1, "status": "unsupported", "message": ...}           cannot do this one

Bytes are lowercase hex. Write diagnostics to stderr, never to stdout. When stdin closes,
exit. Standard library only.
"""

import json
import sys

IMPLEMENTATION = "template-python"
VERSION = "0.1.0"


class Rejected(Exception):
    """Raise from an operation to reject its input (status "error") at a stage:
    "decode", "limits", "parameters" or "validation"."""

    def __init__(self, stage, message):
        super().__init__(message)
        self.stage = stage


def murmur3(seed, data):
    """MurmurHash3 x86_32, as Bitcoin Core's MurmurHash3 (little-endian blocks and tail)."""
    mask = 0xFFFFFFFF
    h = seed & mask
    c1, c2 = 0xCC9E2D51, 0x1B873593
    rounded = len(data) - len(data) % 4
    for i in range(0, rounded, 4):
        k = int.from_bytes(data[i : i + 4], "little")
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        h ^= (k * c2) & mask
        h = ((h << 13) | (h >> 19)) & mask
        h = (h * 5 + 0xE6546B64) & mask
    tail = data[rounded:]
    if tail:
        k = int.from_bytes(tail, "little")
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        h ^= (k * c2) & mask
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & mask
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & mask
    return h ^ (h >> 16)


def op_murmur3(request_input):
    """murmur3: {"seed", "data"} -> {"hash"}."""
    return {"hash": murmur3(request_input["seed"], bytes.fromhex(request_input["data"]))}


def op_hash_seed(request_input):
    """hashSeed: {"hashIndex", "tweak"} -> {"seed"}: hashIndex * 0xFBA4C795 + tweak mod 2^32."""
    seed = request_input["hashIndex"] * 0xFBA4C795 + request_input["tweak"]
    return {"seed": seed & 0xFFFFFFFF}


# Wire name -> function from the request's input to the output. Operations not listed here are
# not claimed in the hello, so the harness reports them as unsupported without asking.
OPERATIONS = {
    "murmur3": op_murmur3,
    "hashSeed": op_hash_seed,
}


def answer(request, operations):
    """The answer object for one request object."""
    handler = operations.get(request.get("op"))
    if handler is None:
        return {"id": request["id"], "status": "unsupported", "message": "not implemented"}
    try:
        return {"id": request["id"], "status": "ok", "output": handler(request["input"])}
    except Rejected as rejection:
        return {"id": request["id"], "status": "error", "stage": rejection.stage,
                "message": str(rejection)}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(operations=OPERATIONS, implementation=IMPLEMENTATION, version=VERSION):
    """Says hello, then answers every request line until stdin closes."""
    send({"hello": {"protocol": 1, "implementation": implementation, "version": version,
                    "operations": sorted(operations)}})
    for line in sys.stdin:
        send(answer(json.loads(line), operations))


if __name__ == "__main__":
    serve()
