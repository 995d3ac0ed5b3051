"""Protocol v1 adapter for the PyPI package python-bitcoinlib (`bitcoin.bloom.CBloomFilter`).

Every value comes from the library: its MurmurHash3, the CBloomFilter constructor's sizing,
`bloom_hash`, `insert`, `contains`, `serialize`, `deserialize` and `IsWithinSizeConstraints`.
This file only translates between the protocol's JSON and the library's calls; it speaks the
protocol on stdin/stdout until stdin closes. An exception the library raises is its rejection
of the input; an exception in this file's own code is not caught, so the harness sees a crash
rather than a rejection (docs/PROTOCOL.md).
"""

import json
import re
import struct
import sys
from importlib.metadata import version

from bitcoin.bloom import CBloomFilter, MurmurHash3
from bitcoin.core.serialize import BytesSerializer

PROTOCOL = 1

NOTES = (
    "Sized filters: CBloomFilter(n, p, tweak, flags); sizing: CBloomFilter(n, p, 0, 0). "
    "The library has no constructor from an explicit size, so the explicit filter kind is "
    "unsupported; loaded filters are CBloomFilter.deserialize of their filterload bytes. "
    "No filteradd message, no hash seed function, and IsRelevantAndUpdate raises "
    "NotImplementedError in this version, so no transaction matching."
)


class Rejected(Exception):
    """The library refused the input; reported as status "error" at `stage`."""

    def __init__(self, stage, message):
        super().__init__(message)
        self.stage = stage


class Unsupported(Exception):
    """The library cannot express this input; reported as status "unsupported"."""


def describe(error):
    return f"{type(error).__name__}: {error}"


def library(stage, call):
    """Runs `call`, a call into the library; an exception it raises becomes a rejection at
    `stage` (None where the library has no validation step, e.g. while hashing)."""
    try:
        return call()
    except Exception as error:  # the library's own exceptions are its answer
        raise Rejected(stage, describe(error)) from error


HEX = re.compile(r"(?:[0-9a-f]{2})*")


def from_hex(text):
    if not isinstance(text, str) or not HEX.fullmatch(text):
        raise ValueError(f"not lowercase hex of whole bytes: {text!r}")
    return bytes.fromhex(text)


def fp_rate(value):
    """A vector's fpRate: a number or one of "NaN", "Infinity", "-Infinity"."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if value in ("NaN", "Infinity", "-Infinity"):
        return float(value.replace("Infinity", "inf"))
    raise ValueError(f"fpRate must be a number or NaN/Infinity/-Infinity, not {value!r}")


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


HANDLERS = {
    "murmur3": murmur3,
    "sizing": sizing,
    "bitIndexes": bit_indexes,
    "buildFilter": build_filter,
    "filterloadDecode": filterload_decode,
    "filterloadAccept": filterload_accept,
}


def answer(request):
    request_id = request.get("id")
    handler = HANDLERS.get(request.get("op"))
    if handler is None:
        message = f"operation {request.get('op')} is not offered by this library"
        return {"id": request_id, "status": "unsupported", "message": message}
    try:
        return {"id": request_id, "status": "ok", "output": handler(request["input"])}
    except Unsupported as why:
        return {"id": request_id, "status": "unsupported", "message": str(why)}
    except Rejected as why:
        reply = {"id": request_id, "status": "error", "message": str(why)}
        if why.stage is not None:
            reply["stage"] = why.stage
        return reply


def main():
    hello = {
        "protocol": PROTOCOL,
        "implementation": "python-bitcoinlib",
        "version": version("python-bitcoinlib"),
        "operations": list(HANDLERS),
        "notes": NOTES,
    }
    print(json.dumps({"hello": hello}), flush=True)
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line))
        except Exception as error:  # not the library's answer: stop, the harness sees a crash
            sys.exit(f"python-bitcoinlib adapter stopped: {describe(error)}")
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
