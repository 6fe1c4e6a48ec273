#!/usr/bin/env bash
# The packed tarball on another Node: packs it (npm run package), installs it into an empty project inside
# a Node container (host network, so the npm registry is reached as from the host) and runs
# scripts/tarball-smoke.mjs there. Says whether the container has a compiler, since better-sqlite3
# downloads a prebuilt addon from GitHub or else compiles one; --with-compiler installs Debian's
# (python3 make g++, as the Dockerfile's build stage does) for machines that cannot reach GitHub.
# Usage: scripts/docker-node.sh [--with-compiler] [image]   (default node:22-slim)
set -euo pipefail
compiler=:
if [[ ${1:-} == --with-compiler ]]; then
  compiler='apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null'
  shift
fi
image=${1:-node:22-slim}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && npm run --silent package -- "$work" >/dev/null)
cp "$root/scripts/tarball-smoke.mjs" "$work/"
docker run --rm --network host -v "$work:/smoke" -w /smoke -e COMPILER="$compiler" "$image" bash -c '
  set -e
  eval "$COMPILER"
  echo "node $(node --version), npm $(npm --version); compiler: $(command -v g++ || echo none), make: $(command -v make || echo none), python3: $(command -v python3 || echo none)"
  npm init -y >/dev/null
  start=$(date +%s)
  npm install --no-audit --no-fund --foreground-scripts ./pix-sandbox-*.tgz
  echo "install took $(( $(date +%s) - start )) s"
  node tarball-smoke.mjs'
