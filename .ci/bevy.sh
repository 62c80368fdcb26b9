#!/usr/bin/env bash
# bevy_sinew's part of CI (called by .ci/run): crates/bevy_sinew is its own workspace, so Bevy
# stays off the core's `cargo test --workspace`. Bevy is built ONCE, in one profile (release,
# the examples' profile): clippy runs as the compiler of this workspace's own crate during that
# build (RUSTC_WORKSPACE_WRAPPER=clippy-driver, what `cargo clippy` does, but building instead
# of checking, so the dependencies are not built a second time in check mode), then the tests
# run from the same artifacts. The tests need no window: Bevy renders headless into an image
# on whatever Vulkan device there is (Mesa's lavapipe here, installed by .ci/run).
# Cold (empty crates/bevy_sinew/target, 2 cores): see docs/PERFORMANCE.md.
set -euxo pipefail

cd "$(dirname "$0")/../crates/bevy_sinew"
export CARGO_TERM_COLOR=never
start=$(date +%s)

cargo fmt --check
# Clippy's lints as errors on every target of bevy_sinew (lib, tests, examples), in the same
# release build the tests and examples use. A lint fails the build.
clippy_driver="$(dirname "$(rustup which cargo 2>/dev/null || command -v cargo)")/clippy-driver"
[ -x "$clippy_driver" ] || clippy_driver="$(command -v clippy-driver)"
RUSTC_WORKSPACE_WRAPPER="$clippy_driver" \
    CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" \
    cargo test --release --locked --all-targets --no-run
RUSTC_WORKSPACE_WRAPPER="$clippy_driver" \
    CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" \
    cargo build --release --locked --examples
# The same artifacts: the tests (render comparisons, schedule, events, hot reload, loading,
# time/visibility/render layers/z)
# and the library's doctests.
RUSTC_WORKSPACE_WRAPPER="$clippy_driver" \
    CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" \
    cargo test --release --locked

# The windowed path once (winit, X11, a swapchain on lavapipe): the crowd example under Xvfb
# for 120 frames; it prints its window title on the way out.
out="$(timeout 300 xvfb-run -a "${CARGO_TARGET_DIR:-target}/release/examples/crowd" --count 200 --frames 120)"
grep -qF "sinew: crowd" <<<"$out" || { echo "crowd under Xvfb: $out"; exit 1; }

# README's "Use it in Bevy" followed as a new user would: a new project from its blocks,
# built against the artifacts above, run in a window (it must draw a moving character).
bash ../../.ci/bevy-readme.sh

echo "bevy_sinew CI: $(( $(date +%s) - start )) s"
