#!/usr/bin/env bash
# README's "Use it in Bevy", followed as a new user would (called by .ci/bevy.sh): a new
# project outside the repository (`cargo new`), its Cargo.toml dependencies and src/main.rs
# taken from README's ```toml and ```rust blocks as they are (PATH/TO/sinew replaced by this
# checkout), stickbot copied into assets/, `cargo build --release`, then the program runs in
# a window under Xvfb. Checked: it logs footsteps (the animation plays, events arrive) and
# its window shows a character that moves (two screenshots of Xvfb's framebuffer).
#
# The one thing CI does that a user would not: the build shares bevy_sinew's target
# directory and Cargo.lock, so Bevy (same features, same profile) is not compiled again.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/crates/bevy_sinew/target}"
work="$(mktemp -d /tmp/sinew-bevy-readme.XXXXXX)"
trap 'rm -rf "$work"' EXIT

cd "$work"
cargo new --quiet mygame
cd mygame
# Step 2: replace the empty [dependencies] line with README's toml block.
python3 - "$repo/README.md" "$repo" <<'EOF'
import re, sys
readme, repo = open(sys.argv[1]).read(), sys.argv[2]
section = readme[readme.index("## Use it in Bevy"):]
section = section[: section.index("\n## ", 1)]
def block(lang):
    m = re.search(r"^```" + lang + r"\n(.*?)^```", section, re.S | re.M)
    if not m:
        sys.exit(f"README's 'Use it in Bevy' has no ```{lang} block")
    return m.group(1).replace("PATH/TO/sinew", repo)
toml = open("Cargo.toml").read()
if toml.count("[dependencies]\n") != 1:
    sys.exit("cargo new's Cargo.toml no longer ends in an empty [dependencies]: " + toml)
open("Cargo.toml", "w").write(toml.replace("[dependencies]\n", block("toml")))
open("src/main.rs", "w").write(block("rust"))
EOF
# Step 3.
mkdir assets && cp -r "$repo/examples/stickbot" assets/
# Step 5's build (the same dependency versions as bevy_sinew's tested lock).
cp "$repo/crates/bevy_sinew/Cargo.lock" .
cargo build --release

# Step 5 (`cargo run`: Bevy finds assets/ beside Cargo.toml through CARGO_MANIFEST_DIR,
# which cargo sets) in a 1280x720 X screen whose framebuffer is a file (XWD), until it has
# logged two footsteps, then two screenshots 0.5 s apart.
mkdir fb
xvfb-run -a -s "-screen 0 1280x720x24 -fbdir $work/mygame/fb" bash -c '
    cargo run --release >run.log 2>&1 & pid=$!
    for _ in $(seq 120); do
        [ "$(grep -c "footstep of" run.log)" -ge 2 ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.5
    done
    cp fb/Xvfb_screen0 shot1.xwd; sleep 0.5; cp fb/Xvfb_screen0 shot2.xwd
    pkill -P $pid 2>/dev/null || true; kill $pid 2>/dev/null || true
    wait $pid 2>/dev/null || true'
grep -c "footstep of" run.log >/dev/null || { echo "no footsteps logged:"; cat run.log; exit 1; }
if grep -E "panicked|ERROR" run.log; then cat run.log; exit 1; fi

python3 - shot1.xwd shot2.xwd "$CARGO_TARGET_DIR/bevy-readme.png" <<'EOF'
import struct, sys, zlib
def read_xwd(path):
    d = open(path, "rb").read()
    h = struct.unpack(">25I", d[:100])
    size, w, ht, bpp, stride, ncolors = h[0], h[4], h[5], h[11], h[12], h[19]
    assert bpp == 32, f"{path}: {bpp} bits per pixel"
    off = size + 12 * ncolors
    return w, ht, [d[off + y * stride: off + y * stride + 4 * w] for y in range(ht)]
w, h, a = read_xwd(sys.argv[1])
_, _, b = read_xwd(sys.argv[2])
# The first screenshot as a PNG beside the build, to look at when this fails.
rows = b"".join(b"\0" + bytes(v for x in range(w) for v in r[4 * x: 4 * x + 3][::-1]) for r in a)
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[3], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                              + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
bg = a[0][:4]  # the clear colour: the character stands below the middle, not in a corner
drawn = [(x, y) for y in range(h) for x in range(w) if a[y][4 * x: 4 * x + 4] != bg]
moved = sum(1 for y in range(h) if a[y] != b[y])
xs, ys = [p[0] for p in drawn], [p[1] for p in drawn]
print(f"README's Bevy program: {len(drawn)} of {w * h} pixels drawn over the clear colour, "
      f"x {min(xs, default=0)}..{max(xs, default=0)}, y {min(ys, default=0)}..{max(ys, default=0)}; "
      f"{moved} rows changed in 0.5 s")
assert 0.002 * w * h < len(drawn) < 0.2 * w * h, "no character (or a window of noise)"
assert abs((min(xs) + max(xs)) / 2 - w / 2) < w / 8, "the character is not in the middle"
assert moved > 10, "the character does not move"
EOF
grep -m2 "footstep of" run.log
