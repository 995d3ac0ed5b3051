"""The subprocess protocol, version 1, for Python adapters: the hello line, the request loop
and the translation helpers (hex, fpRate) they share, so that an adapter only writes its
operations (docs/PROTOCOL.md). Standard library only.

An adapter passes its implementation's name, version, notes and one handler per operation
(wire name -> function from the request's input to its output) to `serve`. A handler raises
`Rejected(stage, message)` for a rejection of the input and `Unsupported(message)` for an input
the implementation cannot express (declare such inputs as capabilities, or the run fails); `library(stage, call)` turns any exception a call into the
library raises into a rejection. Any other exception is the adapter's own failure: the loop
stops with its message (and traceback) on stderr, so the harness reports a crash, never a
rejection. The JavaScript twin of this module is adapters/js-protocol/protocol.js.
"""

import json
import re
import sys
import traceback

PROTOCOL = 1


class Rejected(Exception):
    """The input is rejected: status "error" at `stage` ("decode", "limits", "parameters",
    "validation", or None where the implementation has no such step)."""

    def __init__(self, stage, message):
        super().__init__(message)
        self.stage = stage


class Unsupported(Exception):
    """The implementation cannot express this input: status "unsupported"."""


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
    """Lowercase hex of whole bytes to bytes; refuses anything else."""
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


def answer(request, handlers):
    """The reply object to one request object."""
    request_id = request.get("id")
    handler = handlers.get(request.get("op"))
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


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(implementation, version, handlers, notes=None, capabilities=None):
    """Says hello (claiming the handlers' operations, in their order, narrowed by
    `capabilities`: docs/PROTOCOL.md, "Capabilities"), then answers every request line until
    stdin closes. The hello is a claim: a claimed test answered "unsupported" that the
    capabilities do not exclude fails the run."""
    hello = {
        "protocol": PROTOCOL,
        "implementation": implementation,
        "version": version,
        "operations": list(handlers),
    }
    if notes is not None:
        hello["notes"] = notes
    if capabilities is not None:
        hello["capabilities"] = capabilities
    send({"hello": hello})
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line), handlers)
        except Exception as error:  # not the library's answer: stop, the harness sees a crash
            traceback.print_exc()
            sys.exit(f"{implementation} adapter stopped: {describe(error)}")
        send(reply)
