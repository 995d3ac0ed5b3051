#!/usr/bin/env python3
"""An independent BIP 37 model with planted mistakes, for testing the suite's verdicts.

Written from the BIP 37 text and Bitcoin Core's documented behaviour (the project's Core facts:
MurmurHash3 x86_32, the seed i * 0xFBA4C795 + nTweak mod 2^32, the constructor's truncating
arithmetic, LSB-first bits, the filterload/filteradd layouts and the node's limits,
IsRelevantAndUpdate's four places and its update rules, CMerkleBlock, the partial merkle tree's
TraverseAndBuild and ExtractMatches, and what a node does with each filter message), not from
this repository's Rust code, so that the harness's diagnosis is checked against mistakes it was
not built around.

It speaks the subprocess protocol (docs/PROTOCOL.md) for every operation. With no mistake it is
conformant. `--mistake NAME` (repeatable, or BIP37_MODEL_MISTAKES=NAME,NAME) plants mistakes by
name; `--list` prints them, each with the step of Core's algorithm it breaks (a step id of
docs/CORE-STEPS.md). `--mode NAME` restricts what the model offers instead (a capability, not a
mistake): `without-contains`, `refuse-everything`. Standard library only.
"""

import hashlib
import json
import math
import os
import sys

MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1
SEED_STEP = 0xFBA4C795
LN2SQUARED = 0.4804530139182014246671025263266649717305529515945455
LN2 = 0.6931471805599453094172321214581765680755001343602552
MAX_FILTER_BYTES = 36000
MAX_HASH_FUNCS = 50
MAX_ELEMENT_BYTES = 520
MAX_COMPACT_SIZE = 0x02000000
MAX_MESSAGE_BYTES = 4_000_000
MAX_BLOCK_TXS = 4_000_000 // 240
OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4 = 0x4C, 0x4D, 0x4E
OP_1, OP_16, OP_CHECKSIG, OP_CHECKMULTISIG = 0x51, 0x60, 0xAC, 0xAE

