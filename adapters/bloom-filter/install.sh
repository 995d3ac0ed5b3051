#!/usr/bin/env bash
# Installs the pinned npm package bloom-filter (package-lock.json) into adapters/bloom-filter/node_modules.
# Usage: adapters/bloom-filter/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v npm >/dev/null || { echo "install.sh: npm is required" >&2; exit 1; }
npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
