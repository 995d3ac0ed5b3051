package family

import (
	"bytes"

	"bip37.invalid/protocol"
	"github.com/btcsuite/btcd/wire"
)

// Transactions and blocks are read with the wire codec's Deserialize (witness serialization
// understood); one that does not decode is rejected at stage "decode".

func (o operations[F]) matchTx(in protocol.MatchTxInput) (protocol.MatchTxOutput, error) {
	filter, err := o.filter(in.Filter, in.Insert)
	if err != nil {
		return protocol.MatchTxOutput{}, err
	}
	txs := make([]*wire.MsgTx, len(in.Txs))
	for i, raw := range in.Txs {
		txs[i] = new(wire.MsgTx)
		if err := txs[i].Deserialize(bytes.NewReader(raw)); err != nil {
			return protocol.MatchTxOutput{}, protocol.Reject(protocol.StageDecode, err)
		}
	}
	matched := make(protocol.List[bool], len(txs))
	for i, tx := range txs {
		matched[i] = o.MatchTxAndUpdate(filter, tx)
	}
	return protocol.MatchTxOutput{Matched: matched, FilterData: filter.MsgFilterLoad().Filter}, nil
}

func (o operations[F]) merkleBlock(in protocol.MerkleBlockInput) (protocol.MerkleBlockOutput, error) {
	filter, err := o.filter(in.Filter, in.Insert)
	if err != nil {
		return protocol.MerkleBlockOutput{}, err
	}
	var block wire.MsgBlock
	if err := block.Deserialize(bytes.NewReader(in.Block)); err != nil {
		return protocol.MerkleBlockOutput{}, protocol.Reject(protocol.StageDecode, err)
	}
	msg, indexes := o.NewMerkleBlock(&block, filter)
	var payload bytes.Buffer
	// BtcEncode refuses more hashes or flag bytes than a block can have.
	if err := msg.BtcEncode(&payload, wire.ProtocolVersion, wire.LatestEncoding); err != nil {
		return protocol.MerkleBlockOutput{}, protocol.Reject(protocol.StageLimits, err)
	}
	matched := make(protocol.List[protocol.MatchedTx], len(indexes))
	for i, index := range indexes {
		txid := block.Transactions[index].TxHash()
		matched[i] = protocol.MatchedTx{Index: index, Txid: txid[:]}
	}
	return protocol.MerkleBlockOutput{Merkleblock: payload.Bytes(), Matched: matched,
		FilterData: filter.MsgFilterLoad().Filter}, nil
}
