// Command bip37-btcutil-legacy is the protocol v1 adapter of github.com/btcsuite/btcutil/bloom,
// the btcutil module from before it moved into the btcd repository (pinned in go.mod). The
// operations are written once for both btcutil lines in adapters/btcutil-family; this file
// binds this module's bloom.
package main

import (
	family "bip37.invalid/btcutil-family"
	"github.com/btcsuite/btcd/wire"
	"github.com/btcsuite/btcutil"
	"github.com/btcsuite/btcutil/bloom"
)

func main() {
	family.Serve(family.Library[*bloom.Filter]{
		Module:      "github.com/btcsuite/btcutil",
		Notes:       "The pre-monorepo btcutil module (its newest release; the btcutil/v2 module the issue names is not served by the Go module proxy), built with the btcd wire it requires.",
		NewFilter:   bloom.NewFilter,
		LoadFilter:  bloom.LoadFilter,
		MurmurHash3: bloom.MurmurHash3,
		MatchTxAndUpdate: func(filter *bloom.Filter, tx *wire.MsgTx) bool {
			return filter.MatchTxAndUpdate(btcutil.NewTx(tx))
		},
		NewMerkleBlock: func(block *wire.MsgBlock, filter *bloom.Filter) (*wire.MsgMerkleBlock, []uint32) {
			return bloom.NewMerkleBlock(btcutil.NewBlock(block), filter)
		},
	})
}
