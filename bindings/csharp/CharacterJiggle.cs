// CharacterJiggle.cs: jiggle control (ABI 104 and 105) as Character methods: chains by name
// (null or "": every chain), strength set or faded over seconds, level of detail, chains on
// and off, every N-th step, culling by a view rectangle, chains made from code.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Sinew
{
    public sealed partial class Character
    {
        [ThreadStatic] static double[] viewRect;

        public int JiggleChainCount
        {
            get { Check(Native.sinew_character_jiggle_chain_count(Handle, out var n), "sinew_character_jiggle_chain_count"); return (int)n; }
        }

        public string JiggleChainName(int index)
        {
            Check(Native.sinew_character_jiggle_chain_name(Handle, (uint)index, out var v), "sinew_character_jiggle_chain_name");
            return v.ToString();
        }

        /// The names of the chains the character runs (none when jiggle is off).
        public string[] JiggleChains()
        {
            var names = new string[JiggleChainCount];
            for (int i = 0; i < names.Length; i++) names[i] = JiggleChainName(i);
            return names;
        }

        /// A chain's strength now (0 the animated pose, 1 full; moving while a fade runs).
        public double GetJiggleStrength(string chain)
        {
            int n = Utf8.Encode(chain, 0, out var b);
            Check(Native.sinew_character_jiggle_strength(Handle, b, (UIntPtr)n, out var s), "sinew_character_jiggle_strength");
            return s;
        }

        /// Sets a chain's strength (null: every chain) in 0..1, at once or faded over `fadeSeconds`.
        public void SetJiggleStrength(string chain, double strength, double fadeSeconds = 0)
        {
            int n = Utf8.Encode(chain, 0, out var b);
            Check(Native.sinew_character_set_jiggle_strength(Handle, b, (UIntPtr)n, strength, fadeSeconds), "sinew_character_set_jiggle_strength");
        }

        public JiggleLod JiggleLod
        {
            get { Check(Native.sinew_character_jiggle_lod(Handle, out var l), "sinew_character_jiggle_lod"); return (JiggleLod)l; }
            set { Check(Native.sinew_character_set_jiggle_lod(Handle, (uint)value), "sinew_character_set_jiggle_lod"); }
        }

        /// Picks the level of detail from a view distance and the rig extras' thresholds.
        public void SetJiggleViewDistance(double distance) =>
            Check(Native.sinew_character_set_jiggle_view_distance(Handle, distance), "sinew_character_set_jiggle_view_distance");

        /// Switches the jiggle stage off (the animated pose; chains kept) or back on (from rest).
        public void SetJiggleEnabled(bool enabled) =>
            Check(Native.sinew_character_set_jiggle_enabled(Handle, enabled), "sinew_character_set_jiggle_enabled");

        /// Switches one chain (null: every chain) off (not solved) or back on (from rest).
        public void SetJiggleChainEnabled(string chain, bool enabled)
        {
            int n = Utf8.Encode(chain, 0, out var b);
            Check(Native.sinew_character_set_jiggle_chain_enabled(Handle, b, (UIntPtr)n, enabled), "sinew_character_set_jiggle_chain_enabled");
        }

        public bool GetJiggleChainEnabled(string chain)
        {
            int n = Utf8.Encode(chain, 0, out var b);
            Check(Native.sinew_character_jiggle_chain_enabled(Handle, b, (UIntPtr)n, out var e), "sinew_character_jiggle_chain_enabled");
            return e;
        }

        /// Solves one chain (null: every chain) only every `every`-th fixed step (1..16).
        public void SetJiggleChainEvery(string chain, uint every)
        {
            int n = Utf8.Encode(chain, 0, out var b);
            Check(Native.sinew_character_set_jiggle_chain_every(Handle, b, (UIntPtr)n, every), "sinew_character_set_jiggle_chain_every");
        }

        public uint GetJiggleChainEvery(string chain)
        {
            int n = Utf8.Encode(chain, 0, out var b);
            Check(Native.sinew_character_jiggle_chain_every(Handle, b, (UIntPtr)n, out var e), "sinew_character_jiggle_chain_every");
            return e;
        }

        /// The strength the chain's solver used last update (set or faded, times the animations' cues).
        public double GetJiggleEffectiveStrength(string chain)
        {
            int n = Utf8.Encode(chain, 0, out var b);
            Check(Native.sinew_character_jiggle_effective_strength(Handle, b, (UIntPtr)n, out var s), "sinew_character_jiggle_effective_strength");
            return s;
        }

        /// Culls the jiggle while the character's bounds miss this view rectangle (world units,
        /// y up). Per frame as the camera moves: no allocation.
        public void SetJiggleView(double minX, double minY, double maxX, double maxY)
        {
            var r = viewRect ?? (viewRect = new double[4]);
            r[0] = minX; r[1] = minY; r[2] = maxX; r[3] = maxY;
            Check(Native.sinew_character_set_jiggle_view(Handle, r), "sinew_character_set_jiggle_view");
        }

        /// No view rectangle: never culled (the default).
        public void ClearJiggleView() => Check(Native.sinew_character_set_jiggle_view(Handle, null), "sinew_character_set_jiggle_view");

        /// Whether the last update culled the jiggle.
        public bool JiggleCulled
        {
            get { Check(Native.sinew_character_jiggle_culled(Handle, out var b), "sinew_character_jiggle_culled"); return b; }
        }

        /// One jiggle chain made from code: its bones by name (root first) and a preset.
        public struct JiggleChainSpec
        {
            public string Name; public string[] Bones; public JigglePreset Preset;
            public JiggleChainSpec(string name, JigglePreset preset, params string[] bones) { Name = name; Preset = preset; Bones = bones; }
        }

        /// Replaces the jiggle chains (the extras' or earlier ones) with these; none removes
        /// every chain. Allocates: not per frame.
        public void SetJiggleChains(params JiggleChainSpec[] chains)
        {
            var pins = new List<GCHandle>();
            try
            {
                var descs = new JiggleChain[chains.Length];
                for (int c = 0; c < chains.Length; c++)
                {
                    var bones = chains[c].Bones ?? new string[0];
                    var strs = new Str[bones.Length];
                    for (int i = 0; i < bones.Length; i++) strs[i] = PinStr(bones[i], pins);
                    var arr = GCHandle.Alloc(strs, GCHandleType.Pinned);
                    pins.Add(arr);
                    descs[c] = new JiggleChain
                    {
                        Name = PinStr(chains[c].Name, pins), Bones = arr.AddrOfPinnedObject(),
                        BoneCount = (UIntPtr)bones.Length, Preset = (uint)chains[c].Preset,
                    };
                }
                Check(Native.sinew_character_set_jiggle_chains(Handle, descs, (UIntPtr)descs.Length), "sinew_character_set_jiggle_chains");
            }
            finally
            {
                foreach (var h in pins) h.Free();
            }
        }

        static Str PinStr(string s, List<GCHandle> pins)
        {
            var b = Utf8.Bytes(s);
            return new Str { Ptr = Rig.Pin(b, pins), Len = Utf8.Len(b) };
        }
    }
}
