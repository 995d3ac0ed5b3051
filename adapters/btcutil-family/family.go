// Package family is the adapter of btcd's Bloom filter library, `btcutil/bloom`, written once
// for its two module lines: github.com/btcsuite/btcd/btcutil (inside the btcd repository) and
// the older github.com/btcsuite/btcutil. Their bloom APIs are the same; only the import paths
// of `bloom` and `btcutil` differ, and which btcd `wire` package they are built with. So each
// adapter (adapters/btcutil/, adapters/btcutil-legacy/) is a main package that binds its own
// module's functions into a Library and calls Serve; its go.mod pins that module and, through
// it, the btcd version whose `wire` this package's calls reach.
//
// Every value comes from the library or its `wire` codec; this package only translates the
// protocol's JSON (adapters/go-protocol) to those calls. An error a call returns is the
// library's rejection of the input; a panic is not recovered (the harness reports a crash).
package family

import (
	"runtime/debug"

	"bip37.invalid/protocol"
	"github.com/btcsuite/btcd/wire"
)

// Filter is the part of *bloom.Filter the operations call, the same in both module lines.
type Filter interface {
	Add(data []byte)
	Matches(data []byte) bool
	MsgFilterLoad() *wire.MsgFilterLoad
}

// Library is the bloom package of one module line, bound by its adapter's main package.
type Library[F Filter] struct {
	// Module is the library's module path, whose built version the hello reports.
	Module string
	// Notes says what this line's column is, before the notes both lines share.
	Notes            string
	NewFilter        func(elements, tweak uint32, fprate float64, flags wire.BloomUpdateType) F
	LoadFilter       func(filter *wire.MsgFilterLoad) F
	MurmurHash3      func(seed uint32, data []byte) uint32
	MatchTxAndUpdate func(filter F, tx *wire.MsgTx) bool                                   // via btcutil.NewTx
	NewMerkleBlock   func(block *wire.MsgBlock, filter F) (*wire.MsgMerkleBlock, []uint32) // via btcutil.NewBlock
}

// notes are what both lines can and cannot express.
const notes = "MurmurHash3; sizing and sized filters: NewFilter; explicit and loaded filters: " +
	"LoadFilter of a wire.MsgFilterLoad, written with its BtcEncode; filterload/filteradd decode: " +
	"their wire BtcDecode, which applies btcd's limits itself; accept: wire.ReadMessageWithEncodingN " +
	"of the framed message, as btcd's peer reads it, then LoadFilter (btcd's Reload); matchTx: " +
	"MatchTxAndUpdate; merkleBlock: NewMerkleBlock. Not expressible: hashSeed and bitIndexes " +
	"(Filter.hash is unexported), pmtBuild and pmtExtract (a partial merkle tree is built only " +
	"inside NewMerkleBlock, from a whole block, and never parsed), sequence (a node's session: " +
	"see the btcd node). Explicit filters over 288,000 bytes, the suite's work ceiling, are " +
	"unsupported instead of allocated."

// Serve speaks the protocol with every operation the library can express.
func Serve[F Filter](library Library[F]) {
	ops := operations[F]{library}
	protocol.Serve(protocol.Adapter{
		Implementation: library.Module,
		Version:        moduleVersion(library.Module),
		Notes:          library.Notes + " " + notes,
		Operations: []protocol.Operation{
			protocol.Op("murmur3", ops.murmur3),
			protocol.Op("sizing", ops.sizing),
			protocol.Op("buildFilter", ops.buildFilter),
			protocol.Op("filterloadDecode", filterloadDecode),
			protocol.Op("filterloadAccept", ops.filterloadAccept),
			protocol.Op("filteraddDecode", filteraddDecode),
			protocol.Op("filteraddAccept", filteraddAccept),
			protocol.Op("matchTx", ops.matchTx),
			protocol.Op("merkleBlock", ops.merkleBlock),
		},
	})
}

// operations are the handlers that call the library.
type operations[F Filter] struct{ Library[F] }

// moduleVersion is the version of `module` this program was built with, from its build
// information: the version under test, not a constant that could drift from go.mod.
func moduleVersion(module string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == module {
				if dep.Replace != nil {
					return dep.Replace.Version
				}
				return dep.Version
			}
		}
	}
	panic("the build information does not name " + module + ": not built as a module?")
}
