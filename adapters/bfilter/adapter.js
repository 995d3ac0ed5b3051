'use strict';
// Protocol v1 adapter for the npm package `bfilter` (bcoin's Bloom filters). Every value comes
// from the library: bcrypto's MurmurHash3 that bfilter hashes with, `BloomFilter.fromRate`
// sizing, the constructor, `hash`, `add`, `test`, `toRaw`, `fromRaw` and
// `isWithinConstraints`. The bcrypto backend (native or JS) is the library's own choice and
// follows its NODE_BACKEND switch; the hello notes say which one answered.

const BloomFilter = require('bfilter/lib/bloom');
const murmur3 = require('bcrypto/lib/murmur3');
const { version } = require('bfilter/package.json');
const { Rejected, Unsupported, library, fromHex, fpRate, encodeFilterload, serve } =
  require('../js-protocol/protocol.js');
const { filterOperations } = require('../js-protocol/filter-ops.js');

/**
 * `fromRate` draws a random tweak and takes no tweak argument, so a sized filter is the
 * library's own constructor called with the size and hash count `fromRate` chose and the
 * test's tweak.
 */
function sizedFilter(nElements, rate, tweak, flags) {
  const sized = BloomFilter.fromRate(nElements, rate, flags);
  return new BloomFilter(sized.size, sized.n, tweak, flags);
}

/** The library's filter for a vector's filter description. */
function makeFilter(init) {
  switch (init.kind) {
    case 'sized': {
      const rate = fpRate(init.fpRate);
      return library('parameters', () => sizedFilter(init.nElements, rate, init.tweak, init.flags));
    }
    case 'explicit':
      return library('parameters', () =>
        new BloomFilter(init.filterBytes * 8, init.hashFuncs, init.tweak, init.flags));
    case 'loaded': {
      const payload = encodeFilterload(fromHex(init.data), init.hashFuncs, init.tweak, init.flags);
      return library('parameters', () => BloomFilter.fromRaw(payload));
    }
    default:
      throw new Unsupported(`filter kind ${JSON.stringify(init.kind)} is unknown to this adapter`);
  }
}

function decodeFilterload(payload) {
  const bytes = fromHex(payload);
  const filter = library('decode', () => BloomFilter.fromRaw(bytes));
  return {
    filter,
    output: {
      data: filter.filter.toString('hex'),
      hashFuncs: filter.n,
      tweak: filter.tweak,
      flags: filter.update,
    },
  };
}

const handlers = {
  murmur3: (input) => {
    const data = fromHex(input.data);
    return { hash: library(undefined, () => murmur3.sum(data, input.seed)) };
  },

  sizing: (input) => {
    const rate = fpRate(input.fpRate);
    const filter = library('parameters', () =>
      BloomFilter.fromRate(input.nElements, rate, BloomFilter.flags.NONE));
    return { filterBytes: filter.filter.length, hashFuncs: filter.n };
  },

  ...filterOperations({
    make: makeFilter,
    hashCount: (filter) => filter.n,
    bitIndex: (filter, i, element) => filter.hash(element, i),
    insert: (filter, element) => filter.add(element),
    contains: (filter, element) => filter.test(element),
    filterload: (filter) => library(undefined, () => filter.toRaw()),
  }),

  filterloadDecode: (input) => decodeFilterload(input.payload).output,

  filterloadAccept: (input) => {
    const { filter, output } = decodeFilterload(input.payload);
    if (!library('limits', () => filter.isWithinConstraints())) {
      throw new Rejected('limits', 'isWithinConstraints() is false');
    }
    return output;
  },
};

serve({
  implementation: 'bfilter',
  version,
  notes:
    `bcrypto murmur3 backend: ${murmur3.native ? 'native' : 'js'}. Sized filters take their size ` +
    'and hash count from BloomFilter.fromRate(n, p, flags) and are then built with ' +
    'new BloomFilter(size, n, tweak, flags), because fromRate draws a random tweak; sizing calls ' +
    'fromRate(n, p, NONE). Explicit filters: new BloomFilter(filterBytes * 8, hashFuncs, tweak, ' +
    'flags). Loaded filters: BloomFilter.fromRaw of their filterload bytes. No filteradd ' +
    'decoder, no hash seed function, no transaction matching.',
  handlers,
});
