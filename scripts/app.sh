#!/usr/bin/env bash
# Set up .venv and start the Leopard Tutor web app (Voilà) on http://127.0.0.1:8866
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh app
exec .venv/bin/leopard-tutor "$@"