# Every plantable mistake: name -> (the step of docs/CORE-STEPS.md it breaks, what it does).
MISTAKES = {
    # MurmurHash3 and the seeds.
    "murmur-big-endian-blocks": ("murmur.block-little-endian", "MurmurHash3 reads its 4-byte blocks big-endian"),
    "murmur-tail-reversed": ("murmur.tail-order", "MurmurHash3 combines its 2 or 3 tail bytes in reverse order"),
    "murmur-signed-tail": ("murmur.tail-unsigned", "MurmurHash3 sign-extends tail bytes of 0x80 or more"),
    "murmur-xor-block-count": ("murmur.length-in-bytes", "MurmurHash3's finalisation mixes in the number of 4-byte blocks instead of the byte length"),
    "seed-mod-2-31": ("seed.modulus-2-32", "the seed i * 0xFBA4C795 + tweak is reduced modulo 2^31 instead of 2^32"),
    "seed-not-wrapped": ("seed.wraps", "the seed i * 0xFBA4C795 + tweak is never reduced: MurmurHash3 starts from the whole number"),
    "tweak-ignored": ("seed.tweak-added", "the seed is i * 0xFBA4C795: the tweak is never added"),
    "signed-tweak": ("seed.tweak-unsigned", "the seed is computed in 64 bits from the tweak read as a signed 32-bit number (Java's long arithmetic with an int tweak), never reduced"),
    # The constructor's sizing.
    "size-rounded-up": ("sizing.bytes-truncated", "the filter size rounds bits up to whole bytes"),
    "float-hash-count": ("sizing.hash-count-integer-division", "the hash function count divides bytes * 8 by n as floats"),
    "hash-count-from-raw-bits": ("sizing.hash-count-from-whole-bytes", "the hash function count divides the capped bit count, not the whole bytes' bits, by n"),
    "hash-count-rounded": ("sizing.hash-count-truncated", "the hash function count is rounded to nearest"),
    "forced-minimum-one-hash": ("sizing.zero-hash-funcs", "a filter the constructor makes gets at least one hash function"),
    "no-hash-func-cap": ("sizing.hash-func-cap", "the constructor does not cap the hash function count at 50"),
    "no-filter-size-cap": ("sizing.filter-size-cap", "the constructor does not cap the filter at 36,000 bytes"),
    "filter-limit-in-bits": ("const.filter-limit-unit-bits", "MAX_BLOOM_FILTER_SIZE is 36,000 bits (4,500 bytes), for the constructor's cap and the node's limit"),
    "filter-limit-times-eight": ("const.filter-limit-unit-bytes", "MAX_BLOOM_FILTER_SIZE is 288,000 bytes, for the constructor's cap and the node's limit"),
    "undefined-sizing-answered": ("sizing.undefined-refused", "sizing converts Core's undefined bit counts with a saturating cast and answers"),
    # The filter's bits.
    "msb-first-bits": ("filter.bit-order", "bit x is bit 7 - x % 8 of byte x / 8"),
    "modulus-by-bytes": ("filter.modulus-bits", "the bit index is the hash modulo the byte count"),
    "hex-text-hashed": ("filter.raw-bytes", "elements are hashed as their hex text, not their bytes"),
    "empty-element-skipped": ("filter.empty-element", "inserting the empty element does nothing"),
    "long-element-truncated": ("filter.long-element", "elements are cut to 520 bytes before they are hashed"),
    "empty-filter-divides": ("filter.empty-filter-guard", "the 0-byte filter is hashed into: the division by zero is reported as a parameters error"),
    "crash-on-empty-filter": ("filter.empty-filter-guard", "hashing into a 0-byte filter raises ZeroDivisionError (an uncaught exception)"),
    "zero-hash-funcs-refused": ("filter.zero-hash-funcs-legal", "0 hash functions are refused as undecodable (filterload) or invalid (filters)"),
    "contains-any-bit": ("filter.contains-all-bits", "contains answers yes when any one of the element's bits is set"),
    # Message layout.
    "big-endian-hash-funcs": ("wire.nhashfuncs-le", "nHashFuncs is written and read big-endian"),
    "big-endian-tweak": ("wire.ntweak-le", "nTweak is written and read big-endian"),
    "big-endian-length": ("wire.compact-size-le", "multi-byte CompactSize values are written and read big-endian"),
    "compact-size-early": ("wire.compact-size-252", "CompactSize uses the 0xfd form from 252 on, one step early, when writing and reading"),
    "compact-size-late": ("wire.compact-size-253", "CompactSize keeps the one-byte form up to 253, one step late, when writing and reading"),
    "non-canonical-accepted": ("wire.compact-size-canonical", "over-long CompactSize forms are accepted"),
    "truncation-zero-filled": ("wire.truncation", "a payload that ends early is read with what is there: short data, missing fields zero"),
    "untrusted-length": ("wire.compact-size-maximum", "a length prefix is allocated as claimed, with no 0x02000000 maximum"),
    "flags-written-as-bit": ("wire.nflags-byte", "the flags byte is written as flags & 1"),
    # Limits a node applies.
    "no-filter-size-limit": ("limits.filter-bytes", "filterloadAccept lets filters over 36,000 bytes through"),
    "no-hash-func-limit": ("limits.hash-funcs", "filterloadAccept lets more than 50 hash functions through"),
    "no-element-size-limit": ("limits.element-bytes", "filteraddAccept lets elements over 520 bytes through"),
    "limits-exclusive": ("limits.inclusive", "the node's limits refuse 36,000 bytes, 50 functions and 520-byte elements"),
    # Transaction matching.
    "txid-display-order": ("match.txid-internal-order", "the txid is tested byte-reversed, as RPCs print it"),
    "txid-not-tested": ("match.txid", "the txid is never tested"),
    "txid-with-witness": ("match.txid-without-witness", "the txid hashes the serialization with its witness"),
    "outputs-not-tested": ("match.output-pushes", "the outputs' scriptPubKeys are never tested"),
    "whole-script-tested": ("match.pushes-only", "each whole script is tested before its pushes"),
    "empty-push-tested": ("match.empty-push", "pushes of no bytes (OP_0, PUSHDATA of 0) are tested as the empty element"),
    "small-integer-tested": ("match.small-integers", "OP_1..OP_16 are tested as the one-byte number they push"),
    "pushdata-skipped": ("match.pushdata-opcodes", "only the direct pushes 0x01..0x4b are tested"),
    "pushdata-length-big-endian": ("match.pushdata-length-le", "the lengths after OP_PUSHDATA2/4 are read big-endian"),
    "long-push-skipped": ("match.long-push", "pushes over 520 bytes are not tested"),
    "truncated-push-tested": ("match.truncated-push-stops", "the bytes present of a push that runs past the script's end are tested"),
    "abort-after-txid-match": ("match.outputs-after-txid", "a txid match returns at once, before the outputs"),
    "abort-after-output-match": ("match.outputs-after-match", "the first matching output ends the scan"),
    "prevout-not-tested": ("match.prevout", "the inputs' prevouts are never tested"),
    "outpoint-index-big-endian": ("match.outpoint-index-le", "an outpoint's index is serialized big-endian"),
    "scriptsig-not-tested": ("match.scriptsig", "the inputs' scriptSig pushes are never tested"),
    "witness-tested": ("match.no-witness", "the inputs' witness items are tested after their scriptSig"),
    "coinbase-skipped": ("match.coinbase", "a coinbase's input is not tested"),
    # Updates.
    "outpoint-per-push": ("update.one-per-output", "every matching push inserts an outpoint numbered by push, across the outputs"),
    "update-all-inserts-nothing": ("update.all-inserts", "BLOOM_UPDATE_ALL inserts nothing"),
    "flags-not-masked": ("update.mask", "the update mode is the whole flags byte"),
    "flags-three-as-all": ("update.mode-3", "the update mode tests bit 0 first, so 3 acts as ALL"),
    "p2pubkey-only-any-output": ("update.p2pubkey-only-templates", "P2PUBKEY_ONLY inserts for every matching output"),
    "p2pubkey-only-no-multisig": ("update.p2pubkey-only-multisig", "P2PUBKEY_ONLY inserts for pay-to-pubkey only, not bare multisig"),
    "p2pubkey-only-strict-keys": ("update.p2pubkey-only-key-prefixes", "P2PUBKEY_ONLY takes 65-byte keys starting 04 only, not 06 or 07"),
    # Merkle blocks and partial merkle trees.
    "block-filter-snapshot": ("block.in-order", "a block's transactions are judged against the filter as it was before the block"),
    "pmt-bits-msb-first": ("pmt.flag-bits-lsb", "the tree's flag bits are packed most significant first"),
    "pmt-hashes-reversed": ("pmt.hashes-internal-order", "the tree's hashes are written and read byte-reversed"),
    "pmt-count-big-endian": ("pmt.ntx-le", "the tree's transaction count is written and read big-endian"),
    "pmt-odd-node-promoted": ("pmt.odd-node", "when extracting, a node without a right child is its left child unhashed"),
    "pmt-padding-unchecked": ("pmt.padding", "extracting ignores unused whole flag bytes"),
    "pmt-unused-hashes": ("pmt.hashes-used", "extracting ignores unused hashes"),
    "pmt-count-unbounded": ("pmt.max-transactions", "extracting accepts any transaction count"),
    "pmt-identical-siblings": ("pmt.identical-siblings", "extracting accepts two identical children"),
    # A node's session.
    "updates-on-copy": ("session.updates-persist", "a session evaluates transactions and blocks on a copy of the filter"),
    "filterclear-ignored": ("session.filterclear", "filterclear changes nothing"),
    "rejected-filterload-installed": ("session.rejected-filterload", "a filterload over the limits is punished but installed"),
    "filteradd-without-filter": ("session.filteradd-needs-filter", "filteradd with no filter is accepted and does nothing"),
    "filteradd-empty-filter-punished": ("session.filteradd-empty-filter", "filteradd to a 0-byte filter is punished"),
    "malformed-punished": ("session.undecodable-dropped", "an undecodable filterload or filteradd is punished"),
    "merkleblock-without-filter": ("session.merkleblock-needs-filter", "a filtered block is served with no filter loaded, as if the filter matched all"),
}

