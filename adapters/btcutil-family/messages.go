package family

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"

	"bip37.invalid/protocol"
	"github.com/btcsuite/btcd/wire"
)

// The message operations. Decode is the message's own BtcDecode, which already applies btcd's
// limits (a filter over 36,000 bytes, more than 50 hash functions, an element over 520 bytes).
// Accept is the path a payload takes in a btcd node: the whole message, header and all, read by
// wire.ReadMessageWithEncodingN as btcd's peer reads it (which adds the message's
// MaxPayloadLength), then, for a filterload, the library's LoadFilter as btcd's server's Reload.
// Every codec error is reported at stage "decode": btcd has no later step that could refuse.

func filterloadDecode(in protocol.PayloadInput) (protocol.FilterloadOutput, error) {
	var msg wire.MsgFilterLoad
	err := msg.BtcDecode(bytes.NewReader(in.Payload), wire.ProtocolVersion, wire.LatestEncoding)
	if err != nil {
		return protocol.FilterloadOutput{}, protocol.Reject(protocol.StageDecode, err)
	}
	return filterloadOutput(&msg), nil
}

func (o operations[F]) filterloadAccept(in protocol.PayloadInput) (protocol.FilterloadOutput, error) {
	msg, err := readMessage(wire.CmdFilterLoad, in.Payload)
	if err != nil {
		return protocol.FilterloadOutput{}, err
	}
	return filterloadOutput(o.LoadFilter(msg.(*wire.MsgFilterLoad)).MsgFilterLoad()), nil
}

func filteraddDecode(in protocol.PayloadInput) (protocol.FilteraddOutput, error) {
	var msg wire.MsgFilterAdd
	err := msg.BtcDecode(bytes.NewReader(in.Payload), wire.ProtocolVersion, wire.LatestEncoding)
	if err != nil {
		return protocol.FilteraddOutput{}, protocol.Reject(protocol.StageDecode, err)
	}
	return protocol.FilteraddOutput{Data: msg.Data}, nil
}

func filteraddAccept(in protocol.PayloadInput) (protocol.FilteraddOutput, error) {
	msg, err := readMessage(wire.CmdFilterAdd, in.Payload)
	if err != nil {
		return protocol.FilteraddOutput{}, err
	}
	return protocol.FilteraddOutput{Data: msg.(*wire.MsgFilterAdd).Data}, nil
}

func filterloadOutput(msg *wire.MsgFilterLoad) protocol.FilterloadOutput {
	return protocol.FilterloadOutput{Data: msg.Filter, HashFuncs: msg.HashFuncs,
		Tweak: msg.Tweak, Flags: uint8(msg.Flags)}
}

// readMessage frames `payload` as the mainnet message `command` (magic, command, length,
// checksum: the 24-byte header of the P2P protocol) and reads it back with btcd's codec.
func readMessage(command string, payload []byte) (wire.Message, error) {
	header := make([]byte, 24)
	binary.LittleEndian.PutUint32(header[0:], uint32(wire.MainNet))
	copy(header[4:16], command)
	binary.LittleEndian.PutUint32(header[16:], uint32(len(payload)))
	first := sha256.Sum256(payload)
	checksum := sha256.Sum256(first[:])
	copy(header[20:], checksum[:4])
	framed := bytes.NewReader(append(header, payload...))
	_, msg, _, err := wire.ReadMessageWithEncodingN(framed, wire.ProtocolVersion, wire.MainNet, wire.LatestEncoding)
	return msg, protocol.Reject(protocol.StageDecode, err)
}
