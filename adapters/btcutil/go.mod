module bip37.invalid/btcutil

go 1.23.2

replace (
	bip37.invalid/btcutil-family => ../btcutil-family
	bip37.invalid/protocol => ../go-protocol
)

require (
	bip37.invalid/btcutil-family v0.0.0-00010101000000-000000000000
	github.com/btcsuite/btcd v0.24.2
	github.com/btcsuite/btcd/btcutil v1.2.0
)

require (
	bip37.invalid/protocol v0.0.0 // indirect
	github.com/btcsuite/btcd/btcec/v2 v2.3.5 // indirect
	github.com/btcsuite/btcd/chaincfg/chainhash v1.1.0 // indirect
	github.com/btcsuite/btclog v0.0.0-20170628155309-84c8d2346e9f // indirect
	github.com/decred/dcrd/crypto/blake256 v1.0.0 // indirect
	github.com/decred/dcrd/dcrec/secp256k1/v4 v4.0.1 // indirect
	github.com/kcalvinalvin/anet v0.0.0-20251112173137-d8ddc1f6dbee // indirect
	golang.org/x/crypto v0.25.0 // indirect
	golang.org/x/sys v0.22.0 // indirect
)
