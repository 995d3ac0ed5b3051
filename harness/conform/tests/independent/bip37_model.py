#!/usr/bin/env python3
"""An independent BIP 37 filter model with planted mistakes, for testing the suite's verdicts.

Written from the BIP 37 text and Bitcoin Core's documented behaviour (MurmurHash3 x86_32, the
seed i * 0xFBA4C795 + nTweak mod 2^32, the constructor's truncating arithmetic, LSB-first bits,
the filterload/filteradd layouts and the node's limits), not from this repository's Rust code,
so that the harness's diagnosis is checked against mistakes it was not built around.

It speaks the subprocess protocol (docs/PROTOCOL.md) for the filter operations. With no mistake
it is conformant. `--mistake NAME` (repeatable, or BIP37_MODEL_MISTAKES=NAME,NAME) plants
mistakes by name; `--list` prints them. Standard library only.
"""

import json
import math
import os
import sys

MASK32 = 0xFFFFFFFF
SEED_STEP = 0xFBA4C795
LN2SQUARED = 0.4804530139182014246671025263266649717305529515945455
LN2 = 0.6931471805599453094172321214581765680755001343602552
MAX_FILTER_BYTES = 36000
MAX_HASH_FUNCS = 50
MAX_ELEMENT_BYTES = 520
MAX_COMPACT_SIZE = 0x02000000

# Every plantable mistake, with what it does. The harness's test keeps its own table of which
# bug class (if any) the diagnosis must name for each.
MISTAKES = {
    "murmur-big-endian-blocks": "MurmurHash3 reads its 4-byte blocks big-endian",
    "murmur-tail-reversed": "MurmurHash3 combines its 2 or 3 tail bytes in reverse order",
    "murmur-signed-tail": "MurmurHash3 sign-extends tail bytes of 0x80 or more",
    "murmur-xor-block-count": "MurmurHash3's finalisation mixes in the number of 4-byte blocks instead of the byte length",
    "seed-mod-2-31": "the seed i * 0xFBA4C795 + tweak is reduced modulo 2^31 instead of 2^32",
    "seed-not-wrapped": "the seed i * 0xFBA4C795 + tweak is never reduced: MurmurHash3 starts from the whole number",
    "hex-text-hashed": "elements are hashed as their hex text, not their bytes",
    "empty-element-skipped": "inserting the empty element does nothing",
    "float-hash-count": "the hash function count divides bytes * 8 by n as floats",
    "size-rounded-up": "the filter size rounds bits up to whole bytes",
    "no-hash-func-cap": "the constructor does not cap the hash function count at 50",
    "no-filter-size-cap": "the constructor does not cap the filter at 36,000 bytes",
    "msb-first-bits": "bit x is bit 7 - x % 8 of byte x / 8",
    "modulus-by-bytes": "the bit index is the hash modulo the byte count",
    "big-endian-tweak": "nTweak is written and read big-endian",
    "big-endian-hash-funcs": "nHashFuncs is written and read big-endian",
    "compact-size-early": "CompactSize writes the 0xfd form from 252 on, one step early",
    "big-endian-length": "multi-byte CompactSize values are written and read big-endian",
    "non-canonical-accepted": "over-long CompactSize forms are accepted",
    "truncation-zero-filled": "a payload that ends early is read as if zero bytes followed",
    "zero-hash-funcs-refused": "0 hash functions are refused as undecodable (filterload) or invalid (filters)",
    "no-filter-size-limit": "filterloadAccept lets filters over 36,000 bytes through",
    "no-hash-func-limit": "filterloadAccept lets more than 50 hash functions through",
    "no-element-size-limit": "filteraddAccept lets elements over 520 bytes through",
    "limits-exclusive": "the node's limits refuse 36,000 bytes, 50 functions and 520-byte elements",
    "crash-on-empty-filter": "hashing into a 0-byte filter raises ZeroDivisionError (an uncaught exception)",
    "flags-written-as-bit": "the flags byte is written as flags & 1",
    "refuse-everything": "every request is refused as undecodable",
    "without-contains": "no contains: buildFilter with queries is unsupported, and only murmur3, sizing, bitIndexes and buildFilter are offered",
}


