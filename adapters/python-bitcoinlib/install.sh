#!/usr/bin/env bash
# Installs the pinned python-bitcoinlib into adapters/python-bitcoinlib/.venv (hash-checked).
# Usage: adapters/python-bitcoinlib/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v python3 >/dev/null || { echo "install.sh: python3 is required" >&2; exit 1; }
python3 -m venv "$here/.venv"
"$here/.venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes -r "$here/requirements.txt"
