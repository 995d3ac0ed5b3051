'use strict';
// Protocol v1 adapter for the npm package `bloom-filter` (bitpay's BIP 37 filter of the
// bitcore family). Every value comes from the library: its MurmurHash3, its `create` sizing,
// its `hash`, `insert` and `contains`. The library has no wire format, so a filterload is
// written from the fields of its own `toObject()`; the decode and matching operations are
// not offered.

const Filter = require('bloom-filter');
const { version } = require('bloom-filter/package.json');
const { Unsupported, library, fromHex, fpRate, encodeFilterload, serve } =
  require('../js-protocol/protocol.js');
const { filterOperations } = require('../js-protocol/filter-ops.js');

/** The library's own constructor from explicit parameters. */
function construct(vData, init) {
  const parameters = { vData, nHashFuncs: init.hashFuncs, nTweak: init.tweak, nFlags: init.flags };
  return library('parameters', () => new Filter(parameters));
}

/** The library's filter for a vector's filter description. */
function makeFilter(init) {
  switch (init.kind) {
    case 'sized': {
      const rate = fpRate(init.fpRate);
      return library('parameters', () =>
        Filter.create(init.nElements, rate, init.tweak, init.flags));
    }
    case 'explicit':
      return construct(new Array(init.filterBytes).fill(0), init);
    case 'loaded':
      return construct(Array.from(fromHex(init.data)), init);
    default:
      throw new Unsupported(`filter kind ${JSON.stringify(init.kind)} is unknown to this adapter`);
  }
}

function filterload(filter) {
  const o = library(undefined, () => filter.toObject());
  return encodeFilterload(o.vData, o.nHashFuncs, o.nTweak, o.nFlags);
}

const handlers = {
  murmur3: (input) => {
    const data = fromHex(input.data);
    return { hash: library(undefined, () => Filter.MurmurHash3(input.seed, data)) };
  },

  sizing: (input) => {
    const rate = fpRate(input.fpRate);
    const filter = library('parameters', () => Filter.create(input.nElements, rate, 0, 0));
    return { filterBytes: filter.vData.length, hashFuncs: filter.nHashFuncs };
  },

  ...filterOperations({
    make: makeFilter,
    hashCount: (filter) => filter.nHashFuncs,
    bitIndex: (filter, i, element) => filter.hash(i, element),
    insert: (filter, element) => filter.insert(element),
    contains: (filter, element) => filter.contains(element),
    filterload,
  }),
};

serve({
  implementation: 'bloom-filter',
  version,
  notes:
    'sized filters come from Filter.create(n, p, tweak, flags); explicit and loaded filters from ' +
    'new Filter({vData, nHashFuncs, nTweak, nFlags}) (the explicit kind passes vData as that many ' +
    'zero bytes). The library has no serializer: buildFilter writes the filterload from its ' +
    'toObject() fields. No filterload/filteradd decoder, no hash seed function, no transaction ' +
    'matching.',
  handlers,
});