class Rejected(Exception):
    """The input is refused at a stage ("decode", "limits", "parameters")."""

    def __init__(self, stage, message):
        super().__init__(message)
        self.stage = stage


class Unsupported(Exception):
    """This shape of input is not supported."""


class Model:
    """The filter operations, with the planted mistakes in `mistakes`."""

    def __init__(self, mistakes):
        self.mistakes = frozenset(mistakes)

    def has(self, name):
        return name in self.mistakes

    # MurmurHash3 x86_32 and the seeds.

    def murmur3(self, seed, data):
        c1, c2 = 0xCC9E2D51, 0x1B873593
        rotl = lambda x, r: ((x << r) | (x >> (32 - r))) & MASK32
        h = seed if self.has("seed-not-wrapped") else seed & MASK32
        whole = len(data) - len(data) % 4
        block_order = "big" if self.has("murmur-big-endian-blocks") else "little"
        for i in range(0, whole, 4):
            k = int.from_bytes(data[i:i + 4], block_order)
            k = (rotl((k * c1) & MASK32, 15) * c2) & MASK32
            h = rotl(h ^ k, 13)
            h = (h * 5 + 0xE6546B64) & MASK32
        tail = data[whole:]
        if tail:
            k = 0
            for position, byte in enumerate(tail):
                if self.has("murmur-signed-tail") and byte >= 0x80:
                    byte -= 0x100
                shift = 8 * (len(tail) - 1 - position) if self.has("murmur-tail-reversed") else 8 * position
                k ^= (byte << shift) & MASK32
            k = (rotl((k * c1) & MASK32, 15) * c2) & MASK32
            h ^= k
        h ^= len(data) // 4 if self.has("murmur-xor-block-count") else len(data)
        for shift, multiplier in ((16, 0x85EBCA6B), (13, 0xC2B2AE35)):
            h = ((h ^ (h >> shift)) * multiplier) & MASK32
        return h ^ (h >> 16)

    def seed(self, index, tweak):
        seed = index * SEED_STEP + tweak
        if self.has("seed-not-wrapped"):
            return seed
        return seed % (1 << 31 if self.has("seed-mod-2-31") else 1 << 32)

    # The constructor's sizing.

    def sizing(self, n, rate):
        """(bytes, hash functions) for n elements at false-positive rate `rate`."""
        if n == 0 or not defined_rate(rate):
            raise Rejected("parameters", f"no defined filter for n = {n}, p = {rate}")
        bits = -1 / LN2SQUARED * n * math.log(rate)
        if not -1 < bits < 1 << 32:
            # C++ converts a double to unsigned int by truncating toward zero, defined only
            # when the truncated value fits: anything in (-1, 2^32).
            raise Rejected("parameters", "the bit count does not fit Core's 32-bit conversion")
        if self.has("size-rounded-up"):
            bits = math.ceil(bits / 8) * 8
        bits = int(bits)
        if not self.has("no-filter-size-cap"):
            bits = min(bits, MAX_FILTER_BYTES * 8)
        size = bits // 8
        if self.has("float-hash-count"):
            funcs = int(size * 8 / n * LN2)
        else:
            funcs = int((size * 8 // n) * LN2)
        if not self.has("no-hash-func-cap"):
            funcs = min(funcs, MAX_HASH_FUNCS)
        return size, funcs

    # The filter.

    def new_filter(self, spec):
        kind = spec["kind"]
        if kind == "sized":
            size, funcs = self.sizing(spec["nElements"], rate_of(spec["fpRate"]))
            data = bytearray(size)
        elif kind == "explicit":
            data, funcs = bytearray(spec["filterBytes"]), spec["hashFuncs"]
        else:
            data, funcs = bytearray.fromhex(spec["data"]), spec["hashFuncs"]
        if funcs == 0 and self.has("zero-hash-funcs-refused"):
            raise Rejected("parameters", "a filter needs at least one hash function")
        return Filter(self, data, funcs, spec["tweak"], spec["flags"])

    # The messages.

    def write_compact_size(self, n):
        one_byte_limit = 252 if self.has("compact-size-early") else 253
        order = "big" if self.has("big-endian-length") else "little"
        if n < one_byte_limit:
            return bytes([n])
        if n <= 0xFFFF:
            return b"\xfd" + n.to_bytes(2, order)
        if n <= MASK32:
            return b"\xfe" + n.to_bytes(4, order)
        return b"\xff" + n.to_bytes(8, order)

    def read_compact_size(self, reader):
        first = reader.take(1)[0]
        order = "big" if self.has("big-endian-length") else "little"
        width, smallest = {0xFD: (2, 0xFD), 0xFE: (4, 0x10000), 0xFF: (8, 1 << 32)}.get(first, (0, 0))
        value = int.from_bytes(reader.take(width), order) if width else first
        if width and value < smallest and not self.has("non-canonical-accepted"):
            raise Rejected("decode", "non-canonical CompactSize")
        if value > MAX_COMPACT_SIZE:
            raise Rejected("decode", "CompactSize above 0x02000000")
        return value

    def decode_filterload(self, payload):
        reader = Reader(payload, self.has("truncation-zero-filled"))
        data = reader.take(self.read_compact_size(reader))
        funcs = int.from_bytes(reader.take(4), self.funcs_order())
        tweak = int.from_bytes(reader.take(4), self.tweak_order())
        flags = reader.take(1)[0]
        if funcs == 0 and self.has("zero-hash-funcs-refused"):
            raise Rejected("decode", "nHashFuncs is 0")
        return {"data": data.hex(), "hashFuncs": funcs, "tweak": tweak, "flags": flags}

    def decode_filteradd(self, payload):
        reader = Reader(payload, self.has("truncation-zero-filled"))
        return {"data": reader.take(self.read_compact_size(reader)).hex()}

    def funcs_order(self):
        return "big" if self.has("big-endian-hash-funcs") else "little"

    def tweak_order(self):
        return "big" if self.has("big-endian-tweak") else "little"

    def over(self, value, limit):
        return value >= limit if self.has("limits-exclusive") else value > limit

    def accept_filterload(self, payload):
        load = self.decode_filterload(payload)
        size = len(load["data"]) // 2
        if self.over(size, MAX_FILTER_BYTES) and not self.has("no-filter-size-limit"):
            raise Rejected("limits", f"filter of {size} bytes")
        if self.over(load["hashFuncs"], MAX_HASH_FUNCS) and not self.has("no-hash-func-limit"):
            raise Rejected("limits", f"{load['hashFuncs']} hash functions")
        return load

    def accept_filteradd(self, payload):
        add = self.decode_filteradd(payload)
        too_long = self.over(len(add["data"]) // 2, MAX_ELEMENT_BYTES)
        if too_long and not self.has("no-element-size-limit"):
            raise Rejected("limits", "element over 520 bytes")
        return add


class Filter:
    def __init__(self, model, data, funcs, tweak, flags):
        self.model, self.data, self.funcs, self.tweak, self.flags = model, data, funcs, tweak, flags

    def indexes(self, element):
        if not self.data and not self.model.has("crash-on-empty-filter"):
            return []
        if self.model.has("hex-text-hashed"):
            element = element.hex().encode()
        modulus = len(self.data) if self.model.has("modulus-by-bytes") else len(self.data) * 8
        return [self.model.murmur3(self.model.seed(i, self.tweak), element) % modulus
                for i in range(self.funcs)]

    def mask(self, index):
        bit = 7 - index % 8 if self.model.has("msb-first-bits") else index % 8
        return index // 8, 1 << bit

    def insert(self, element):
        if not element and self.model.has("empty-element-skipped"):
            return
        for index in self.indexes(element):
            byte, mask = self.mask(index)
            self.data[byte] |= mask

    def contains(self, element):
        if not self.data:
            return True
        for index in self.indexes(element):
            byte, mask = self.mask(index)
            if not self.data[byte] & mask:
                return False
        return True

    def filterload(self):
        flags = self.flags & 1 if self.model.has("flags-written-as-bit") else self.flags
        return (self.model.write_compact_size(len(self.data)) + bytes(self.data)
                + self.funcs.to_bytes(4, self.model.funcs_order())
                + self.tweak.to_bytes(4, self.model.tweak_order()) + bytes([flags]))


class Reader:
    """Reads a payload front to back; running out of bytes is a decode rejection."""

    def __init__(self, payload, zero_filled=False):
        self.payload, self.at, self.zero_filled = payload, 0, zero_filled

    def take(self, n):
        if n > len(self.payload) - self.at:
            if self.zero_filled:
                chunk = self.payload[self.at:].ljust(n, b"\0")
                self.at = len(self.payload)
                return chunk
            raise Rejected("decode", "the payload ends early")
        chunk = self.payload[self.at:self.at + n]
        self.at += n
        return chunk


def defined_rate(rate):
    """The rates Core can size: it computes log(rate), so a rate of 0 or less, NaN or an
    infinity has no defined filter. A rate of 1 or more gives a bit count of 0 or below, which
    is defined as long as it truncates to 0 (checked in `sizing`)."""
    return 0.0 < rate < math.inf


def rate_of(value):
    return float(value) if not isinstance(value, str) else {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[value]


def operations(model):
    """Wire name -> handler from a request's input to its output."""
    def build_filter(i):
        if i["queries"] and model.has("without-contains"):
            raise Unsupported("no contains")
        f = model.new_filter(i["filter"])
        for element in i["insert"]:
            f.insert(bytes.fromhex(element))
        contains = [f.contains(bytes.fromhex(q)) for q in i["queries"]]
        return {"filterload": f.filterload().hex(), "contains": contains}

    ops = {
        "murmur3": lambda i: {"hash": model.murmur3(i["seed"], bytes.fromhex(i["data"]))},
        "hashSeed": lambda i: {"seed": model.seed(i["hashIndex"], i["tweak"])},
        "sizing": lambda i: dict(zip(("filterBytes", "hashFuncs"), model.sizing(i["nElements"], rate_of(i["fpRate"])))),
        "bitIndexes": lambda i: {"indexes": model.new_filter(i["filter"]).indexes(bytes.fromhex(i["element"]))},
        "buildFilter": build_filter,
        "filterloadDecode": lambda i: model.decode_filterload(bytes.fromhex(i["payload"])),
        "filterloadAccept": lambda i: model.accept_filterload(bytes.fromhex(i["payload"])),
        "filteraddDecode": lambda i: model.decode_filteradd(bytes.fromhex(i["payload"])),
        "filteraddAccept": lambda i: model.accept_filteradd(bytes.fromhex(i["payload"])),
    }
    if model.has("without-contains"):
        ops = {name: ops[name] for name in ("murmur3", "sizing", "bitIndexes", "buildFilter")}
    if model.has("refuse-everything"):
        ops = {name: refuse for name in ops}
    return ops


def refuse(_input):
    raise Rejected("decode", "refused")


def answer(request, ops):
    handler = ops.get(request["op"])
    if handler is None:
        return {"id": request["id"], "status": "unsupported", "message": "not offered"}
    try:
        return {"id": request["id"], "status": "ok", "output": handler(request["input"])}
    except Rejected as rejection:
        return {"id": request["id"], "status": "error", "stage": rejection.stage, "message": str(rejection)}
    except Unsupported as why:
        return {"id": request["id"], "status": "unsupported", "message": str(why)}


def planted(argv):
    names = [n for n in os.environ.get("BIP37_MODEL_MISTAKES", "").split(",") if n]
    args = iter(argv)
    for arg in args:
        if arg == "--mistake":
            names.append(next(args, ""))
        elif arg == "--list":
            for name, what in MISTAKES.items():
                print(f"{name}\t{what}")
            sys.exit(0)
        else:
            sys.exit(f"unknown argument {arg!r} (use --mistake NAME or --list)")
    unknown = [n for n in names if n not in MISTAKES]
    if unknown:
        sys.exit(f"unknown mistake {unknown}; --list shows them")
    return names


def main():
    names = planted(sys.argv[1:])
    ops = operations(Model(names))
    send({"hello": {"protocol": 1, "implementation": "independent-model", "version": "+".join(names) or "correct",
                    "operations": sorted(ops)}})
    for line in sys.stdin:
        send(answer(json.loads(line), ops))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
