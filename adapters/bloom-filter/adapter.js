'use strict';
// Protocol v1 adapter for the npm package `bloom-filter` (bitpay's BIP 37 filter of the
// bitcore family). Every value comes from the library: its MurmurHash3, its `create` sizing,
// its `hash`, `insert` and `contains`. The library has no wire format, so a filterload is
// written from the fields of its own `toObject()`; the decode and matching operations are
// not offered.

const Filter = require('bloom-filter');
const { version } = require('bloom-filter/package.json');
const { Unsupported, atStage, fromHex, fpRate, encodeFilterload, serve } =
  require('../js-protocol/protocol.js');
const { filterOperations } = require('../js-protocol/filter-ops.js');

/** The library's filter for a vector's filter description. */
function makeFilter(init) {
  switch (init.kind) {
    case 'sized':
      return atStage('parameters', () =>
        Filter.create(init.nElements, fpRate(init.fpRate), init.tweak, init.flags));
    case 'explicit':
      return atStage('parameters', () => new Filter({
        vData: new Array(init.filterBytes).fill(0),
        nHashFuncs: init.hashFuncs,
        nTweak: init.tweak,
        nFlags: init.flags,
      }));
    case 'loaded':
      return atStage('parameters', () => new Filter({
        vData: Array.from(fromHex(init.data)),
        nHashFuncs: init.hashFuncs,
        nTweak: init.tweak,
        nFlags: init.flags,
      }));
    default:
      throw new Unsupported(`filter kind ${JSON.stringify(init.kind)} is unknown to this adapter`);
  }
}

function filterload(filter) {
  const o = filter.toObject();
  return encodeFilterload(o.vData, o.nHashFuncs, o.nTweak, o.nFlags);
}

const handlers = {
  murmur3: (input) => ({ hash: Filter.MurmurHash3(input.seed, fromHex(input.data)) }),

  sizing: (input) => {
    const filter = atStage('parameters', () =>
      Filter.create(input.nElements, fpRate(input.fpRate), 0, 0));
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
