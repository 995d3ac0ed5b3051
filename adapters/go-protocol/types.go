package protocol

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
)

// The inputs and outputs of the operations, as harness/src/ops/ defines them and
// docs/PROTOCOL.md lists them (a "sequence" adapter declares its own types). Decoding is
// strict (Op): an unknown field, a missing one (every field but those tagged omitempty, which
// the suite may leave out), a number out of its field's range or malformed hex is a fault of
// the exchange, never a zero value. Output lists are List, so that an empty one is [] on the
// wire, never null.

// Hex is a byte string, lowercase hex on the wire.
type Hex []byte

var lowercaseHex = regexp.MustCompile(`^(?:[0-9a-f]{2})*$`)

// UnmarshalJSON accepts lowercase hex of whole bytes only.
func (h *Hex) UnmarshalJSON(data []byte) error {
	var text string
	if err := json.Unmarshal(data, &text); err != nil {
		return fmt.Errorf("hex must be a string: %w", err)
	}
	if !lowercaseHex.MatchString(text) {
		return fmt.Errorf("not lowercase hex of whole bytes: %q", abbreviate(text))
	}
	bytes, err := hex.DecodeString(text)
	*h = bytes
	return err
}

// MarshalJSON writes lowercase hex ("" for no bytes).
func (h Hex) MarshalJSON() ([]byte, error) { return json.Marshal(hex.EncodeToString(h)) }

func abbreviate(text string) string {
	if len(text) > 40 {
		return text[:40] + "..."
	}
	return text
}

// List is an output list: a JSON array, [] when it has no element (a nil Go slice is null).
type List[T any] []T

// MarshalJSON writes the elements, [] for none.
func (l List[T]) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]T(l))
}

// FpRate is a false-positive rate: a JSON number, or "NaN", "Infinity", "-Infinity".
type FpRate float64

// UnmarshalJSON accepts a number or one of the three strings.
func (p *FpRate) UnmarshalJSON(data []byte) error {
	var number float64
	if err := json.Unmarshal(data, &number); err == nil {
		*p = FpRate(number)
		return nil
	}
	var text string
	if err := json.Unmarshal(data, &text); err != nil {
		return fmt.Errorf("fpRate must be a number or NaN/Infinity/-Infinity, not %s", data)
	}
	special := map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}
	value, known := special[text]
	if !known {
		return fmt.Errorf("fpRate must be a number or NaN/Infinity/-Infinity, not %q", text)
	}
	*p = FpRate(value)
	return nil
}

// The kinds of FilterInit.
const (
	KindSized    = "sized"
	KindExplicit = "explicit"
	KindLoaded   = "loaded"
)

// FilterInit is how a test sets up a filter. Kind says which fields it carries: KindSized
// NElements and FpRate, KindExplicit FilterBytes and HashFuncs, KindLoaded Data and HashFuncs;
// all carry Tweak and Flags.
type FilterInit struct {
	Kind        string
	NElements   uint32
	FpRate      FpRate
	FilterBytes uint32
	HashFuncs   uint32
	Data        Hex
	Tweak       uint32
	Flags       uint8
}

// UnmarshalJSON reads the fields of the filter's kind and refuses a missing one, a field of
// another kind, an unknown field and an unknown kind.
func (f *FilterInit) UnmarshalJSON(data []byte) error {
	var v struct {
		Kind        *string `json:"kind"`
		NElements   *uint32 `json:"nElements"`
		FpRate      *FpRate `json:"fpRate"`
		FilterBytes *uint32 `json:"filterBytes"`
		HashFuncs   *uint32 `json:"hashFuncs"`
		Data        *Hex    `json:"data"`
		Tweak       *uint32 `json:"tweak"`
		Flags       *uint8  `json:"flags"`
	}
	if err := decodeStrict(data, &v); err != nil {
		return err
	}
	if v.Kind == nil {
		return fmt.Errorf("a filter without a kind")
	}
	present := map[string]bool{
		"nElements": v.NElements != nil, "fpRate": v.FpRate != nil,
		"filterBytes": v.FilterBytes != nil, "hashFuncs": v.HashFuncs != nil,
		"data": v.Data != nil, "tweak": v.Tweak != nil, "flags": v.Flags != nil,
	}
	wanted := map[string][]string{
		KindSized:    {"nElements", "fpRate", "tweak", "flags"},
		KindExplicit: {"filterBytes", "hashFuncs", "tweak", "flags"},
		KindLoaded:   {"data", "hashFuncs", "tweak", "flags"},
	}[*v.Kind]
	if wanted == nil {
		return fmt.Errorf("unknown filter kind %q", *v.Kind)
	}
	for _, name := range wanted {
		if !present[name] {
			return fmt.Errorf("a %s filter without %s", *v.Kind, name)
		}
		delete(present, name)
	}
	for name, here := range present {
		if here {
			return fmt.Errorf("a %s filter with %s", *v.Kind, name)
		}
	}
	*f = FilterInit{Kind: *v.Kind, Tweak: *v.Tweak, Flags: *v.Flags}
	switch *v.Kind {
	case KindSized:
		f.NElements, f.FpRate = *v.NElements, *v.FpRate
	case KindExplicit:
		f.FilterBytes, f.HashFuncs = *v.FilterBytes, *v.HashFuncs
	case KindLoaded:
		f.Data, f.HashFuncs = *v.Data, *v.HashFuncs
	}
	return nil
}

