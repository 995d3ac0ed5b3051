'use strict';
// The subprocess protocol, version 1, for the Node.js adapters: the hello line, the request
// loop and the translation helpers (hex, fpRate, filterload bytes) they share. An adapter
// supplies its library's name, version, notes and one handler per supported operation; this
// module never computes anything BIP 37 itself except the byte layout of a filterload, which
// an adapter uses only to hand a library's own fields to the harness or to the library's own
// decoder. An exception thrown inside a library call (see `library`) is the library's
// rejection of the input; any other exception is the adapter's own failure and is not caught,
// so the harness reports a crash instead of a rejection (docs/PROTOCOL.md).

const readline = require('readline');

const PROTOCOL = 1;

/** A rejection of the input by the library, reported as status "error" with a stage. */
class Rejected extends Error {
  constructor(stage, message) {
    super(message);
    this.stage = stage;
  }
}

/** An operation or input shape the library cannot express, reported as "unsupported". */
class Unsupported extends Error {}

/**
 * Runs `fn`, a call into the library; an exception it throws becomes a rejection at `stage`
 * (undefined where the library has no validation step, e.g. while hashing).
 */
function library(stage, fn) {
  try {
    return fn();
  } catch (e) {
    throw new Rejected(stage, describe(e));
  }
}

function describe(e) {
  return e instanceof Error ? `${e.name}: ${e.message}` : `thrown: ${String(e)}`;
}

/** Lowercase hex to a Buffer; refuses anything else. */
function fromHex(text) {
  if (typeof text !== 'string' || text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) {
    throw new Error(`not lowercase hex of whole bytes: ${JSON.stringify(text)}`);
  }
  return Buffer.from(text, 'hex');
}

/** Bytes (Buffer or array of byte values) to lowercase hex; refuses non-byte values. */
function toHex(bytes) {
  for (const b of bytes) {
    if (!Number.isInteger(b) || b < 0 || b > 255) {
      throw new Error(`library produced a non-byte value ${b} in its filter data`);
    }
  }
  return Buffer.from(bytes).toString('hex');
}

/** A vector's fpRate (a number or "NaN" / "Infinity" / "-Infinity") as a JS number. */
function fpRate(value) {
  if (typeof value === 'number') return value;
  const special = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
  if (Object.prototype.hasOwnProperty.call(special, value)) return special[value];
  throw new Error(`fpRate must be a number or NaN/Infinity/-Infinity, not ${JSON.stringify(value)}`);
}

function checkUint(name, value, max) {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new Error(`library's ${name} ${value} does not fit the filterload field`);
  }
}

/** The filterload payload of the given fields: CompactSize length, data, u32 LE, u32 LE, u8. */
function encodeFilterload(data, hashFuncs, tweak, flags) {
  checkUint('nHashFuncs', hashFuncs, 0xffffffff);
  checkUint('nTweak', tweak, 0xffffffff);
  checkUint('nFlags', flags, 0xff);
  const length = data.length;
  let prefix;
  if (length < 0xfd) {
    prefix = Buffer.from([length]);
  } else if (length <= 0xffff) {
    prefix = Buffer.alloc(3);
    prefix[0] = 0xfd;
    prefix.writeUInt16LE(length, 1);
  } else {
    prefix = Buffer.alloc(5);
    prefix[0] = 0xfe;
    prefix.writeUInt32LE(length, 1);
  }
  const tail = Buffer.alloc(9);
  tail.writeUInt32LE(hashFuncs, 0);
  tail.writeUInt32LE(tweak, 4);
  tail.writeUInt8(flags, 8);
  return Buffer.concat([prefix, fromHex(toHex(data)), tail]);
}

function answer(id, request, handlers) {
  const handler = handlers[request.op];
  if (handler === undefined) {
    return { id, status: 'unsupported', message: `operation ${request.op} is not offered by this library` };
  }
  try {
    return { id, status: 'ok', output: handler(request.input) };
  } catch (e) {
    if (e instanceof Unsupported) return { id, status: 'unsupported', message: e.message };
    if (e instanceof Rejected) return { id, status: 'error', stage: e.stage, message: e.message };
    throw e;
  }
}

/**
 * Speaks protocol v1 on stdin/stdout until stdin closes.
 * @param {{implementation: string, version: string, notes: string, handlers: Object,
 *          capabilities: (Object|undefined)}} adapter  capabilities: the inputs of its operations
 *          it cannot take (docs/PROTOCOL.md, "Capabilities"); a claimed test answered
 *          "unsupported" outside them fails the run.
 */
function serve(adapter) {
  const hello = {
    protocol: PROTOCOL,
    implementation: adapter.implementation,
    version: adapter.version,
    operations: Object.keys(adapter.handlers),
    notes: adapter.notes,
  };
  if (adapter.capabilities !== undefined) hello.capabilities = adapter.capabilities;
  process.stdout.write(JSON.stringify({ hello }) + '\n');
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let reply;
    try {
      const request = JSON.parse(line);
      reply = answer(request.id, request, adapter.handlers);
    } catch (e) {
      // Not the library's answer: stop, so the harness reports a crash with this message.
      process.stderr.write(`${adapter.implementation} adapter stopped: ${describe(e)}\n`);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  });
}

module.exports = { Rejected, Unsupported, library, fromHex, toHex, fpRate, encodeFilterload, serve };
