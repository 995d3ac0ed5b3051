// Command template-go is a bip37-conform adapter template: the subprocess protocol, version 1,
// in Go, as adapters/template.py is for Python.
//
// Copy this directory, point the replace line of go.mod at adapters/go-protocol (the loop),
// replace the three example operations with calls into your implementation, list the
// operations you support in main, and run the suite against the built program:
//
//	go build -o template-go . && bip37-conform run --impl ./template-go
//
// The loop says hello with the listed operations and answers each request with the
// handler's output ("ok"). A handler returns protocol.Reject(stage, err) for an error your
// library returned (its rejection of the input: "error") and protocol.Unsupportedf for an
// input it cannot express ("unsupported"). Any other error is a bug of the adapter: the
// program stops with it on stderr and the harness reports a crash; a panic is not recovered
// and is a crash too. Write diagnostics to stderr, never to stdout.
package main

import (
	"fmt"
	"math"
	"math/bits"

	"bip37.invalid/protocol"
)

// murmur3 is MurmurHash3 x86_32, as Bitcoin Core's MurmurHash3 (little-endian blocks and tail).
func murmur3(seed uint32, data []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	mix := func(k uint32) uint32 { return bits.RotateLeft32(k*c1, 15) * c2 }
	h := seed
	rounded := len(data) - len(data)%4
	for i := 0; i < rounded; i += 4 {
		k := uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24
		h = bits.RotateLeft32(h^mix(k), 13)*5 + 0xe6546b64
	}
	var k uint32
	for i := len(data) - 1; i >= rounded; i-- {
		k = k<<8 | uint32(data[i])
	}
	if len(data)%4 != 0 {
		h ^= mix(k)
	}
	h ^= uint32(len(data))
	h = (h ^ h>>16) * 0x85ebca6b
	h = (h ^ h>>13) * 0xc2b2ae35
	return h ^ h>>16
}

// Core's constants (src/common/bloom.cpp), as float64 variables: a constant expression would be
// computed exactly and rounded once, where Core's double arithmetic rounds at each step.
var ln2Squared, ln2 = 0.4804530139182014246671025263266649717305529515945455, 0.6931471805599453094172321214581765680755001343602552

// sizing is Core's constructor for (n, p): the bit count is -1 / ln2^2 * n * ln p in float64, in
// that order, truncated and capped at 288,000; the hash function count divides the filter's
// bits by n in INTEGERS before multiplying by ln 2. Inputs Core leaves undefined are rejected
// (docs/PROTOCOL.md, sizing).
func sizing(n uint32, rate float64) (protocol.SizingOutput, error) {
	if n == 0 || !(rate > 0) {
		return protocol.SizingOutput{}, protocol.Reject(protocol.StageParameters, fmt.Errorf("no defined filter for n = %d, p = %v", n, rate))
	}
	count := -1 / ln2Squared * float64(n) * math.Log(rate)
	if !(count > -1 && count < 1<<32) {
		return protocol.SizingOutput{}, protocol.Reject(protocol.StageParameters, fmt.Errorf("the bit count %v is outside unsigned int", count))
	}
	filterBytes := min(uint32(math.Trunc(count)), 36000*8) / 8
	hashFuncs := min(uint32(float64(filterBytes*8/n)*ln2), 50)
	return protocol.SizingOutput{FilterBytes: filterBytes, HashFuncs: hashFuncs}, nil
}

func main() {
	protocol.Serve(protocol.Adapter{
		Implementation: "template-go",
		Version:        "0.1.0",
		Operations: []protocol.Operation{
			protocol.Op("murmur3", func(in protocol.Murmur3Input) (protocol.Murmur3Output, error) {
				return protocol.Murmur3Output{Hash: murmur3(in.Seed, in.Data)}, nil
			}),
			protocol.Op("hashSeed", func(in protocol.HashSeedInput) (protocol.HashSeedOutput, error) {
				// hashIndex * 0xFBA4C795 + tweak, mod 2^32 (uint32 arithmetic wraps).
				return protocol.HashSeedOutput{Seed: in.HashIndex*0xfba4c795 + in.Tweak}, nil
			}),
			protocol.Op("sizing", func(in protocol.SizingInput) (protocol.SizingOutput, error) {
				return sizing(in.NElements, float64(in.FpRate))
			}),
		},
	})
}