// Murmur3Input is the input of "murmur3"; Murmur3Output its output.
type Murmur3Input struct {
	Seed uint32 `json:"seed"`
	Data Hex    `json:"data"`
}
type Murmur3Output struct {
	Hash uint32 `json:"hash"`
}

// HashSeedInput is the input of "hashSeed"; HashSeedOutput its output.
type HashSeedInput struct {
	HashIndex uint32 `json:"hashIndex"`
	Tweak     uint32 `json:"tweak"`
}
type HashSeedOutput struct {
	Seed uint32 `json:"seed"`
}

// SizingInput is the input of "sizing"; SizingOutput its output.
type SizingInput struct {
	NElements uint32 `json:"nElements"`
	FpRate    FpRate `json:"fpRate"`
}
type SizingOutput struct {
	FilterBytes uint32 `json:"filterBytes"`
	HashFuncs   uint32 `json:"hashFuncs"`
}

// BitIndexesInput is the input of "bitIndexes"; BitIndexesOutput its output.
type BitIndexesInput struct {
	Filter  FilterInit `json:"filter"`
	Element Hex        `json:"element"`
}
type BitIndexesOutput struct {
	Indexes List[uint32] `json:"indexes"`
}

// BuildFilterInput is the input of "buildFilter"; BuildFilterOutput its output.
type BuildFilterInput struct {
	Filter  FilterInit `json:"filter"`
	Insert  []Hex      `json:"insert,omitempty"`
	Queries []Hex      `json:"queries,omitempty"`
}
type BuildFilterOutput struct {
	Filterload Hex        `json:"filterload"`
	Contains   List[bool] `json:"contains"`
}

// PayloadInput is the input of the message operations (filterloadDecode, filterloadAccept,
// filteraddDecode, filteraddAccept); FilterloadOutput and FilteraddOutput their outputs.
type PayloadInput struct {
	Payload Hex `json:"payload"`
}
type FilterloadOutput struct {
	Data      Hex    `json:"data"`
	HashFuncs uint32 `json:"hashFuncs"`
	Tweak     uint32 `json:"tweak"`
	Flags     uint8  `json:"flags"`
}
type FilteraddOutput struct {
	Data Hex `json:"data"`
}

// MatchTxInput is the input of "matchTx"; MatchTxOutput its output.
type MatchTxInput struct {
	Filter FilterInit `json:"filter"`
	Insert []Hex      `json:"insert,omitempty"`
	Txs    []Hex      `json:"txs"`
}
type MatchTxOutput struct {
	Matched    List[bool] `json:"matched"`
	FilterData Hex        `json:"filterData"`
}

// MerkleBlockInput is the input of "merkleBlock"; MerkleBlockOutput its output.
type MerkleBlockInput struct {
	Filter FilterInit `json:"filter"`
	Insert []Hex      `json:"insert,omitempty"`
	Block  Hex        `json:"block"`
}
type MerkleBlockOutput struct {
	Merkleblock Hex             `json:"merkleblock"`
	Matched     List[MatchedTx] `json:"matched"`
	FilterData  Hex             `json:"filterData"`
}

// MatchedTx is a matched transaction: its position in the block and its txid (internal byte
// order).
type MatchedTx struct {
	Index uint32 `json:"index"`
	Txid  Hex    `json:"txid"`
}

// PmtBuildInput is the input of "pmtBuild"; PmtBuildOutput its output.
type PmtBuildInput struct {
	Txids   []Hex  `json:"txids"`
	Matches []bool `json:"matches"`
}
type PmtBuildOutput struct {
	Pmt Hex `json:"pmt"`
}

// PmtExtractInput is the input of "pmtExtract"; PmtExtractOutput its output.
type PmtExtractInput struct {
	Pmt Hex `json:"pmt"`
}
type PmtExtractOutput struct {
	Root    Hex             `json:"root"`
	Matched List[MatchedTx] `json:"matched"`
}
