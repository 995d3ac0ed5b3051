#!/usr/bin/env bash
# Installs the pinned npm package bfilter (package-lock.json) into adapters/bfilter/node_modules.
# Usage: adapters/bfilter/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v npm >/dev/null || { echo "install.sh: npm is required" >&2; exit 1; }
npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
