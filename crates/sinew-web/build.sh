#!/usr/bin/env bash
# Builds sinew's web player into target/wasm/www: sinew_web.wasm (optimised by wasm-opt
# when binaryen is installed), the JS (sinew.js, renderer.js, player.js), the demo page,
# sinew's examples and testdata and, when present, the shared fixtures (for the browser
# test).
# `--serve` then serves it on http://127.0.0.1:8000/ (the demo: /index.html).
#
# Needs Debian's wasm toolchain (the rustup toolchain has no wasm32 target here):
#   apt-get install rustc-web cargo-web rust-web-src rust-web-llvm lld-22 [binaryen]
# std is built for wasm32 from rust-web-src (-Zbuild-std; about a minute the first time,
# in its own target dir, target/wasm, so the native builds are untouched).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1
# -D warnings: sinew, sinew-formats and sinew-web build for wasm32 without a warning
# (dependencies and std are capped by cargo, as always). A panic (none reaches the API)
# traps at once, without the panic message machinery: 13 KB less after brotli.
export RUSTFLAGS="-D warnings -Zunstable-options -Cpanic=immediate-abort"
# Size first (docs/PERFORMANCE.md, "On the web"): opt-level z, one codegen unit, fat LTO,
# no debug info. std itself built with `optimize_for_size` (small sorts, integer formatting and
# float parsing: 11.7 KB less after brotli, docs/PERFORMANCE.md).
cargo rustc -p sinew-web --lib --crate-type cdylib --release \
    --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size --target-dir target/wasm \
    --config 'profile.release.opt-level="z"' --config profile.release.lto=true \
    --config profile.release.codegen-units=1 --config 'profile.release.panic="abort"' \
    --config profile.release.debug=0 --config profile.release.strip=true
wasm=target/wasm/wasm32-unknown-unknown/release/sinew_web.wasm
www=target/wasm/www
mkdir -p "$www"
if command -v wasm-opt >/dev/null; then
    wasm-opt -Os --all-features "$wasm" -o "$www/sinew_web.wasm"
else
    cp "$wasm" "$www/sinew_web.wasm"
fi
cp crates/sinew-web/web/*.html "$www/"
# The JavaScript as served: without comment lines and indentation (scripts/web/strip_js.py),
# 2.7 KB less after brotli; the browser tests load these copies.
for js in crates/sinew-web/web/*.js; do
    python3 scripts/web/strip_js.py "$js" "$www/$(basename "$js")"
done
ln -sfn "$PWD/examples" "$www/examples"
ln -sfn "$PWD/testdata" "$www/testdata"
fixtures="${SINEW_FIXTURES:-$PWD/../shared/fixtures}"
if [ -d "$fixtures" ]; then ln -sfn "$(cd "$fixtures" && pwd)" "$www/fixtures"; fi
echo "built $www ($(stat -c %s "$wasm") bytes of wasm before wasm-opt, $(stat -c %s "$www/sinew_web.wasm") after)"
if [ "${1:-}" = --serve ]; then
    echo "serving the demo at http://127.0.0.1:8000/"
    exec python3 -m http.server --bind 127.0.0.1 8000 --directory "$www"
fi
