module bip37.invalid/template-go

go 1.23

require bip37.invalid/protocol v0.0.0

replace bip37.invalid/protocol => ../go-protocol
