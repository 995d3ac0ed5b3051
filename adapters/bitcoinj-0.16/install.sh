#!/usr/bin/env bash
# Builds the bitcoinj 0.16.5 adapter against org.bitcoinj:bitcoinj-core:0.16.5 from Maven Central and
# writes target/classpath.args for its run command (adapters/java-protocol/build.sh).
# Usage: adapters/bitcoinj-0.16/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../java-protocol/build.sh" "$here" bip37.bitcoinj.Main
