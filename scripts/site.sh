#!/usr/bin/env bash
# Build the static website (the whole tutor running in the visitor's browser on Pyodide) into build/site/.
# Step 1 downloads the pinned inputs into .site-cache/ (skipped when they are there already: the only step
# that needs the network); step 2 builds from them with no network at all (in a network namespace of its
# own where the machine allows one). Open build/site/index.html through any web server, for instance
#   python3 -m http.server -d build/site 8000     and then  http://127.0.0.1:8000/
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1
missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
  else
    echo "The site build needs Node.js and npm: run 'sudo apt-get install nodejs npm'." >&2
    exit 1
  fi
fi
tools=.site-cache/venv
if ! cmp -s website/requirements-build.txt "$tools/requirements-build.txt"; then
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/python" -m pip install -q --upgrade pip
  "$tools/bin/python" -m pip install -q -r website/requirements-build.txt
  cp website/requirements-build.txt "$tools/requirements-build.txt"
fi
"$tools/bin/python" website/build.py fetch
if unshare --user --map-root-user --net true 2>/dev/null; then
  unshare --user --map-root-user --net "$tools/bin/python" website/build.py build
else
  echo "(no network namespace on this machine: building with the network on; the build downloads nothing)" >&2
  "$tools/bin/python" website/build.py build
fi
