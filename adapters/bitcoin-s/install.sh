#!/usr/bin/env bash
# Builds the bitcoin-s adapter against org.bitcoin-s:bitcoin-s-core_2.13:1.9.7 from Maven Central
# and writes target/classpath.args for its run command (adapters/java-protocol/build.sh).
# Usage: adapters/bitcoin-s/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../java-protocol/build.sh" "$here" bip37.bitcoins.Main
