#!/usr/bin/env bash
# Builds a Go adapter module into DIR/target/BINARY with the versions its go.mod and go.sum pin
# (-mod=readonly: a go.mod or go.sum that would need a change is an error, never rewritten),
# downloading only from the Go module proxy (no checksum database either: every download is
# checked against the hashes go.sum pins), with the local Go (no toolchain download); then
# vets the adapter's packages (PACKAGE... beside the module's own, e.g. a shared one it uses).
# Usage: adapters/go-protocol/build.sh DIR BINARY [PACKAGE...]
set -euo pipefail
(($# >= 2)) || { echo "usage: $0 DIR BINARY [PACKAGE...]" >&2; exit 2; }
dir=$1 binary=$2
shift 2
command -v go >/dev/null || { echo "build.sh: go is required (.ci/prerequisites)" >&2; exit 1; }
export GOFLAGS=-mod=readonly GOPROXY=https://proxy.golang.org GOSUMDB=off GOTOOLCHAIN=local GOWORK=off
cd "$dir"
# Built beside, then renamed: a failed or interrupted build never leaves a partial binary.
mkdir -p target
go build -trimpath -o "target/$binary.partial" .
mv -f "target/$binary.partial" "target/$binary"
go vet . "$@"
