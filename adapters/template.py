#!/usr/bin/env python3
"""A bip37-conform adapter template: the subprocess protocol, version 1, in plain Python.

Copy this file and adapters/py-protocol/bip37_protocol.py (the protocol loop, beside it),
replace the three example operations with calls into your implementation, add the operations you
support to OPERATIONS, and run the suite against it:

    bip37-conform run --impl "python3 adapters/template.py"

The protocol (docs/PROTOCOL.md) in short: the harness starts this program once and talks
JSON lines over stdin/stdout. This program speaks first with a hello naming the operations it
supports; then, for every request line {"id", "op", "input"}, it answers exactly one line with
the same id and a status:

    {"id": 1, "status": "ok", "output": {...}}                   a result
    {"id": 1, "status": "error", "stage": "decode", "message": ..} the input is rejected
    {"id": 1, "status": "unsupported", "message": ...}           cannot do this one (fails
                                                                 the run: the hello is a claim)

bip37_protocol.serve does all of that; an operation raises bip37_protocol.Rejected(stage,
message) to reject its input and Unsupported(message) for an input it cannot express. Bytes
are lowercase hex (bip37_protocol.from_hex). Write diagnostics to stderr, never to stdout.
Standard library only.
"""

import math
import sys
from pathlib import Path

# bip37_protocol.py is found beside this file, or in adapters/py-protocol/ of this repository.
sys.path.insert(1, str(Path(__file__).resolve().parent / "py-protocol"))
from bip37_protocol import Rejected, fp_rate, from_hex, serve  # noqa: E402

IMPLEMENTATION = "template-python"
VERSION = "0.1.0"


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
    return {"hash": murmur3(request_input["seed"], from_hex(request_input["data"]))}


def op_hash_seed(request_input):
    """hashSeed: {"hashIndex", "tweak"} -> {"seed"}: hashIndex * 0xFBA4C795 + tweak mod 2^32."""
    seed = request_input["hashIndex"] * 0xFBA4C795 + request_input["tweak"]
    return {"seed": seed & 0xFFFFFFFF}


# Core's constants (src/common/bloom.cpp), as doubles.
LN2SQUARED = 0.4804530139182014246671025263266649717305529515945455
LN2 = 0.6931471805599453094172321214581765680755001343602552


def op_sizing(request_input):
    """sizing: {"nElements", "fpRate"} -> {"filterBytes", "hashFuncs"}, as Core's constructor.

    The bit count is -1 / ln2^2 * n * ln p in doubles, in that order, truncated and capped at
    288,000; the hash function count divides the filter's bits by n in INTEGERS (//) before
    multiplying by ln 2. Inputs Core leaves undefined are rejected (docs/PROTOCOL.md, sizing).
    """
    n = request_input["nElements"]
    rate = fp_rate(request_input["fpRate"])
    if n == 0 or not rate > 0:
        raise Rejected("parameters", f"no defined filter for n = {n}, p = {rate}")
    bits = -1 / LN2SQUARED * n * math.log(rate)
    if not -1 < bits < 2**32:
        raise Rejected("parameters", f"the bit count {bits} is outside unsigned int")
    filter_bytes = min(int(bits), 36000 * 8) // 8
    return {"filterBytes": filter_bytes, "hashFuncs": min(int(filter_bytes * 8 // n * LN2), 50)}


# Wire name -> function from the request's input to the output. Operations not listed here are
# not claimed in the hello, so the harness reports them as notClaimed without asking; inputs of
# a listed operation you cannot take are declared as capabilities (docs/PROTOCOL.md), passed as
# serve(..., capabilities={...}).
OPERATIONS = {
    "hashSeed": op_hash_seed,
    "murmur3": op_murmur3,
    "sizing": op_sizing,
}


if __name__ == "__main__":
    serve(IMPLEMENTATION, VERSION, OPERATIONS)
