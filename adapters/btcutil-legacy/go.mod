module bip37.invalid/btcutil-legacy

go 1.22

replace (
	bip37.invalid/btcutil-family => ../btcutil-family
	bip37.invalid/protocol => ../go-protocol
)

require (
	bip37.invalid/btcutil-family v0.0.0-00010101000000-000000000000
	github.com/btcsuite/btcd v0.20.1-beta
	github.com/btcsuite/btcutil v1.0.2
)

require (
	bip37.invalid/protocol v0.0.0 // indirect
	github.com/btcsuite/btclog v0.0.0-20170628155309-84c8d2346e9f // indirect
	golang.org/x/crypto v0.0.0-20200115085410-6d4e4cb37c7d // indirect
)
