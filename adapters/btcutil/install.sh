#!/usr/bin/env bash
# Builds this adapter, with the library version go.mod and go.sum pin, into
# adapters/btcutil/target/bip37-btcutil (from the Go module proxy only), and vets it.
# Usage: adapters/btcutil/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../go-protocol/build.sh" "$here" bip37-btcutil bip37.invalid/btcutil-family
