// Command bip37-btcutil is the protocol v1 adapter of github.com/btcsuite/btcd/btcutil/bloom,
// the btcutil module inside the btcd repository (pinned in go.mod). The operations are written
// once for both btcutil lines in adapters/btcutil-family; this file binds this module's bloom.
package main

import (
	family "bip37.invalid/btcutil-family"
	"github.com/btcsuite/btcd/btcutil"
	"github.com/btcsuite/btcd/btcutil/bloom"
	"github.com/btcsuite/btcd/wire"
)

func main() {
	family.Serve(family.Library[*bloom.Filter]{
		Module:      "github.com/btcsuite/btcd/btcutil",
		Notes:       "btcd's btcutil/bloom, the line btcd node releases pin (btcd wire as go.mod selects it).",
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
