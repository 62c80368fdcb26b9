#!/usr/bin/env bash
# Builds the C ABI (crates/sinew-capi) and runs its host programs against the cdylib:
# the C test of every function under valgrind (zero errors, zero leaks), the C++17 render
# sample (its PNG compared with `sinew render`, the Rust CPU renderer, and its pose with
# `sinew dump`, the Rust facade) and the C# binding (every header function, checked against
# the header by bindings/csharp/check_header.py) with its tests and Unity-style sample under
# mono (bindings/c/controls_test.c: the calls of ABI 104; bindings/c/sliders_test.c and
# bindings/cpp/slider_sample.cpp: ABI 106, Spine 4.3 sliders and physics directions;
# bindings/c/entry_options_test.c and bindings/cpp/entry_options_sample.cpp: ABI 107, Spine 4.3
# track entry options). Checks that the cdylib exports only `sinew_` symbols. Installs gcc, g++, valgrind,
# mono, python3 and binutils (nm) with apt-get when missing. Run by .ci/run; works from any
# directory. The shared fixtures ($SINEW_FIXTURES, else ../shared/fixtures) are required
# under CI=true; elsewhere their tests are skipped and the samples use examples/stickbot.
set -euxo pipefail
cd "$(dirname "$0")/.."

need=()
command -v gcc >/dev/null || need+=(gcc)
command -v g++ >/dev/null || need+=(g++)
command -v valgrind >/dev/null || need+=(valgrind)
command -v mcs >/dev/null || need+=(mono-mcs)
command -v mono >/dev/null || need+=(mono-runtime)
command -v python3 >/dev/null || need+=(python3)
command -v nm >/dev/null || need+=(binutils)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

cargo build -p sinew-capi -p sinew-cli
lib="$PWD/target/debug"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# Only `sinew_` symbols are exported by the cdylib (Rust's own are hidden by rustc).
bad_symbols="$(nm -D --defined-only "$lib/libsinew_capi.so" | awk '{print $NF}' | grep -v '^sinew_' || true)"
if [ -n "$bad_symbols" ]; then
    echo "libsinew_capi.so exports symbols without the sinew_ prefix:"; echo "$bad_symbols"; exit 1
fi
test "$(nm -D --defined-only "$lib/libsinew_capi.so" | grep -c ' T sinew_')" -ge 60

fixtures="${SINEW_FIXTURES:-$PWD/../shared/fixtures}"
fixture_files=(spine/spineboy/spineboy-pro.json spine/spineboy/spineboy-pro.skel spine/spineboy/spineboy.atlas
    dragonbones/dragon_boy/dragon_boy_ske.json dragonbones/dragon_boy/dragon_boy_tex.json)
