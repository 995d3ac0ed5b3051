module bip37.invalid/protocol

go 1.22
