#!/usr/bin/env bash
# Builds this adapter, with the library version go.mod and go.sum pin, into
# adapters/btcutil-legacy/target/bip37-btcutil-legacy (from the Go module proxy only), and vets it.
# Usage: adapters/btcutil-legacy/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../go-protocol/build.sh" "$here" bip37-btcutil-legacy bip37.invalid/btcutil-family
