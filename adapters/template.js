#!/usr/bin/env node
'use strict';
// A bip37-conform adapter template: the subprocess protocol, version 1, in Node.js, as
// adapters/template.py is for Python.
//
// Copy this file and adapters/js-protocol/protocol.js (the protocol loop, beside it), replace
// the three example operations with calls into your library, list the operations you support in
// `handlers`, and run the suite against it:
//
//     bip37-conform run --impl "node adapters/template.js"
//
// `serve` says hello with the listed operations and answers each request with the handler's
// output ("ok"). A handler throws `new Rejected(stage, message)` for the library's rejection of
// its input (or wraps the library call in `library(stage, () => ...)`, which turns whatever it
// throws into one) and `new Unsupported(message)` for an input the library cannot express. Any
// other exception is a bug of the adapter: the process stops with it on stderr and the harness
// reports a crash. Bytes are lowercase hex (`fromHex`). Write diagnostics to stderr, never to
// stdout. Node.js's standard library only.
//
// JavaScript's numbers are doubles: `^`, `|`, `<<` work on 32-bit signed integers, `>>> 0`
// makes an unsigned 32-bit value, and `+` and `*` do neither. Every 32-bit result below ends in
// `>>> 0`, and products use `Math.imul` (a double product of two 32-bit values loses bits).

const fs = require('fs');
const path = require('path');

// protocol.js is found beside this file, or in adapters/js-protocol/ of this repository.
const beside = path.join(__dirname, 'protocol.js');
const { Rejected, fpRate, fromHex, serve } = require(
  fs.existsSync(beside) ? beside : path.join(__dirname, 'js-protocol', 'protocol.js'),
);

/** MurmurHash3 x86_32, as Bitcoin Core's MurmurHash3 (little-endian blocks and tail). */
function murmur3(seed, data) {
  const rotl = (x, r) => ((x << r) | (x >>> (32 - r))) >>> 0;
  const mix = (k) => Math.imul(rotl(Math.imul(k, 0xcc9e2d51), 15), 0x1b873593) >>> 0;
  let h = seed >>> 0;
  const rounded = data.length - (data.length % 4);
  for (let i = 0; i < rounded; i += 4) {
    h = rotl((h ^ mix(data.readUInt32LE(i))) >>> 0, 13);
    h = (Math.imul(h, 5) + 0xe6546b64) >>> 0;
  }
  let k = 0;
  for (let i = data.length - 1; i >= rounded; i--) {
    k = ((k << 8) | data[i]) >>> 0;
  }
  if (data.length % 4 !== 0) {
    h = (h ^ mix(k)) >>> 0;
  }
  h = (h ^ data.length) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

// Core's constants (src/common/bloom.cpp), as doubles.
const LN2SQUARED = 0.4804530139182014246671025263266649717305529515945455;
const LN2 = 0.6931471805599453094172321214581765680755001343602552;

/**
 * Filter bytes and hash functions for (n, p), as Core's constructor: the bit count is
 * -1 / ln2^2 * n * ln p in doubles, in that order, truncated and capped at 288,000; the hash
 * function count divides the filter's bits by n in INTEGERS (Math.floor) before multiplying by
 * ln 2. Inputs Core leaves undefined are rejected (docs/PROTOCOL.md, sizing).
 */
function sizing(n, rate) {
  if (n === 0 || !(rate > 0)) {
    throw new Rejected('parameters', `no defined filter for n = ${n}, p = ${rate}`);
  }
  const bits = (-1 / LN2SQUARED) * n * Math.log(rate);
  if (!(bits > -1 && bits < 2 ** 32)) {
    throw new Rejected('parameters', `the bit count ${bits} is outside unsigned int`);
  }
  const filterBytes = Math.floor(Math.min(Math.trunc(bits), 36000 * 8) / 8);
  const hashFuncs = Math.min(Math.trunc(Math.floor((filterBytes * 8) / n) * LN2), 50);
  return { filterBytes, hashFuncs };
}

// Wire name -> function from the request's input to the output. Operations not listed here are
// not claimed in the hello, so the harness reports them as notClaimed without asking.
const handlers = {
  murmur3: (input) => ({ hash: murmur3(input.seed, fromHex(input.data)) }),
  // hashIndex * 0xFBA4C795 + tweak, mod 2^32 (Math.imul's product wraps; `+` does not).
  hashSeed: (input) => ({ seed: (Math.imul(input.hashIndex, 0xfba4c795) + input.tweak) >>> 0 }),
  sizing: (input) => sizing(input.nElements, fpRate(input.fpRate)),
};

serve({
  implementation: 'template-js',
  version: '0.1.0',
  notes: 'the template: MurmurHash3, the hash seeds and the sizing only',
  handlers,
});
