'use strict';

// Stand-in for the native `leveldown` (see package.json). bdb requires it when it loads,
// but with `--memory=true` bcoin opens every database with bdb's in-memory backend, so
// nothing here is ever called. If a change of options makes bcoin open an on-disk
// database, this throws with the reason instead of failing somewhere obscure.
function leveldown(location) {
  throw new Error(
    'leveldown stub: bcoin tried to open an on-disk database at ' + location +
      '; scripts/bcoin-node.sh runs bcoin with --memory=true only');
}

module.exports = leveldown;