# Capabilities the model can withhold (not mistakes of Core's algorithm).
MODES = {
    "without-contains": "no contains: buildFilter with queries is unsupported, and only murmur3, sizing, bitIndexes and buildFilter are offered",
    "refuse-everything": "every request is refused as undecodable",
}


class Rejected(Exception):
    """The input is refused at a stage ("decode", "limits", "parameters", "validation")."""

    def __init__(self, stage, message):
        super().__init__(message)
        self.stage = stage


class Unsupported(Exception):
    """This shape of input is not supported."""


def sha256d(data):
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


class Model:
    """Every operation, with the planted mistakes in `mistakes`."""

    def __init__(self, mistakes):
        self.mistakes = frozenset(mistakes)

    def has(self, name):
        return name in self.mistakes

    # MurmurHash3 x86_32 and the seeds.

    def murmur3(self, seed, data):
        """MurmurHash3 x86_32; `seed` may be wider than 32 bits where a mistake left it so, and
        like a port that masks after each step the high bits then leak in through the shifts."""
        c1, c2 = 0xCC9E2D51, 0x1B873593
        rotl = lambda x, r: ((x << r) | (x >> (32 - r))) & MASK32
        h = seed
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
        if self.has("tweak-ignored"):
            tweak = 0
        if self.has("signed-tweak"):
            signed = tweak - (1 << 32) if tweak >= 1 << 31 else tweak
            return (index * SEED_STEP + signed) & MASK64
        seed = index * SEED_STEP + tweak
        if self.has("seed-not-wrapped"):
            return seed
        return seed % (1 << 31 if self.has("seed-mod-2-31") else 1 << 32)

    # The constructor's sizing.

    def max_filter_bytes(self):
        if self.has("filter-limit-in-bits"):
            return MAX_FILTER_BYTES // 8
        if self.has("filter-limit-times-eight"):
            return MAX_FILTER_BYTES * 8
        return MAX_FILTER_BYTES

    def sizing(self, n, rate):
        """(bytes, hash functions) for n elements at false-positive rate `rate`."""
        bits = -1 / LN2SQUARED * n * math.log(rate) if 0.0 < rate < math.inf else math.nan
        defined = n != 0 and 0.0 < rate < math.inf and -1 < bits < 1 << 32
        if not defined and not self.has("undefined-sizing-answered"):
            # C++ converts a double to unsigned int by truncating toward zero, defined only
            # when the truncated value fits: anything in (-1, 2^32); n = 0 divides by zero.
            raise Rejected("parameters", f"no defined filter for n = {n}, p = {rate}")
        if self.has("size-rounded-up"):
            bits = math.ceil(bits / 8) * 8
        bits = saturating_u32(bits)
        capped = bits if self.has("no-filter-size-cap") else min(bits, self.max_filter_bytes() * 8)
        size = capped // 8
        if n == 0:
            funcs = 0
        elif self.has("float-hash-count"):
            funcs = int(size * 8 / n * LN2)
        elif self.has("hash-count-from-raw-bits"):
            funcs = int((capped // n) * LN2)
        elif self.has("hash-count-rounded"):
            funcs = math.floor((size * 8 // n) * LN2 + 0.5)
        else:
            funcs = int((size * 8 // n) * LN2)
        if not self.has("no-hash-func-cap"):
            funcs = min(funcs, MAX_HASH_FUNCS)
        if self.has("forced-minimum-one-hash"):
            funcs = max(funcs, 1)
        return size, funcs

    # The filter.

    def new_filter(self, spec):
        kind = spec["kind"]
        if kind == "sized":
            size, funcs = self.sizing(spec["nElements"], rate_of(spec["fpRate"]))
            data = bytearray(size)
        elif kind == "explicit":
            data, funcs = bytearray(spec["filterBytes"]), spec["hashFuncs"]
            if self.has("forced-minimum-one-hash"):
                funcs = max(funcs, 1)
        else:
            data, funcs = bytearray.fromhex(spec["data"]), spec["hashFuncs"]
        if funcs == 0 and self.has("zero-hash-funcs-refused"):
            raise Rejected("parameters", "a filter needs at least one hash function")
        return Filter(self, data, funcs, spec["tweak"], spec["flags"])

    # The messages.

    def one_byte_maximum(self):
        if self.has("compact-size-early"):
            return 251
        return 253 if self.has("compact-size-late") else 252

    def write_compact_size(self, n):
        order = "big" if self.has("big-endian-length") else "little"
        if n <= self.one_byte_maximum():
            return bytes([n])
        if n <= 0xFFFF:
            return b"\xfd" + n.to_bytes(2, order)
        if n <= MASK32:
            return b"\xfe" + n.to_bytes(4, order)
        return b"\xff" + n.to_bytes(8, order)

    def read_compact_size(self, reader):
        first = reader.take(1)[0]
        if first <= max(self.one_byte_maximum(), 0xFC):
            return first
        order = "big" if self.has("big-endian-length") else "little"
        width, smallest = {0xFD: (2, self.one_byte_maximum() + 1), 0xFE: (4, 0x10000), 0xFF: (8, 1 << 32)}[first]
        value = int.from_bytes(reader.take(width), order)
        if value < smallest and not self.has("non-canonical-accepted"):
            raise Rejected("decode", "non-canonical CompactSize")
        if value > MAX_COMPACT_SIZE and not self.has("untrusted-length"):
            raise Rejected("decode", "CompactSize above 0x02000000")
        return value

    def read_prefixed(self, reader):
        n = self.read_compact_size(reader)
        if self.has("untrusted-length") and n > MAX_MESSAGE_BYTES:
            # What allocating the claimed length does on a real machine.
            raise MemoryError(f"cannot allocate {n} bytes")
        return reader.take(n, short=True)

    def decode_filterload(self, payload, node=False):
        reader = Reader(payload, self.has("truncation-zero-filled"))
        data = self.read_prefixed(reader)
        funcs = int.from_bytes(reader.take(4), self.funcs_order())
        tweak = int.from_bytes(reader.take(4), self.tweak_order())
        flags = reader.take(1)[0]
        if funcs == 0 and self.has("zero-hash-funcs-refused"):
            raise Rejected("decode", "nHashFuncs is 0")
        if not node:
            reader.finish()
        return {"data": data.hex(), "hashFuncs": funcs, "tweak": tweak, "flags": flags}

    def decode_filteradd(self, payload, node=False):
        reader = Reader(payload, self.has("truncation-zero-filled"))
        data = self.read_prefixed(reader)
        if not node:
            reader.finish()
        return {"data": data.hex()}

    def funcs_order(self):
        return "big" if self.has("big-endian-hash-funcs") else "little"

    def tweak_order(self):
        return "big" if self.has("big-endian-tweak") else "little"

    def over(self, value, limit):
        return value >= limit if self.has("limits-exclusive") else value > limit

    def check_filterload(self, load):
        size = len(load["data"]) // 2
        if self.over(size, self.max_filter_bytes()) and not self.has("no-filter-size-limit"):
            raise Rejected("limits", f"filter of {size} bytes")
        if self.over(load["hashFuncs"], MAX_HASH_FUNCS) and not self.has("no-hash-func-limit"):
            raise Rejected("limits", f"{load['hashFuncs']} hash functions")
        return load

    def check_filteradd(self, add):
        if self.over(len(add["data"]) // 2, MAX_ELEMENT_BYTES) and not self.has("no-element-size-limit"):
            raise Rejected("limits", "element over 520 bytes")
        return add

    # Transactions and scripts.

    def pushes(self, script):
        """The data of the pushes of `script`, up to the first push that runs past its end:
        (opcode, data) for every push, (opcode, None) for any other opcode."""
        at = 0
        length_order = "big" if self.has("pushdata-length-big-endian") else "little"
        while at < len(script):
            opcode = script[at]
            at += 1
            if opcode > OP_PUSHDATA4:
                yield opcode, None
                continue
            width = {OP_PUSHDATA1: 1, OP_PUSHDATA2: 2, OP_PUSHDATA4: 4}.get(opcode, 0)
            if at + width > len(script):
                return
            size = int.from_bytes(script[at:at + width], length_order) if width else opcode
            at += width
            if at + size > len(script):
                if self.has("truncated-push-tested") and script[at:]:
                    yield opcode, script[at:]
                return
            yield opcode, script[at:at + size]
            at += size

    def elements(self, script):
        """The elements of a script that are tested against the filter."""
        found = [bytes(script)] if self.has("whole-script-tested") else []
        for opcode, data in self.pushes(script):
            if data is None:
                if OP_1 <= opcode <= OP_16 and self.has("small-integer-tested"):
                    found.append(bytes([opcode - OP_1 + 1]))
                continue
            if OP_PUSHDATA1 <= opcode <= OP_PUSHDATA4 and self.has("pushdata-skipped"):
                continue
            if len(data) > MAX_ELEMENT_BYTES and self.has("long-push-skipped"):
                continue
            if data or self.has("empty-push-tested"):
                found.append(bytes(data))
        return found

    def outpoint(self, txid, index):
        return txid + index.to_bytes(4, "big" if self.has("outpoint-index-big-endian") else "little")

    def txid(self, tx):
        return sha256d(tx.raw if self.has("txid-with-witness") else tx.stripped)

    def update_mode(self, flags):
        if self.has("flags-three-as-all"):
            return "all" if flags & 1 else ("pubkey" if flags & 2 else "none")
        mode = flags if self.has("flags-not-masked") else flags & 3
        return {1: "all", 2: "pubkey"}.get(mode, "none")

    def inserts_for(self, script):
        """True when P2PUBKEY_ONLY inserts the outpoint of an output paying to `script`."""
        if self.has("p2pubkey-only-any-output"):
            return True
        return self.pay_to_pubkey(script) or (not self.has("p2pubkey-only-no-multisig") and self.bare_multisig(script))

    def valid_key(self, key, strict=False):
        sizes = {2: 33, 3: 33, 4: 65} if strict else {2: 33, 3: 33, 4: 65, 6: 65, 7: 65}
        return bool(key) and sizes.get(key[0]) == len(key)

    def pay_to_pubkey(self, script):
        return (len(script) in (35, 67) and script[0] == len(script) - 2 and script[-1] == OP_CHECKSIG
                and self.valid_key(script[1:-1], self.has("p2pubkey-only-strict-keys")))

    def bare_multisig(self, script):
        if not script or script[-1] != OP_CHECKMULTISIG:
            return False
        ops = list(self.pushes(script))
        if len(ops) < 3 or ops[-1] != (OP_CHECKMULTISIG, None):
            return False
        required = script_number(*ops[0], 1)
        if required is None:
            return False
        keys = 0
        for opcode, data in ops[1:-1]:
            if data is not None and self.valid_key(data):
                keys += 1
            else:
                break
        if 1 + keys + 2 != len(ops):
            return False
        return script_number(*ops[-2], required) == keys

    def relevant(self, filt, tx):
        """IsRelevantAndUpdate: is `tx` relevant to `filt`, inserting outpoints as it goes."""
        if not filt.data and not self.has("empty-filter-divides"):
            return True
        txid = self.txid(tx)
        tested = txid[::-1] if self.has("txid-display-order") else txid
        found = not self.has("txid-not-tested") and filt.contains(tested)
        if found and self.has("abort-after-txid-match"):
            return True
        mode = self.update_mode(filt.flags)
        numbered = 0
        for index, script in enumerate([] if self.has("outputs-not-tested") else tx.outputs):
            for element in self.elements(script):
                numbered += 1
                if not filt.contains(element):
                    continue
                found = True
                insert = mode == "all" and not self.has("update-all-inserts-nothing")
                insert = insert or (mode == "pubkey" and self.inserts_for(script))
                if self.has("outpoint-per-push"):
                    if insert:
                        filt.insert(self.outpoint(txid, numbered - 1))
                    continue
                if insert:
                    filt.insert(self.outpoint(txid, index))
                break
            if found and self.has("abort-after-output-match"):
                return True
        if found:
            return True
        if self.has("coinbase-skipped") and len(tx.inputs) == 1 and tx.inputs[0][0] == bytes(32) + b"\xff" * 4:
            return False
        for prevout, script_sig, witness in tx.inputs:
            elements = [] if self.has("prevout-not-tested") else [self.outpoint(prevout[:32], int.from_bytes(prevout[32:], "little"))]
            if not self.has("scriptsig-not-tested"):
                elements += self.elements(script_sig)
            if self.has("witness-tested"):
                elements += witness
            if any(filt.contains(e) for e in elements):
                return True
        return False

    # Merkle blocks and partial merkle trees.

    def merkle_block(self, filt, block):
        header, txs = block
        before = filt.copy() if self.has("block-filter-snapshot") else None
        txids, flags, matched = [], [], []
        for index, tx in enumerate(txs):
            hit = self.relevant(filt, tx)
            if before is not None:
                hit = self.relevant(before.copy(), tx)
            txid = sha256d(tx.stripped)
            txids.append(txid)
            flags.append(hit)
            if hit:
                matched.append({"index": index, "txid": txid.hex()})
        return {"merkleblock": (header + self.build_tree(txids, flags)).hex(), "matched": matched,
                "filterData": bytes(filt.data).hex()}

    def build_tree(self, txids, matches):
        """CPartialMerkleTree(txids, matches), serialized."""
        if not txids or len(txids) != len(matches):
            raise Rejected("parameters", "a tree needs one match flag per txid, at least one")
        n = len(txids)
        width = lambda h: (n + (1 << h) - 1) >> h
        height = 0
        while width(height) > 1:
            height += 1

        def node_hash(h, pos):
            if h == 0:
                return txids[pos]
            left = node_hash(h - 1, pos * 2)
            right = node_hash(h - 1, pos * 2 + 1) if pos * 2 + 1 < width(h - 1) else left
            return sha256d(left + right)

        bits, hashes = [], []

        def walk(h, pos):
            parent = any(matches[pos << h:min((pos + 1) << h, n)])
            bits.append(parent)
            if h == 0 or not parent:
                hashes.append(node_hash(h, pos))
                return
            walk(h - 1, pos * 2)
            if pos * 2 + 1 < width(h - 1):
                walk(h - 1, pos * 2 + 1)

        walk(height, 0)
        return self.encode_tree(n, hashes, bits)

    def encode_tree(self, n, hashes, bits):
        flag_bytes = bytearray((len(bits) + 7) // 8)
        for i, bit in enumerate(bits):
            if bit:
                flag_bytes[i // 8] |= 1 << (7 - i % 8 if self.has("pmt-bits-msb-first") else i % 8)
        order = "big" if self.has("pmt-count-big-endian") else "little"
        body = b"".join(h[::-1] if self.has("pmt-hashes-reversed") else h for h in hashes)
        return (n.to_bytes(4, order) + self.write_compact_size(len(hashes)) + body
                + self.write_compact_size(len(flag_bytes)) + bytes(flag_bytes))

    def extract(self, serialized):
        """ExtractMatches of a serialized tree: (root, matches), or a rejection."""
        reader = Reader(serialized)
        n = int.from_bytes(reader.take(4), "big" if self.has("pmt-count-big-endian") else "little")
        hashes = [reader.take(32) for _ in range(self.read_compact_size(reader))]
        if self.has("pmt-hashes-reversed"):
            hashes = [h[::-1] for h in hashes]
        flag_bytes = self.read_prefixed(reader)
        reader.finish()
        bits = [bool(b >> (7 - i if self.has("pmt-bits-msb-first") else i) & 1) for b in flag_bytes for i in range(8)]
        if n == 0:
            raise Rejected("validation", "no transactions")
        if n > MAX_BLOCK_TXS and not self.has("pmt-count-unbounded"):
            raise Rejected("validation", "more transactions than a block holds")
        if len(hashes) > n or len(bits) < len(hashes):
            raise Rejected("validation", "more hashes than transactions or bits")
        width = lambda h: (n + (1 << h) - 1) >> h
        height = 0
        while width(height) > 1:
            height += 1
        used = {"bits": 0, "hashes": 0}
        matches = []

        def take(kind, items):
            if used[kind] >= len(items):
                raise Rejected("validation", f"{kind} exhausted")
            used[kind] += 1
            return items[used[kind] - 1]

        def node(h, pos):
            bit = take("bits", bits)
            if h == 0 or not bit:
                hashed = take("hashes", hashes)
                if h == 0 and bit:
                    matches.append({"index": pos, "txid": hashed.hex()})
                return hashed
            left = node(h - 1, pos * 2)
            if pos * 2 + 1 >= width(h - 1):
                return left if self.has("pmt-odd-node-promoted") else sha256d(left + left)
            right = node(h - 1, pos * 2 + 1)
            if right == left and not self.has("pmt-identical-siblings"):
                raise Rejected("validation", "identical siblings")
            return sha256d(left + right)

        root = node(height, 0)
        if (used["bits"] + 7) // 8 != len(flag_bytes) and not self.has("pmt-padding-unchecked"):
            raise Rejected("validation", "unused flag bytes")
        if used["hashes"] != len(hashes) and not self.has("pmt-unused-hashes"):
            raise Rejected("validation", "unused hashes")
        return {"root": root.hex(), "matched": matches}

    # A node's session.

    def session(self, steps):
        filt, results = None, []
        for step in steps:
            kind = step["step"]
            if kind == "filterload":
                load = self.node_decode(self.decode_filterload, step["payload"])
                if load is None:
                    results.append(self.dropped())
                    continue
                try:
                    self.check_filterload(load)
                except Rejected:
                    if self.has("rejected-filterload-installed"):
                        filt = self.loaded(load)
                    results.append({"outcome": "misbehaving"})
                    continue
                filt = self.loaded(load)
                results.append({"outcome": "accepted"})
            elif kind == "filteradd":
                add = self.node_decode(self.decode_filteradd, step["payload"])
                if add is None:
                    results.append(self.dropped())
                elif filt is None:
                    results.append({"outcome": "accepted" if self.has("filteradd-without-filter") else "misbehaving"})
                elif not filt.data and self.has("filteradd-empty-filter-punished"):
                    results.append({"outcome": "misbehaving"})
                else:
                    try:
                        self.check_filteradd(add)
                    except Rejected:
                        results.append({"outcome": "misbehaving"})
                        continue
                    filt.insert(bytes.fromhex(add["data"]))
                    results.append({"outcome": "accepted"})
            elif kind == "filterclear":
                if not self.has("filterclear-ignored"):
                    filt = None
                results.append({"outcome": "accepted"})
            elif kind == "matchTx":
                tx = parse_tx(bytes.fromhex(step["tx"]))
                if filt is None:
                    results.append({"outcome": "noFilter"})
                    continue
                working = filt.copy()
                hit = self.relevant(working, tx)
                results.append({"outcome": "tx", "relevant": hit, "filterData": bytes(working.data).hex()})
                if not self.has("updates-on-copy"):
                    filt = working
            else:
                block = parse_block(bytes.fromhex(step["block"]))
                serving = filt
                if serving is None and self.has("merkleblock-without-filter"):
                    serving = Filter(self, bytearray(), 0, 0, 0)
                if serving is None:
                    results.append({"outcome": "noFilter"})
                    continue
                working = serving.copy()
                out = self.merkle_block(working, block)
                results.append({"outcome": "merkleBlock", **out})
                if not self.has("updates-on-copy") and filt is not None:
                    filt = working
        return {"results": results}

    def node_decode(self, decode, payload):
        """A payload read as a node reads it (bytes after the fields unread), or None."""
        try:
            return decode(bytes.fromhex(payload), node=True)
        except Rejected as why:
            if why.stage == "decode":
                return None
            raise

    def dropped(self):
        return {"outcome": "misbehaving" if self.has("malformed-punished") else "ignored"}

    def loaded(self, load):
        return Filter(self, bytearray.fromhex(load["data"]), load["hashFuncs"], load["tweak"], load["flags"])


class Filter:
    def __init__(self, model, data, funcs, tweak, flags):
        self.model, self.data, self.funcs, self.tweak, self.flags = model, data, funcs, tweak, flags

    def copy(self):
        return Filter(self.model, bytearray(self.data), self.funcs, self.tweak, self.flags)

    def indexes(self, element):
        if not self.data and not self.model.has("crash-on-empty-filter"):
            if not self.model.has("empty-filter-divides") or not self.funcs:
                return []
            raise Rejected("parameters", "division by zero: a filter of 0 bits")
        if self.model.has("hex-text-hashed"):
            element = element.hex().encode()
        if self.model.has("long-element-truncated"):
            element = element[:MAX_ELEMENT_BYTES]
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
        if not element and self.model.has("empty-element-skipped"):
            return False
        if not self.data and not self.model.has("empty-filter-divides"):
            return True
        present = [self.data[byte] & mask != 0 for byte, mask in map(self.mask, self.indexes(element))]
        if self.model.has("contains-any-bit") and present:
            return any(present)
        return all(present)

    def filterload(self):
        flags = self.flags & 1 if self.model.has("flags-written-as-bit") else self.flags
        return (self.model.write_compact_size(len(self.data)) + bytes(self.data)
                + self.funcs.to_bytes(4, self.model.funcs_order())
                + self.tweak.to_bytes(4, self.model.tweak_order()) + bytes([flags]))


class Reader:
    """Reads a payload front to back; running out of bytes is a decode rejection."""

    def __init__(self, payload, zero_filled=False):
        self.payload, self.at, self.zero_filled = payload, 0, zero_filled

    def take(self, n, short=False):
        """The next n bytes; a reader told to fill in what is missing gives what is there,
        made up to n with zeros unless `short`."""
        if n > len(self.payload) - self.at:
            if self.zero_filled:
                chunk = self.payload[self.at:]
                chunk = chunk if short else chunk.ljust(n, b"\0")
                self.at = len(self.payload)
                return chunk
            raise Rejected("decode", "the payload ends early")
        chunk = self.payload[self.at:self.at + n]
        self.at += n
        return chunk

    def finish(self):
        if self.at != len(self.payload):
            raise Rejected("decode", "bytes after the payload")


class Tx:
    """A transaction: its outputs' scripts, its inputs (prevout, scriptSig, witness items) and
    its serializations with and without witness."""

    def __init__(self, raw, stripped, inputs, outputs):
        self.raw, self.stripped, self.inputs, self.outputs = raw, stripped, inputs, outputs


def read_varint(reader):
    first = reader.take(1)[0]
    width = {0xFD: 2, 0xFE: 4, 0xFF: 8}.get(first)
    return int.from_bytes(reader.take(width), "little") if width else first


def parse_tx_from(reader):
    start = reader.at
    version = reader.take(4)
    segwit = reader.payload[reader.at:reader.at + 2] == b"\x00\x01"
    if segwit:
        reader.take(2)
    body_start = reader.at
    inputs, outputs = [], []
    for _ in range(read_varint(reader)):
        prevout = reader.take(36)
        script_sig = reader.take(read_varint(reader))
        reader.take(4)
        inputs.append([prevout, script_sig, []])
    for _ in range(read_varint(reader)):
        reader.take(8)
        outputs.append(reader.take(read_varint(reader)))
    body = reader.payload[body_start:reader.at]
    if segwit:
        for item in inputs:
            item[2] = [reader.take(read_varint(reader)) for _ in range(read_varint(reader))]
    lock_time = reader.take(4)
    return Tx(reader.payload[start:reader.at], version + body + lock_time, inputs, outputs)


def parse_tx(raw):
    reader = Reader(raw)
    tx = parse_tx_from(reader)
    reader.finish()
    return tx


def parse_block(raw):
    reader = Reader(raw)
    header = reader.take(80)
    txs = [parse_tx_from(reader) for _ in range(read_varint(reader))]
    reader.finish()
    return header, txs


def script_number(opcode, data, minimum):
    """Core's GetScriptNumber(opcode, data, minimum, 20): OP_1..OP_16, or a minimal push of a
    minimally encoded number, within [minimum, 20]."""
    if data is None:
        value = opcode - OP_1 + 1 if OP_1 <= opcode <= OP_16 else None
    elif not minimal_push(opcode, data) or len(data) > 4 or (data and data[-1] & 0x7F == 0 and (len(data) == 1 or not data[-2] & 0x80)):
        value = None
    else:
        value = int.from_bytes(data, "little") if data else 0
        if data and data[-1] & 0x80:
            value = -(value & ~(0x80 << 8 * (len(data) - 1)))
    return value if value is not None and minimum <= value <= 20 else None


def minimal_push(opcode, data):
    if not data:
        return opcode == 0
    if len(data) == 1 and (1 <= data[0] <= 16 or data[0] == 0x81):
        return False
    if len(data) <= 75:
        return opcode == len(data)
    return opcode == (OP_PUSHDATA1 if len(data) <= 255 else OP_PUSHDATA2 if len(data) <= 0xFFFF else OP_PUSHDATA4)


def saturating_u32(value):
    """A double converted to unsigned 32 bits the way Rust's `as` does: NaN and negatives give
    0, too large gives 2^32 - 1."""
    if value != value or value <= 0:
        return 0
    return min(int(value), MASK32)


def rate_of(value):
    return float(value) if not isinstance(value, str) else {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[value]


def operations(model, modes):
    """Wire name -> handler from a request's input to its output."""
    def build_filter(i):
        if i["queries"] and "without-contains" in modes:
            raise Unsupported("no contains")
        f = model.new_filter(i["filter"])
        for element in i["insert"]:
            f.insert(bytes.fromhex(element))
        contains = [f.contains(bytes.fromhex(q)) for q in i["queries"]]
        return {"filterload": f.filterload().hex(), "contains": contains}

    def loaded_filter(i):
        f = model.new_filter(i["filter"])
        for element in i.get("insert", []):
            f.insert(bytes.fromhex(element))
        return f

    def match_tx(i):
        f = loaded_filter(i)
        txs = [parse_tx(bytes.fromhex(t)) for t in i["txs"]]
        return {"matched": [model.relevant(f, tx) for tx in txs], "filterData": bytes(f.data).hex()}

    def merkle_block(i):
        f = loaded_filter(i)
        return model.merkle_block(f, parse_block(bytes.fromhex(i["block"])))

    def pmt_build(i):
        txids = [bytes.fromhex(t) for t in i["txids"]]
        if any(len(t) != 32 for t in txids):
            raise Rejected("decode", "every txid must be 32 bytes")
        return {"pmt": model.build_tree(txids, i["matches"]).hex()}

    def sizing(i):
        return dict(zip(("filterBytes", "hashFuncs"), model.sizing(i["nElements"], rate_of(i["fpRate"]))))

    def hash_seed(i):
        seed = model.seed(i["hashIndex"], i["tweak"])
        if not 0 <= seed <= MASK32:
            raise Rejected("parameters", f"seed {seed:#x} does not fit in 32 bits")
        return {"seed": seed}

    ops = {
        "murmur3": lambda i: {"hash": model.murmur3(i["seed"], bytes.fromhex(i["data"]))},
        "hashSeed": hash_seed,
        "sizing": sizing,
        "bitIndexes": lambda i: {"indexes": model.new_filter(i["filter"]).indexes(bytes.fromhex(i["element"]))},
        "buildFilter": build_filter,
        "filterloadDecode": lambda i: model.decode_filterload(bytes.fromhex(i["payload"])),
        "filterloadAccept": lambda i: model.check_filterload(model.decode_filterload(bytes.fromhex(i["payload"]))),
        "filteraddDecode": lambda i: model.decode_filteradd(bytes.fromhex(i["payload"])),
        "filteraddAccept": lambda i: model.check_filteradd(model.decode_filteradd(bytes.fromhex(i["payload"]))),
        "matchTx": match_tx,
        "merkleBlock": merkle_block,
        "pmtBuild": pmt_build,
        "pmtExtract": lambda i: model.extract(bytes.fromhex(i["pmt"])),
        "sequence": lambda i: model.session(i["steps"]),
    }
    if "without-contains" in modes:
        ops = {name: ops[name] for name in ("murmur3", "sizing", "bitIndexes", "buildFilter")}
    if "refuse-everything" in modes:
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
    modes = []
    args = iter(argv)
    for arg in args:
        if arg == "--mistake":
            names.append(next(args, ""))
        elif arg == "--mode":
            modes.append(next(args, ""))
        elif arg == "--list":
            for name, (step, what) in MISTAKES.items():
                print(f"{name}\t{step}\t{what}")
            sys.exit(0)
        else:
            sys.exit(f"unknown argument {arg!r} (use --mistake NAME, --mode NAME or --list)")
    unknown = [n for n in names if n not in MISTAKES] + [m for m in modes if m not in MODES]
    if unknown:
        sys.exit(f"unknown mistake or mode {unknown}; --list shows the mistakes, the modes are {sorted(MODES)}")
    return names, modes


def main():
    names, modes = planted(sys.argv[1:])
    ops = operations(Model(names), modes)
    send({"hello": {"protocol": 1, "implementation": "independent-model", "version": "+".join(names + modes) or "correct",
                    "operations": sorted(ops)}})
    for line in sys.stdin:
        send(answer(json.loads(line), ops))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
