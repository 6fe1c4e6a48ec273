#!/usr/bin/env bash
# The Python package's part of CI (.ci/run calls it; run it alone after `npm ci`, which builds
# dist/): in a new virtual environment, build the wheel, install that wheel (not the sources:
# what users get from PyPI), run the package's tests against this checkout's built CLI
# (dist/cli.js), then examples/pytest as a team runs it, from a copy outside the clone with the
# packed npm package installed there as docs/INSTALL.md says (its install, which compiles
# better-sqlite3 where no prebuilt binary downloads, runs beside the package's tests), then
# mypy --strict and ruff over both.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-python3}
# One retry, not pip's five: where the default index cannot be reached and a mirror serves the
# packages, five retries per package turn a ten-second install into minutes.
export PIP_RETRIES=${PIP_RETRIES:-1} PIP_DISABLE_PIP_VERSION_CHECK=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The packed package, installed into a copy of examples/pytest (in the background: minutes where
# better-sqlite3 compiles). Packed first, as packing builds dist/, which the tests below run.
outside="$work/pytest-example"
cp -r examples/pytest "$outside"
rm -rf "$outside/.pytest_cache" "$outside/.venv"
npm run --silent package -- "$work" >/dev/null
printf '{"name": "pytest-example", "private": true, "allowScripts": {"better-sqlite3": true}}\n' \
  >"$outside/package.json"
(cd "$outside" && npm install --save-dev --no-audit --no-fund --prefer-offline \
  "$work"/pix-sandbox-*.tgz >"$work/npm-install.log" 2>&1) &
installing=$!
started=$SECONDS

"$PYTHON" --version
"$PYTHON" -m venv "$work/venv"
py="$work/venv/bin/python"
"$py" -m pip install -q pytest pytest-xdist build hatchling mypy ruff
"$py" -m build -q --wheel --no-isolation --outdir "$work/dist" clients/python >/dev/null
wheel=$(ls "$work"/dist/pix_sandbox-*.whl)
echo "wheel: $(basename "$wheel"), $(( $(stat -c %s "$wheel") / 1024 )) kB"
"$py" -m pip install -q "$wheel"
# The tests must import the installed wheel: nothing puts clients/python/src on the path.
(cd "$work" && "$py" -c 'import pix_sandbox, sys; assert "site-packages" in pix_sandbox.__file__, pix_sandbox.__file__')

export PIX_SANDBOX_BIN="$ROOT/dist/cli.js"
unset PIX_SANDBOX_URL PIX_SANDBOX_ADMIN_TOKEN
# Two workers: the tests wait on their sandboxes more than they compute (81 tests: 128 s in one,
# 76 s in two here, 45 s of CPU either way).
(cd clients/python && "$py" -m pytest -q -p no:cacheprovider -n 2)
if ! wait "$installing"; then
  cat "$work/npm-install.log"
  exit 1
fi
echo "examples/pytest outside the clone: npm install of the tarball done $((SECONDS - started)) s after it started"
(cd "$outside" && unset PIX_SANDBOX_BIN && "$py" -m pytest -q -p no:cacheprovider -n 2)

for dir in clients/python examples/pytest; do
  (cd "$dir" && "$py" -m mypy --strict . && "$py" -m ruff check . && "$py" -m ruff format --check .)
done
