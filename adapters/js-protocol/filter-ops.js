'use strict';
// The bitIndexes and buildFilter operations for a Node.js Bloom filter library, written once
// over a small description of its API: how to set up a filter from a vector's description,
// how many hash functions it has, its per-function bit index, insert, contains and its
// filterload bytes. Each call goes to the library; nothing is recomputed here. A bit index
// that is not an integer (the library's NaN for an empty filter) cannot be put into an answer,
// so the adapter stops with that message and the harness reports a crash.

const { fromHex, library } = require('./protocol.js');

/**
 * @param {{make: Function, hashCount: Function, bitIndex: Function, insert: Function,
 *          contains: Function, filterload: Function}} api (`make` and `filterload` wrap their
 *          own library calls in `library`; the other functions are one library call each)
 * @returns {{bitIndexes: Function, buildFilter: Function}} protocol handlers
 */
function filterOperations(api) {
  return {
    bitIndexes: (input) => {
      const filter = api.make(input.filter);
      const element = fromHex(input.element);
      const indexes = [];
      for (let i = 0; i < api.hashCount(filter); i++) {
        const index = library(undefined, () => api.bitIndex(filter, i, element));
        if (!Number.isInteger(index)) {
          throw new Error(`the library's bit index for hash function ${i} is ${index}, not a bit`);
        }
        indexes.push(index);
      }
      return { indexes };
    },

    buildFilter: (input) => {
      const filter = api.make(input.filter);
      const inserts = (input.insert || []).map(fromHex);
      const queries = (input.queries || []).map(fromHex);
      for (const element of inserts) library(undefined, () => api.insert(filter, element));
      const contains = queries.map((q) => library(undefined, () => api.contains(filter, q)));
      return { filterload: api.filterload(filter).toString('hex'), contains };
    },
  };
}

module.exports = { filterOperations };
