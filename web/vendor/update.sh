#!/usr/bin/env bash
# Vendors three.js into web/vendor/three/ from its npm package, pinned to
# one exact version, so `mangekyo serve` needs no npm (and no bundler) at
# run time: the viewer imports these files through the import map in
# web/index.html.
#
# Usage: web/vendor/update.sh            (re-vendors THREE_VERSION below)
#        THREE_VERSION=0.188.0 web/vendor/update.sh
# Then load every mode (web/tests/run.sh) before committing: three's minor
# versions break APIs.
#
# What is copied: the licence, the core build (three.module.js imports
# three.core.js) and only the addons the viewer uses (ADDONS below, paths
# under the package's examples/jsm/). VERSION records the version and the
# tarball's integrity hash as the registry reported it.
set -euo pipefail
THREE_VERSION="${THREE_VERSION:-0.187.0}"
ADDONS=(controls/OrbitControls.js)

cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --json "three@$THREE_VERSION" >pack.json && tar xzf "three-$THREE_VERSION.tgz")
src="$tmp/package"
integrity="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1]))[0].integrity)' "$tmp/pack.json")"

rm -rf three
mkdir -p three/addons
cp "$src/LICENSE" three/LICENSE
cp "$src/build/three.module.js" "$src/build/three.core.js" three/
for addon in "${ADDONS[@]}"; do
  mkdir -p "three/addons/$(dirname "$addon")"
  cp "$src/examples/jsm/$addon" "three/addons/$addon"
done
printf 'three@%s\n%s\n' "$THREE_VERSION" "$integrity" >three/VERSION
echo "vendored three@$THREE_VERSION ($integrity) into $(pwd)/three"
