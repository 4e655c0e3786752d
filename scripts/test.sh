#!/usr/bin/env bash
# Set up .venv (and Debian's Chromium for the browser tests), then run the checks and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 JUPYTER_PLATFORM_DIRS=1
if ! [ -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q && apt-get install -y -q chromium
  else
    echo "Chromium is missing: run 'sudo apt-get install chromium' for the browser tests." >&2
  fi
fi
bash scripts/setup.sh dev
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/python -m pytest -p no:cacheprovider "$@"
