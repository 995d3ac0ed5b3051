'use strict';
// The bitIndexes and buildFilter operations for a Node.js Bloom filter library, written once
// over a small description of its API: how to set up a filter from a vector's description,
// how many hash functions it has, its per-function bit index, insert, contains and its
// filterload bytes. Each call goes to the library; nothing is recomputed here.

const { fromHex } = require('./protocol.js');

/**
 * @param {{make: Function, hashCount: Function, bitIndex: Function, insert: Function,
 *          contains: Function, filterload: Function}} api
 * @returns {{bitIndexes: Function, buildFilter: Function}} protocol handlers
 */
function filterOperations(api) {
  return {
    bitIndexes: (input) => {
      const filter = api.make(input.filter);
      const element = fromHex(input.element);
      const indexes = [];
      for (let i = 0; i < api.hashCount(filter); i++) {
        const index = api.bitIndex(filter, i, element);
        if (!Number.isInteger(index)) {
          throw new Error(`the library's bit index for hash function ${i} is ${index}`);
        }
        indexes.push(index);
      }
      return { indexes };
    },

    buildFilter: (input) => {
      const filter = api.make(input.filter);
      for (const element of input.insert || []) api.insert(filter, fromHex(element));
      return {
        filterload: api.filterload(filter).toString('hex'),
        contains: (input.queries || []).map((q) => api.contains(filter, fromHex(q))),
      };
    },
  };
}

module.exports = { filterOperations };
