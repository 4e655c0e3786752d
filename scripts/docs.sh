#!/usr/bin/env bash
# Build the documentation site (docs/, Sphinx with MyST Markdown) into docs/_build/html, every warning an
# error (nitpicky cross references included), then check every internal link and anchor of the built pages.
# Needs the docs extra (scripts/setup.sh dev installs it). PYTHON=... picks another interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-.venv/bin/python}"
rm -rf docs/_build/html docs/_build/doctrees
"$python" -m sphinx -b html -W -n --keep-going -q -d docs/_build/doctrees docs docs/_build/html
"$python" scripts/check_links.py docs/_build/html
