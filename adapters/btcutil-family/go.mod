module bip37.invalid/btcutil-family

go 1.22

require (
	bip37.invalid/protocol v0.0.0
	github.com/btcsuite/btcd v0.20.1-beta
)

replace bip37.invalid/protocol => ../go-protocol
