"""Protocol v1 adapter for the PyPI package python-bitcoinlib (`bitcoin.bloom.CBloomFilter`).

Every value comes from the library: its MurmurHash3, the CBloomFilter constructor's sizing,
`bloom_hash`, `insert`, `contains`, `serialize`, `deserialize` and `IsWithinSizeConstraints`.
This file only translates between the protocol's JSON and the library's calls; the protocol
loop is adapters/py-protocol/bip37_protocol.py. An exception the library raises is its
rejection of the input; an exception in this file's own code is not caught, so the harness
sees a crash rather than a rejection (docs/PROTOCOL.md).
"""

import struct
import sys
from importlib.metadata import version
from pathlib import Path

from bitcoin.bloom import CBloomFilter, MurmurHash3
from bitcoin.core.serialize import BytesSerializer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py-protocol"))
from bip37_protocol import Rejected, Unsupported, fp_rate, from_hex, library, serve  # noqa: E402

NOTES = (
    "Sized filters: CBloomFilter(n, p, tweak, flags); sizing: CBloomFilter(n, p, 0, 0). "
    "The library has no constructor from an explicit size, so the explicit filter kind is "
    "outside its capabilities; loaded filters are CBloomFilter.deserialize of their filterload bytes. "
    "No filteradd message, no hash seed function, and IsRelevantAndUpdate raises "
    "NotImplementedError in this version, so no transaction matching."
)


def loaded_payload(init):
    """The filterload bytes of a loaded filter, written with the library's own serializer."""
    fields = struct.pack("<IIB", init["hashFuncs"], init["tweak"], init["flags"])
    return BytesSerializer.serialize(from_hex(init["data"])) + fields


def make_filter(init):
    kind = init.get("kind")
    if kind == "sized":
        args = (init["nElements"], fp_rate(init["fpRate"]), init["tweak"], init["flags"])
        return library("parameters", lambda: CBloomFilter(*args))
    if kind == "loaded":
        payload = loaded_payload(init)
        return library("parameters", lambda: CBloomFilter.deserialize(payload))
    if kind == "explicit":
        raise Unsupported("CBloomFilter has no constructor from an explicit size")
    raise Unsupported(f"filter kind {kind!r} is unknown to this adapter")


def filterload_fields(bloom):
    return {
        "data": bytes(bloom.vData).hex(),
        "hashFuncs": bloom.nHashFuncs,
        "tweak": bloom.nTweak,
        "flags": bloom.nFlags,
    }


def murmur3(request):
    seed, data = request["seed"], from_hex(request["data"])
    return {"hash": library(None, lambda: MurmurHash3(seed, data))}


def sizing(request):
    args = (request["nElements"], fp_rate(request["fpRate"]), 0, 0)
    bloom = library("parameters", lambda: CBloomFilter(*args))
    return {"filterBytes": len(bloom.vData), "hashFuncs": bloom.nHashFuncs}


def bit_indexes(request):
    bloom = make_filter(request["filter"])
    element = from_hex(request["element"])
    count = range(bloom.nHashFuncs)
    return {"indexes": library(None, lambda: [bloom.bloom_hash(i, element) for i in count])}


def build_filter(request):
    bloom = make_filter(request["filter"])
    inserts = [from_hex(element) for element in request.get("insert", [])]
    queries = [from_hex(query) for query in request.get("queries", [])]
    for element in inserts:
        library(None, lambda: bloom.insert(element))
    answers = library(None, lambda: [bloom.contains(q) for q in queries])
    return {"filterload": library(None, bloom.serialize).hex(), "contains": answers}


def decode_filterload(payload):
    data = from_hex(payload)
    return library("decode", lambda: CBloomFilter.deserialize(data))


def filterload_decode(request):
    return filterload_fields(decode_filterload(request["payload"]))


def filterload_accept(request):
    bloom = decode_filterload(request["payload"])
    if not library("limits", bloom.IsWithinSizeConstraints):
        raise Rejected("limits", "IsWithinSizeConstraints() is False")
    return filterload_fields(bloom)


# The library cannot build a filter of an explicit size (docs/PROTOCOL.md, "Capabilities").
CAPABILITIES = {"filterKinds": ["sized", "loaded"]}

HANDLERS = {
    "murmur3": murmur3,
    "sizing": sizing,
    "bitIndexes": bit_indexes,
    "buildFilter": build_filter,
    "filterloadDecode": filterload_decode,
    "filterloadAccept": filterload_accept,
}


if __name__ == "__main__":
    serve("python-bitcoinlib", version("python-bitcoinlib"), HANDLERS, NOTES, CAPABILITIES)
