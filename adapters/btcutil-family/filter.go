package family

import (
	"bytes"

	"bip37.invalid/protocol"
	"github.com/btcsuite/btcd/wire"
)

// maxExplicitBytes is the suite's work ceiling on a filter's size (docs/PROTOCOL.md): an
// explicit filter above it is declined rather than allocated (up to 4 GiB).
const maxExplicitBytes = 288_000

func (o operations[F]) murmur3(in protocol.Murmur3Input) (protocol.Murmur3Output, error) {
	return protocol.Murmur3Output{Hash: o.MurmurHash3(in.Seed, in.Data)}, nil
}

func (o operations[F]) sizing(in protocol.SizingInput) (protocol.SizingOutput, error) {
	msg := o.NewFilter(in.NElements, 0, float64(in.FpRate), wire.BloomUpdateNone).MsgFilterLoad()
	return protocol.SizingOutput{FilterBytes: uint32(len(msg.Filter)), HashFuncs: msg.HashFuncs}, nil
}

// filter sets a filter up as the test describes it, and inserts `insert`.
func (o operations[F]) filter(init protocol.FilterInit, insert []protocol.Hex) (F, error) {
	var filter F
	flags := wire.BloomUpdateType(init.Flags)
	switch init.Kind {
	case protocol.KindSized:
		filter = o.NewFilter(init.NElements, init.Tweak, float64(init.FpRate), flags)
	case protocol.KindExplicit:
		if init.FilterBytes > maxExplicitBytes {
			return filter, protocol.Unsupportedf("an explicit filter of %d bytes: above the suite's work ceiling of %d", init.FilterBytes, maxExplicitBytes)
		}
		data := make([]byte, init.FilterBytes)
		filter = o.LoadFilter(wire.NewMsgFilterLoad(data, init.HashFuncs, init.Tweak, flags))
	case protocol.KindLoaded:
		data := append([]byte{}, init.Data...)
		filter = o.LoadFilter(wire.NewMsgFilterLoad(data, init.HashFuncs, init.Tweak, flags))
	}
	for _, element := range insert {
		filter.Add(element)
	}
	return filter, nil
}

func (o operations[F]) buildFilter(in protocol.BuildFilterInput) (protocol.BuildFilterOutput, error) {
	filter, err := o.filter(in.Filter, in.Insert)
	if err != nil {
		return protocol.BuildFilterOutput{}, err
	}
	var payload bytes.Buffer
	// BtcEncode refuses a filter over btcd's size or hash function limits.
	err = filter.MsgFilterLoad().BtcEncode(&payload, wire.ProtocolVersion, wire.LatestEncoding)
	if err != nil {
		return protocol.BuildFilterOutput{}, protocol.Reject(protocol.StageLimits, err)
	}
	contains := make(protocol.List[bool], len(in.Queries))
	for i, query := range in.Queries {
		contains[i] = filter.Matches(query)
	}
	return protocol.BuildFilterOutput{Filterload: payload.Bytes(), Contains: contains}, nil
}
