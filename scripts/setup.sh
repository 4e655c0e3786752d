#!/usr/bin/env bash
# Create (or refresh) the virtual environment at .venv and install the project into it.
# Usage: scripts/setup.sh [app|dev]   (default: dev, which adds the test tools and the docs extra)
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
requirements=requirements-dev.txt project=".[docs]"
[ "${1:-dev}" = app ] && requirements=requirements.txt project=.
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -r "$requirements" -e "$project"
