#!/usr/bin/env bash
# sinew on the web (crates/sinew-web, issue 32), called at the end of .ci/run: the wasm
# module built once (release) for wasm32-unknown-unknown with -D warnings (so sinew and
# sinew-formats build for wasm without a warning), its size checked against the budget
# (wasm + JS <= 300 KB after brotli), the reference frames drawn natively by sinew-render,
# the demo served on 127.0.0.1 and driven in Debian's headless Chromium by playwright-core
# (crates/sinew-web/web/test/browser.mjs). Measured cold (empty target/wasm, packages
# installed, playwright-core fetched): see docs/PERFORMANCE.md, "On the web".
set -euxo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)

# Debian's wasm toolchain (the rustup toolchain has no wasm32 target), Chromium, binaryen
# (wasm-opt), brotli (the size check).
pkgs="rustc-web cargo-web rust-web-src rust-web-llvm lld-22 chromium binaryen brotli python3"
if ! dpkg -s $pkgs >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs
fi

bash crates/sinew-web/build.sh
www=target/wasm/www

# Size: the player's wasm and JS, raw and brotli (quality 11), against the 300 KB budget.
total=0
for f in "$www/sinew_web.wasm" "$www/sinew.js" "$www/renderer.js" "$www/player.js"; do
    b=$(brotli -c -q 11 "$f" | wc -c)
    echo "size $(basename "$f"): $(stat -c %s "$f") bytes raw, $b brotli"
    total=$((total + b))
done
echo "size wasm + JS: $total bytes brotli"
[ "$total" -le 307200 ] || { echo "wasm + JS is $total bytes after brotli, over 300 KB"; exit 1; }

# The reference frames: the same Player code natively, drawn by sinew-render (the test
# profile's build from .ci/run is reused: nothing new to compile but the example).
cargo run -p sinew-web --example reference -- "$www/ref"
printf '{"skeleton": {"spine": "4.2.0"}, "bones": [{"name": "root"}, {"name": ' >"$www/bad.json"

# playwright-core (no browser download: Debian's chromium) in a scratch folder.
node_dir=target/wasm/node
if [ ! -d "$node_dir/node_modules/playwright-core" ]; then
    npm install --prefix "$node_dir" --no-audit --no-fund --silent playwright-core@1.65.2
fi
cp crates/sinew-web/web/test/browser.mjs "$node_dir/"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 "$port" --directory "$www" >/dev/null 2>&1 &
server=$!
trap 'kill $server' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/test.html')" 2>/dev/null && break
    sleep 0.2
done
node "$node_dir/browser.mjs" "http://127.0.0.1:$port/"
echo "web CI part: $(( $(date +%s) - t0 )) s"