missing=()
for f in "${fixture_files[@]}"; do [ -f "$fixtures/$f" ] || missing+=("$f"); done
if [ ${#missing[@]} -eq 0 ]; then
    spine="$fixtures/spine/spineboy"
    skel="$spine/spineboy-pro.json" atlas="$spine/spineboy.atlas" anim=run fixture_arg=("$fixtures")
elif [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
    echo "shared fixtures missing under $fixtures: ${missing[*]}; CI=true requires them (set SINEW_FIXTURES)"
    exit 1
else
    echo "shared fixtures missing under $fixtures (${missing[*]}): their C tests are skipped, the samples use examples/stickbot"
    skel="$PWD/examples/stickbot/stickbot.json" atlas="$PWD/examples/stickbot/stickbot.atlas" anim=walk fixture_arg=()
fi

# C: every function, misuse included, under valgrind.
gcc -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/sinew_test.c -L"$lib" -lsinew_capi \
    -Wl,-rpath,"$lib" -o "$out/sinew_test"
mkdir -p "$out/scratch"
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$out/sinew_test" "$PWD" "$out/scratch" "${fixture_arg[@]}"
# C: the calls of ABI 104 (constraint mixes, tracks, attachments, play counts, jiggle).
gcc -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/controls_test.c -L"$lib" -lsinew_capi -lm \
    -Wl,-rpath,"$lib" -o "$out/controls_test"
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$out/controls_test" "$PWD"

# C: the calls of ABI 106 (Spine 4.3 sliders, wind and gravity directions) on the 4.3 rigs of
# testdata/spine43, misuse included.
gcc -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/sliders_test.c -L"$lib" -lsinew_capi -lm \
    -Wl,-rpath,"$lib" -o "$out/sliders_test"
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$out/sliders_test" "$PWD"
# C++17: the same calls through RAII wrappers (under valgrind); the pose of slider-lab's `move`
# (sliders keyed by its timelines and driven by bones) equals `sinew dump`'s exactly.
g++ -std=c++17 -Wall -Wextra -Werror -Iinclude bindings/cpp/slider_sample.cpp -L"$lib" -lsinew_capi \
    -Wl,-rpath,"$lib" -o "$out/slider_sample"
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$out/slider_sample" "$PWD" 50 > "$out/slider_cpp.txt"
target/debug/sinew dump testdata/spine43/slider-lab.json --anim move --fps 60 \
    --times "$(python3 -c 'print(repr(50 / 60))')" > "$out/slider_dump.json"
python3 - "$out/slider_dump.json" "$out/slider_cpp.txt" <<'PY'
import json, sys
bones = json.load(open(sys.argv[1]))["frames"][0]["bones"]
got = {l.split()[1]: [float(v) for v in l.split()[2:]] for l in open(sys.argv[2]) if l.startswith("bone ")}
assert len(got) == len(bones) == 9, f"{len(got)} C++ bones, {len(bones)} dumped"
for b in bones:
    want = [b["a"], b["b"], b["c"], b["d"], b["worldX"], b["worldY"]]
    assert got[b["name"]] == want, f"C++ slider-lab pose of {b['name']}: {got[b['name']]} != Rust {want}"
print(f"C++ sliders: {len(bones)} bones of slider-lab equal the Rust facade's exactly")
PY

# C: the calls of ABI 107 (Spine 4.3 track entry options), closed forms and misuse.
gcc -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/entry_options_test.c -L"$lib" -lsinew_capi \
    -Wl,-rpath,"$lib" -o "$out/entry_options_test"
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$out/entry_options_test" "$PWD"
# C++17: options set on the current and the last queued entries pose a 4.3 rig as `sinew dump`
# with the same options does, exactly, in the middle of both mixes (0.6 s): the shared 4.3
# spineboy-pro (walk -> run + aim, as testdata/spine43/golden-options' all-options case, its
# layer at alpha 1), else slider-lab (nod -> bend + wave). As controls, the dump without the
# options differs, and on spineboy so does the dump without any one of them.
g++ -std=c++17 -Wall -Wextra -Werror -Iinclude bindings/cpp/entry_options_sample.cpp -L"$lib" -lsinew_capi \
    -Wl,-rpath,"$lib" -o "$out/entry_options_sample"
if [ -f "$fixtures/spine43/spineboy/spineboy-pro.json" ]; then
    options_rig=("$fixtures/spine43/spineboy/spineboy-pro.json" walk run aim) each_option=1
elif [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
    echo "shared fixture spine43/spineboy/spineboy-pro.json missing under $fixtures; CI=true requires it"; exit 1
else
    options_rig=(testdata/spine43/slider-lab.json nod bend wave) each_option=0
fi
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$out/entry_options_sample" "${options_rig[@]}" 36 > "$out/options_cpp.txt"
options_dump=("${options_rig[0]}" --from "${options_rig[1]}" --anim "${options_rig[2]}" --at 0.3 --mix 0.4
    --layers "${options_rig[3]}" --layer-at 0.2 --layer-mix 0.3 --fps 60 --times "$(python3 -c 'print(repr(36 / 60))')")
all_options=(--keep-hold --mix-interpolation pow:3 --additive)
target/debug/sinew dump "${options_dump[@]}" "${all_options[@]}" > "$out/options_dump.json"
target/debug/sinew dump "${options_dump[@]}" > "$out/options_control0.json"
controls=("$out/options_control0.json")
if [ "$each_option" = 1 ]; then
    target/debug/sinew dump "${options_dump[@]}" --mix-interpolation pow:3 --additive > "$out/options_control1.json"
    target/debug/sinew dump "${options_dump[@]}" --keep-hold --additive > "$out/options_control2.json"
    target/debug/sinew dump "${options_dump[@]}" --keep-hold --mix-interpolation pow:3 > "$out/options_control3.json"
    controls+=("$out/options_control1.json" "$out/options_control2.json" "$out/options_control3.json")
fi
python3 - "$out/options_cpp.txt" "$out/options_dump.json" "${controls[@]}" <<'PY'
import json, sys
def pose(path):
    return {b["name"]: [b["a"], b["b"], b["c"], b["d"], b["worldX"], b["worldY"]]
            for b in json.load(open(path))["frames"][0]["bones"]}
got = {l.split()[1]: [float(v) for v in l.split()[2:]] for l in open(sys.argv[1]) if l.startswith("bone ")}
want = pose(sys.argv[2])
assert len(got) == len(want) > 0, f"{len(got)} C++ bones, {len(want)} dumped"
for name, w in want.items():
    assert got[name] == w, f"C++ entry options pose of {name}: {got[name]} != Rust {w}"
for control in sys.argv[3:]:
    other = pose(control)
    moved = [n for n in want if other[n] != want[n]]
    assert moved, f"{control}: the same pose without (some of) the options"
print(f"C++ entry options: {len(want)} bones equal the Rust facade's exactly; {len(sys.argv) - 3} controls differ")
PY

# The header also compiles as C++; the C++17 sample renders frames (untextured: it has no PNG
# decoder, so both sides draw white times the vertex colours) to PNGs and prints its poses.
g++ -std=c++17 -Wall -Wextra -Werror -Iinclude bindings/cpp/render_sample.cpp -L"$lib" -lsinew_capi \
    -Wl,-rpath,"$lib" -o "$out/render_sample"
frames=30 size=256
"$out/render_sample" "$skel" none "$anim" "$frames" "$out" "$size" > "$out/cpp.txt"
time=$(python3 -c "print(repr($frames / 60))")
view=$(awk '$1 == "view" {print $2 "," $3 "," $4 "," $5}' "$out/cpp.txt")
# The Rust CPU renderer: the same frame (the clock stepped at 1/60 s as the sample steps),
# view and size; and, as a control that the comparison can fail, the view moved by 4%.
shifted=$(python3 -c "v=[float(x) for x in '$view'.split(',')]; d=0.04*(v[2]-v[0]); print(','.join(repr(x) for x in (v[0]+d, v[1], v[2]+d, v[3])))")
for v in "$view:rust" "$shifted:control"; do
    target/debug/sinew render "$skel" --atlas none --anim "$anim" --fps 60 --times "$time" \
        --view "${v%%:*}" --size "${size}x${size}" --out "$out/${v##*:}.png"
done
python3 bindings/compare_png.py "$out/frame$(printf %03d "$frames").png" "$out/rust.png" "$out/control.png"
target/debug/sinew dump "$skel" --anim "$anim" --times "$time" --fps 60 > "$out/dump.json"
python3 - "$out/dump.json" "$out/cpp.txt" "$out/expected.txt" <<'PY'
import json, sys
bones = json.load(open(sys.argv[1]))["frames"][0]["bones"]
got = {l.split()[1]: [float(v) for v in l.split()[2:]] for l in open(sys.argv[2]) if l.startswith("bone ")}
with open(sys.argv[3], "w") as f:
    for b in bones:
        want = [b["a"], b["b"], b["c"], b["d"], b["worldX"], b["worldY"]]
        f.write(" ".join([b["name"]] + [repr(float(v)) for v in want]) + "\n")
        assert got[b["name"]] == want, f"C++ pose of {b['name']}: {got[b['name']]} != Rust {want}"
print(f"C++: {len(bones)} bones equal the Rust facade's exactly")
PY

# C#: every header function has a [DllImport] whose arguments match its declaration; as a
# control, a header with one function more must fail the check.
python3 bindings/csharp/check_header.py "$PWD"
sed 's/^enum SinewStatus sinew_pool_shutdown(void);/&\nenum SinewStatus sinew_added_later(uint32_t x);/' include/sinew.h > "$out/added.h"
if python3 bindings/csharp/check_header.py "$PWD" --header "$out/added.h" > "$out/added.txt"; then
    echo "check_header.py passed a header with a function the C# binding lacks"; exit 1
fi
grep -q "sinew_added_later is in include/sinew.h but has no \[DllImport\]" "$out/added.txt"
# The binding, its tests and the Unity-style sample under mono, traced (the trace lists the
# imports called), then: every import called by the tests, every struct laid out as C lays
# out the header's.
mcs -nologo -warnaserror -out:"$out/sinew_cs.exe" bindings/csharp/*.cs
mono "$out/sinew_cs.exe" --layout > "$out/cs_layout.txt"
cs_rc=0
LD_LIBRARY_PATH="$lib" mono --trace=T:Sinew.Native "$out/sinew_cs.exe" "$PWD" "$out/scratch" \
    "$skel" "$atlas" "$anim" "$frames" "$out/expected.txt" > "$out/cs.txt" 2>&1 || cs_rc=$?
grep -v -e '^\[0x' -e 'Sinew\.Native:' -e '^Parameter name: name$' "$out/cs.txt" || true
[ "$cs_rc" -eq 0 ] || { echo "C# tests failed ($cs_rc)"; exit 1; }
python3 bindings/csharp/check_header.py "$PWD" --called "$out/cs.txt" --layout "$out/cs_layout.txt"
