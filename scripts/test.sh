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
if [ $# -gt 0 ]; then  # what was asked: a file, a test, a marker
  exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
fi
# The whole suite in two runs, each on two workers (pytest-xdist: a module, and the servers it starts, stays on one
# worker; each worker has its own session server, Chromium, ports and data folders), the longest modules first
# (tests/module_order.py, so both workers finish together): the tests without a browser, then the browser tests
# (they mostly wait for servers and pages, so two at once nearly halve their time). Both run even if the first fails.
status=0
.venv/bin/python -m pytest -p no:cacheprovider -n 2 --dist loadscope --no-loadscope-reorder -m "not browser" --durations=10 || status=$?
.venv/bin/python -m pytest -p no:cacheprovider -n 2 --dist loadscope --no-loadscope-reorder -m browser --durations=15 || status=$?
exit "$status"
