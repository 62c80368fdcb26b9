#!/usr/bin/env bash
# Builds the C ABI (crates/sinew-capi) and runs its host programs against the cdylib:
# the C test of every function under valgrind (zero errors, zero leaks), the C++17 render
# sample (poses compared with `sinew dump`, the Rust facade) and the C# binding with its
# Unity-style components under mono. Installs gcc, g++, valgrind, mono and python3 with
# apt-get when missing. Run by .ci/run; works from any directory.
set -euxo pipefail
cd "$(dirname "$0")/.."

need=()
command -v gcc >/dev/null || need+=(gcc)
command -v g++ >/dev/null || need+=(g++)
command -v valgrind >/dev/null || need+=(valgrind)
command -v mcs >/dev/null || need+=(mono-mcs)
command -v mono >/dev/null || need+=(mono-runtime)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

cargo build -p sinew-capi -p sinew-cli
lib="$PWD/target/debug"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

spine="${SINEW_FIXTURES:-$PWD/../shared/fixtures}/spine/spineboy"
if [ -f "$spine/spineboy-pro.json" ]; then
    skel="$spine/spineboy-pro.json" atlas="$spine/spineboy.atlas" anim=run spineboy=("$spine")
else
    echo "shared fixtures missing: the samples use examples/stickbot"
    skel="$PWD/examples/stickbot/stickbot.json" atlas="$PWD/examples/stickbot/stickbot.atlas" anim=walk spineboy=()
fi

# C: every function, misuse included, under valgrind.
gcc -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/sinew_test.c -L"$lib" -lsinew_capi \
    -Wl,-rpath,"$lib" -o "$out/sinew_test"
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,possible \
    "$out/sinew_test" "$PWD" "${spineboy[@]}"

# The header also compiles as C++; the C++17 sample renders frames and prints its poses.
g++ -std=c++17 -Wall -Wextra -Werror -Iinclude bindings/cpp/render_sample.cpp -L"$lib" -lsinew_capi \
    -Wl,-rpath,"$lib" -o "$out/render_sample"
frames=30
"$out/render_sample" "$skel" "$atlas" "$anim" "$frames" "$out" > "$out/cpp.txt"
ls "$out"/frame*.ppm
time=$(python3 -c "print(repr($frames / 60))")
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

# C#: the P/Invoke wrapper and the Unity-style components under mono.
mcs -nologo -warnaserror -out:"$out/sinew_cs.exe" bindings/csharp/*.cs
LD_LIBRARY_PATH="$lib" mono "$out/sinew_cs.exe" "$skel" "$atlas" "$anim" "$frames" "$out/expected.txt"
